package ingest_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
)

// A Vitest task-tree file that failed to load, or a suite whose hook
// failed, is a failing result, as a Jest file that failed to run: both were
// lost (a broken file left a passed run).
func TestVitestTaskTreeFileAndSuiteErrors(t *testing.T) {
	for name, in := range map[string]string{
		"file failed to load": `{"files":[
{"type":"suite","name":"ok.test.ts","filepath":"/r/ok.test.ts","mode":"run","result":{"state":"pass"},
 "tasks":[{"type":"test","name":"works","mode":"run","result":{"state":"pass","duration":1}}]},
{"type":"suite","name":"broken.test.ts","filepath":"/r/broken.test.ts","mode":"run",
 "result":{"state":"fail","errors":[{"message":"Cannot find module './missing'","stack":"Error: Cannot find module"}]},"tasks":[]}]}`,
		"beforeAll failed": `{"files":[{"type":"suite","name":"a.test.ts","filepath":"a.test.ts","mode":"run","result":{"state":"fail"},
 "tasks":[{"type":"suite","name":"db","mode":"run","result":{"state":"fail","errors":[{"message":"beforeAll: connect ECONNREFUSED"}]},
  "tasks":[{"type":"test","name":"reads","mode":"run","result":{"state":"skip"}},{"type":"test","name":"writes","mode":"run","result":{"state":"skip"}}]}]}]}`,
	} {
		var c collector
		stats, err := ingest.ReadVitest(t.Context(), strings.NewReader(in), &c)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Failed != 1 || !strings.Contains(c.got[len(c.got)-1].Error, "Cannot find module") && !strings.Contains(c.got[len(c.got)-1].Error, "ECONNREFUSED") {
			t.Errorf("%s: results %+v stats %+v, want one failing result with the error", name, briefs(c.got), stats)
		}
	}
}

// An assertion without a status, or with one the reader does not know
// ("focused"), fails, as the service's reporter has it (status ?? failed):
// it was counted as skipped, failure messages and all.
func TestJestMissingOrUnknownStatusFails(t *testing.T) {
	for _, st := range []string{``, `,"status":"focused"`} {
		in := `{"testResults":[{"name":"/x/a.test.js","assertionResults":[
{"ancestorTitles":["s"],"title":"t","fullName":"s t","failureMessages":["boom"]` + st + `}]}]}`
		var c collector
		stats, err := ingest.ReadJest(t.Context(), strings.NewReader(in), &c)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.got) != 1 || c.got[0].Passed || stats.Failed != 1 {
			t.Errorf("status%s: got %d results, stats %+v; want one failing result", st, len(c.got), stats)
		}
	}
	// The skips stay skips.
	in := `{"testResults":[{"name":"/x/a.test.js","assertionResults":[
{"title":"a","status":"pending"},{"title":"b","status":"todo"},{"title":"c","status":"disabled"},{"title":"d","status":"skipped"}]}]}`
	var c collector
	if stats, err := ingest.ReadJest(t.Context(), strings.NewReader(in), &c); err != nil || stats.Skipped != 4 || len(c.got) != 0 {
		t.Errorf("skips: %+v, %v, %d results", stats, err, len(c.got))
	}
}

// A Vitest test without a result never finished: it fails (it was counted
// as skipped); one in skip or todo mode stays a skip.
func TestVitestTaskWithoutResultFails(t *testing.T) {
	in := `{"files":[{"type":"suite","name":"a.test.ts","filepath":"a.test.ts","tasks":[
{"type":"test","name":"hangs","mode":"run"},{"type":"test","name":"later","mode":"todo"}]}]}`
	var c collector
	st, err := ingest.ReadVitest(t.Context(), strings.NewReader(in), &c)
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 1 || st.Skipped != 1 {
		t.Errorf("stats %+v, want the unfinished test failed and the todo skipped", st)
	}
}

