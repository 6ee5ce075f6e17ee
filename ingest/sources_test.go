package ingest_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/ingest"
)

type brief struct {
	Title  string
	Passed bool
	Ms     float64
}

func briefs(rs []ingest.Result) []brief {
	var out []brief
	for _, r := range rs {
		out = append(out, brief{r.CaseTitle, r.Passed, r.DurationMs})
	}
	return out
}

func TestReadJUnit(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/junit.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c collector
	st, err := ingest.ReadJUnit(t.Context(), f, &c)
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{{"math.add::adds numbers", true, 12}, {"math.add::adds negatives", false, 500},
		{"math.add::adds numbers", true, 1}, {"reads a file", false, 2000}}
	if diff := gocmp.Diff(want, briefs(c.got)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if st.Passed != 2 || st.Failed != 2 || st.Skipped != 1 {
		t.Errorf("stats %+v", st)
	}
	if e := c.got[1].Error; !strings.Contains(e, "expected -3 to equal -2\nAssertionError") || !strings.Contains(e, "& more") ||
		!strings.Contains(e, "--- output:\ndebug:") {
		t.Errorf("failure text %q", e)
	}
	if c.got[0].ExternalIterationID == c.got[2].ExternalIterationID {
		t.Error("repeated testcase got the same id")
	}
	if c.got[3].Error != "ENOENT\nError" {
		t.Errorf("error text %q", c.got[3].Error)
	}
	_, err = ingest.ReadJUnit(t.Context(), strings.NewReader(`<testsuite><testcase name="a"></testsuite>`), &c)
	var fe *ingest.FormatError
	if !errors.As(err, &fe) || fe.Format != "junit" {
		t.Errorf("malformed: %v", err)
	}
	// Single-byte encodings JUnit writers declare are read as such.
	for _, enc := range []string{"ISO-8859-1", "windows-1252"} {
		var l collector
		x := "<?xml version=\"1.0\" encoding=\"" + enc + "\"?>\n<testsuite name=\"s\"><testcase name=\"caf\xe9\"/></testsuite>"
		if _, err := ingest.ReadJUnit(t.Context(), strings.NewReader(x), &l); err != nil || len(l.got) != 1 || l.got[0].CaseTitle != "café" {
			t.Errorf("%s: %v, %+v", enc, err, l.got)
		}
	}
}

func TestReadJest(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/jest.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c collector
	st, err := ingest.ReadJest(t.Context(), f, &c)
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{{"sum adds 1 + 2", true, 3}, {"sum adds 2 + 2", false, 5}, {"works", true, 1}}
	if diff := gocmp.Diff(want, briefs(c.got)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if st.Passed != 2 || st.Failed != 1 || st.Skipped != 2 {
		t.Errorf("stats %+v", st)
	}
	if !strings.Contains(c.got[1].Error, "Received: 5") || c.got[0].Metadata["file"] != "/repo/src/sum.test.js" {
		t.Errorf("failure %q, metadata %v", c.got[1].Error, c.got[0].Metadata)
	}
	for _, bad := range []string{`{"testResults":{}}`, `{"testResults":[{"assertionResults":[{"status":1}]}]}`, `{"testResults":[`, `[]`} {
		_, err := ingest.ReadJest(t.Context(), strings.NewReader(bad), &c)
		var fe *ingest.FormatError
		if !errors.As(err, &fe) || fe.Format != "jest" {
			t.Errorf("%s: err = %v, want a FormatError", bad, err)
		}
	}
}

func TestReadVitest(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"testdata/jest.json", "testdata/vitest-files.json"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var c collector
		st, err := ingest.ReadVitest(t.Context(), strings.NewReader(string(b)), &c)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if file == "testdata/vitest-files.json" {
			want := []brief{{"outer > passes", true, 2.5}, {"outer > fails", false, 1}}
			if diff := gocmp.Diff(want, briefs(c.got)); diff != "" || st.Skipped != 1 {
				t.Errorf("task tree (-want +got):\n%s skipped %d", diff, st.Skipped)
			}
			if !strings.Contains(c.got[1].Error, "expected 1 to be 2") {
				t.Errorf("failure %q", c.got[1].Error)
			}
		} else if len(c.got) != 3 {
			t.Errorf("jest-shaped vitest: %d results", len(c.got))
		}
	}
}
