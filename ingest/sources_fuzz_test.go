package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// checkSource runs read over in: it must not panic, every result must be
// well formed, the stats must add up and any error must be a FormatError.
func checkSource(t *testing.T, in []byte, read func(context.Context, *bytes.Reader, ingest.Recorder) (ingest.SourceStats, error)) {
	n := 0
	rec := ingest.RecorderFunc(func(_ context.Context, r ingest.Result) error {
		if r.CaseTitle == "" || r.ExternalIterationID == "" || r.DurationMs != r.DurationMs {
			t.Fatalf("bad result %+v", r)
		}
		n++
		return nil
	})
	st, err := read(context.Background(), bytes.NewReader(in), rec)
	var fe *ingest.FormatError
	if err != nil && !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a FormatError", err, err)
	}
	if st.Passed+st.Failed != n {
		t.Fatalf("stats %+v, %d results", st, n)
	}
}

func seed(f *testing.F, files ...string) {
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
}

func FuzzReadJUnit(f *testing.F) {
	seed(f, "testdata/junit.xml")
	f.Add([]byte(`<testcase name="x"><failure><![CDATA[boom]]></failure></testcase>`))
	f.Add([]byte(`<a><testcase/></a>`))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkSource(t, in, func(ctx context.Context, r *bytes.Reader, rec ingest.Recorder) (ingest.SourceStats, error) {
			return ingest.ReadJUnit(ctx, r, rec)
		})
	})
}

// FuzzReadJestVitest covers both JSON readers (Vitest adds the task tree).
func FuzzReadJestVitest(f *testing.F) {
	seed(f, "testdata/jest.json", "testdata/vitest-files.json")
	f.Add([]byte(`{"testResults":[{"name":"a","assertionResults":[{"title":"t","status":"failed","duration":-1}]}]}`))
	f.Add([]byte(`{"files":[{"tasks":[{"type":"suite","tasks":[{"name":"x","result":{"state":"pass"}}]}]}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkSource(t, in, func(ctx context.Context, r *bytes.Reader, rec ingest.Recorder) (ingest.SourceStats, error) {
			return ingest.ReadJest(ctx, r, rec)
		})
		checkSource(t, in, func(ctx context.Context, r *bytes.Reader, rec ingest.Recorder) (ingest.SourceStats, error) {
			return ingest.ReadVitest(ctx, r, rec)
		})
	})
}