// A Vitest report with both testResults and the files tree holds the same
// tests twice: they are read once (from testResults).
func TestVitestBothShapesReadOnce(t *testing.T) {
	in := `{"testResults":[{"name":"a.test.ts","assertionResults":[{"ancestorTitles":["s"],"title":"t","fullName":"s t","status":"passed","duration":1}]}],
"files":[{"type":"suite","name":"a.test.ts","filepath":"a.test.ts","tasks":[{"type":"suite","name":"s","tasks":[{"type":"test","name":"t","mode":"run","result":{"state":"pass","duration":1}}]}]}]}`
	var c collector
	if _, err := ingest.ReadVitest(t.Context(), strings.NewReader(in), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.got) != 1 {
		t.Errorf("got %d results %+v, want 1", len(c.got), briefs(c.got))
	}
}

// A report with a files tree and testResults, which hold the same tests,
// gives each test once: the first of the two is read, the other only when
// the first gave no passed or failed test (both were read, every test
// twice).
func TestVitestFilesBeforeTestResults(t *testing.T) {
	tree := `"files":[{"type":"suite","name":"m.test.ts","tasks":[{"type":"test","name":"t","mode":"run","result":{"state":"pass"}}]}]`
	for name, tc := range map[string]struct {
		in   string
		want []string
	}{
		"testResults has results": {`{` + tree + `,
"testResults":[{"name":"m.test.ts","assertionResults":[{"fullName":"t","title":"t","status":"passed"}]}]}`, []string{"t"}},
		"testResults only skips": {`{` + tree + `,
"testResults":[{"name":"m.test.ts","assertionResults":[{"fullName":"x","title":"x","status":"skipped"}]}]}`, []string{"t"}},
		"no testResults":    {`{` + tree + `}`, []string{"t"}},
		"after, only skips": {`{"testResults":[{"name":"m.test.ts","assertionResults":[{"fullName":"x","status":"skipped"}]}],` + tree + `}`, []string{"t"}},
	} {
		var c collector
		if _, err := ingest.ReadVitest(t.Context(), strings.NewReader(tc.in), &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := caseTitles(c.got), strings.Join(tc.want, "|"); got != want {
			t.Errorf("%s: titles %q, want %q", name, got, want)
		}
	}
	// A malformed tree is refused, wherever it stands.
	var c collector
	_, err := ingest.ReadVitest(t.Context(), strings.NewReader(`{"files":[{"type":1}],"testResults":[]}`), &c)
	var fe *ingest.FormatError
	if !errors.As(err, &fe) {
		t.Errorf("malformed tree: %v, want a FormatError", err)
	}
}

// Only tasks of type "test" are results in the Vitest tree, as the
// service's reporter reads it; a custom or untyped task is only recursed
// into (each was a result).
func TestVitestTreeOnlyTypeTest(t *testing.T) {
	in := `{"files":[{"type":"suite","name":"m.test.ts","tasks":[
{"type":"test","name":"t","mode":"run","result":{"state":"pass"}},
{"type":"custom","name":"bench","mode":"run","result":{"state":"pass"}},
{"name":"untyped","mode":"run","result":{"state":"fail"},"tasks":[{"type":"test","name":"inner","mode":"run","result":{"state":"pass"}}]}]}]}`
	var c collector
	if _, err := ingest.ReadVitest(t.Context(), strings.NewReader(in), &c); err != nil {
		t.Fatal(err)
	}
	if got, want := caseTitles(c.got), "t|untyped > inner"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
}

// An errors entry in the Vitest tree may be a plain string, as the
// service's reporter reads it (the whole file was refused); an object
// keeps its message and stack.
func TestVitestTreeStringErrors(t *testing.T) {
	in := `{"files":[{"type":"suite","name":"m.test.ts","tasks":[
{"type":"test","name":"t","mode":"run","result":{"state":"fail","errors":["boom",{"message":"m2","stack":"S"}]}}]}]}`
	var c collector
	if _, err := ingest.ReadVitest(t.Context(), strings.NewReader(in), &c); err != nil {
		t.Fatalf("ReadVitest: %v", err)
	}
	if len(c.got) != 1 || c.got[0].Passed || c.got[0].Error != "boom\nm2\nS" {
		t.Errorf("results %+v, want one failing result with error %q", briefs(c.got), "boom\nm2\nS")
	}
	// Anything else is still refused.
	_, err := ingest.ReadVitest(t.Context(), strings.NewReader(`{"files":[{"type":"suite","name":"m","tasks":[
{"type":"test","name":"t","result":{"state":"fail","errors":[7]}}]}]}`), &collector{})
	var fe *ingest.FormatError
	if !errors.As(err, &fe) {
		t.Errorf("a numeric error entry: %v, want a FormatError", err)
	}
}

// A Vitest tree test with a fullName is titled by it; one without keeps
// its suites' names and its own, joined by " > ".
func TestVitestTreeFullName(t *testing.T) {
	in := `{"files":[{"type":"suite","name":"m.test.ts","filepath":"/r/m.test.ts","tasks":[{"type":"suite","name":"math","tasks":[
{"type":"test","name":"adds","mode":"run","result":{"state":"pass","duration":2}},
{"type":"test","name":"subs","fullName":"m.test.ts > math > subs","mode":"run","result":{"state":"pass"}}]}]}]}`
	var c collector
	if _, err := ingest.ReadVitest(t.Context(), strings.NewReader(in), &c); err != nil {
		t.Fatal(err)
	}
	if got, want := caseTitles(c.got), "math > adds|m.test.ts > math > subs"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
}

// Without a fullName a Jest test's empty ancestor titles are dropped
// before joining, and one with no ancestor or title is titled by its file
// (relative), as the service's reporter titles them: they were "A  t" and
// "(unnamed test)".
func TestJestTitleFallbacks(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	in := `{"testResults":[{"name":` + strconv.Quote(filepath.Join(wd, "a.test.js")) + `,"assertionResults":[
{"ancestorTitles":["A","","B"],"title":"t","status":"passed"},{"ancestorTitles":[""],"title":"","status":"passed"},
{"fullName":"F","ancestorTitles":["A"],"title":"t","status":"passed"}]}]}`
	var c collector
	if _, err := ingest.ReadJest(t.Context(), strings.NewReader(in), &c); err != nil {
		t.Fatal(err)
	}
	if got, want := caseTitles(c.got), "A B t|a.test.js|F"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
}

// testResults holding only skips, plus the files tree with the same
// skipped test: the test is counted once, in either key order.
func TestVitestSkipsCountedOnce(t *testing.T) {
	t.Parallel()
	tr := `"testResults":[{"name":"a.test.ts","status":"passed","assertionResults":[{"fullName":"s t","status":"skipped"}]}]`
	fl := `"files":[{"type":"suite","name":"a.test.ts","filepath":"a.test.ts","tasks":[{"type":"test","name":"t","mode":"skip"}]}]`
	for name, in := range map[string]string{"testResults first": "{" + tr + "," + fl + "}", "files first": "{" + fl + "," + tr + "}"} {
		var c collector
		st, err := ingest.ReadVitest(t.Context(), strings.NewReader(in), &c)
		if err != nil {
			t.Fatal(err)
		}
		if st.Skipped != 1 || st.Events != 1 {
			t.Errorf("%s: stats %+v, want Skipped 1 Events 1 (one skipped test)", name, st)
		}
	}
}

// signalRec signals each result recorded.
type signalRec struct{ ch chan struct{} }

func (s *signalRec) Record(context.Context, ingest.Result) error {
	select {
	case s.ch <- struct{}{}:
	default:
	}
	return nil
}

// A files-only report (the tree's usual form) is streamed file by file:
// the first file's result is recorded before the rest of the input is
// read, not after the whole tree is held in memory.
func TestVitestFilesOnlyTreeStreams(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	rec := &signalRec{ch: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { _, err := ingest.ReadVitest(t.Context(), pr, rec); done <- err }()
	go pw.Write([]byte(`{"files":[{"type":"suite","name":"a.test.ts","filepath":"a.test.ts","tasks":[{"type":"test","name":"t","mode":"run","result":{"state":"pass","duration":1}}]},`))
	select {
	case <-rec.ch:
	case <-time.After(10 * time.Second):
		t.Error("no result recorded after the first file of a files-only report: the whole tree is buffered before any is read")
	}
	pw.Write([]byte(`{"type":"suite","name":"b.test.ts","tasks":[]}]}`))
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// caseTitles is the results' titles, in order, joined by "|".
func caseTitles(rs []ingest.Result) string {
	titles := make([]string, len(rs))
	for i, r := range rs {
		titles[i] = r.CaseTitle
	}
	return strings.Join(titles, "|")
}
