package ingest_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/ingest"
)

// collector keeps every recorded result.
type collector struct{ got []ingest.Result }

func (c *collector) Record(_ context.Context, r ingest.Result) error {
	c.got = append(c.got, r)
	return nil
}

// readVerdicts reads a go test -json stream and returns each result's
// verdict by title, prefix (a package path and its dot) cut off, and the
// stream's stats.
func readVerdicts(t *testing.T, r io.Reader, prefix string) (map[string]bool, ingest.SourceStats) {
	t.Helper()
	var c collector
	st, err := ingest.ReadGoTest(t.Context(), r, &c, ingest.GoTestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, res := range c.got {
		got[strings.TrimPrefix(res.CaseTitle, prefix)] = res.Passed
	}
	return got, st
}

// testdata/gotest.jsonl is real go test -json output (go 1.26) of a module
// with passing, failing, skipped, parallel and sub tests run twice
// (-count=2), a panicking package, a build failure, a TestMain that fails
// after its tests pass and a -timeout, plus one non-JSON line.
func TestReadGoTestRealStream(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile("testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var c collector
	var pass, text bytes.Buffer
	st, err := ingest.ReadGoTest(t.Context(), bytes.NewReader(in), &c, ingest.GoTestOptions{Passthrough: &pass, Output: &text})
	if err != nil {
		t.Fatal(err)
	}
	if st.Passed != 12 || st.Failed != 10 || st.Skipped != 4 || st.PackageFailures != 3 || st.Passthrough != 1 {
		t.Errorf("stats = %+v", st)
	}
	if pass.String() != "go: downloading example.com/x v1.0.0\n" {
		t.Errorf("passthrough = %q", pass.String())
	}
	if !strings.Contains(text.String(), "--- FAIL: TestFail") || !strings.Contains(text.String(), "want 1, got 2") {
		t.Errorf("output text lacks the go test -v lines")
	}
	type row struct {
		Title  string
		Passed bool
	}
	var rows []row
	byTitle := map[string][]ingest.Result{}
	ids := map[string]bool{}
	for _, r := range c.got {
		rows = append(rows, row{strings.TrimPrefix(r.CaseTitle, "example.com/demo/"), r.Passed})
		byTitle[strings.TrimPrefix(r.CaseTitle, "example.com/demo/")] = append(byTitle[strings.TrimPrefix(r.CaseTitle, "example.com/demo/")], r)
		if ids[r.ExternalIterationID] {
			t.Errorf("duplicate iteration id %s (%s)", r.ExternalIterationID, r.CaseTitle)
		}
		ids[r.ExternalIterationID] = true
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Title < rows[j].Title })
	want := []row{
		{"buildfail [build failed]", false},
		{"mainfail [package]", false},
		{"mainfail.TestFine", true}, {"mainfail.TestFine", true},
		{"ok.TestFail", false}, {"ok.TestFail", false},
		{"ok.TestParallel1", true}, {"ok.TestParallel1", true},
		{"ok.TestParallel2", true}, {"ok.TestParallel2", true},
		{"ok.TestPass", true}, {"ok.TestPass", true},
		{"ok.TestSub", false}, {"ok.TestSub", false},
		{"ok.TestSub/a", true}, {"ok.TestSub/a", true},
		{"ok.TestSub/b", false}, {"ok.TestSub/b", false},
		{"panics.TestBefore", true},
		{"panics.TestPanics", false},
		{"timeout.TestQuick", true},
		{"timeout.TestSlow", false},
	}
	if diff := gocmp.Diff(want, rows); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	checks := map[string]string{
		"ok.TestFail":              "want 1, got 2",
		"ok.TestSub/b":             "b is broken",
		"panics.TestPanics":        "assignment to entry in nil map",
		"buildfail [build failed]": "undefined: undefinedThing",
		"mainfail [package]":       "leaked goroutines found",
		"timeout.TestSlow":         "test timed out",
	}
	for title, want := range checks {
		if rs := byTitle[title]; len(rs) == 0 || !strings.Contains(rs[0].Error, want) {
			t.Errorf("%s: error lacks %q: %+v", title, want, rs)
		}
	}
	if e := byTitle["ok.TestFail"][0].Error; strings.Contains(e, "=== RUN") {
		t.Errorf("framing lines kept: %q", e)
	}
	if r := byTitle["ok.TestPass"]; r[0].ExternalIterationID == r[1].ExternalIterationID ||
		r[0].ExternalIterationID != ingest.IterationID(1, "example.com/demo/ok", "TestPass") {
		t.Errorf("-count=2 ids: %s %s", r[0].ExternalIterationID, r[1].ExternalIterationID)
	}
}

// Output is kept as a bounded head and tail with a marker between.
func TestReadGoTestBoundedOutput(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	in.WriteString(`{"Action":"run","Package":"p","Test":"TestBig"}` + "\n")
	for i := range 5000 {
		in.WriteString(`{"Action":"output","Package":"p","Test":"TestBig","Output":"line ` + strings.Repeat("x", 10) + "\\t" + itoa(i) + `\n"}` + "\n")
	}
	in.WriteString(`{"Action":"fail","Package":"p","Test":"TestBig","Elapsed":1.5}` + "\n")
	var c collector
	_, err := ingest.ReadGoTest(t.Context(), strings.NewReader(in.String()), &c, ingest.GoTestOptions{OutputHead: 100, OutputTail: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.got) != 1 {
		t.Fatalf("got %d results", len(c.got))
	}
	e := c.got[0].Error
	if !strings.HasPrefix(e, "line xxxxxxxxxx\t0\n") || !strings.HasSuffix(e, "\t4999\n") || !strings.Contains(e, "bytes removed") || len(e) > 300 {
		t.Errorf("error = %q", e)
	}
	if c.got[0].DurationMs != 1500 {
		t.Errorf("duration = %v", c.got[0].DurationMs)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// Output after a test ended does not make it "running": a later package
// failure does not fail it a second time.
func TestReadGoTestLateOutput(t *testing.T) {
	t.Parallel()
	in := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0}
{"Action":"output","Package":"p","Test":"TestA","Output":"late line\n"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0}
{"Action":"fail","Package":"p","Elapsed":0}
`
	var c collector
	st, err := ingest.ReadGoTest(t.Context(), strings.NewReader(in), &c, ingest.GoTestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Passed != 1 || st.Failed != 1 || st.PackageFailures != 0 || len(c.got) != 2 {
		t.Errorf("stats %+v, results %+v", st, c.got)
	}
}

// Real go test -json -bench output (Go 1.26): test2json sends no pass
// event for a benchmark, so a passing one is known by its result line; it
// passes even when another benchmark fails the package.
func TestPassingBenchmarkPasses(t *testing.T) {
	t.Parallel()
	fh, err := os.Open("testdata/gotest_bench.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	got := map[string]bool{}
	if _, err := ingest.ReadGoTest(t.Context(), fh, ingest.RecorderFunc(func(_ context.Context, r ingest.Result) error {
		got[r.CaseTitle] = r.Passed
		return nil
	}), ingest.GoTestOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"gt/e.TestE": true, "gt/e.BenchmarkX": true, "gt/e.BenchmarkFail": false}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// Real `go test -json ./c ./d` (Go 1.26) where c and d both import a
// package that does not compile: the compiler error is printed once, as
// build-output of gt/dep, and both packages fail with FailedBuild gt/dep.
const sharedDepBuildFailure = `{"ImportPath":"gt/dep","Action":"build-output","Output":"# gt/dep\n"}
{"ImportPath":"gt/dep","Action":"build-output","Output":"dep/dep.go:2:23: cannot use \"x\" (untyped string constant) as int value in return statement\n"}
{"ImportPath":"gt/dep","Action":"build-fail"}
{"Time":"2026-11-25T11:13:07.513050252Z","Action":"start","Package":"gt/c"}
{"Time":"2026-11-25T11:13:07.513225244Z","Action":"output","Package":"gt/c","Output":"FAIL\tgt/c [build failed]\n"}
{"Time":"2026-11-25T11:13:07.513234702Z","Action":"fail","Package":"gt/c","Elapsed":0,"FailedBuild":"gt/dep"}
{"Time":"2026-11-25T11:13:07.513394796Z","Action":"start","Package":"gt/d"}
{"Time":"2026-11-25T11:13:07.513487371Z","Action":"output","Package":"gt/d","Output":"FAIL\tgt/d [build failed]\n"}
{"Time":"2026-11-25T11:13:07.51349733Z","Action":"fail","Package":"gt/d","Elapsed":0,"FailedBuild":"gt/dep"}
`

func TestSharedDepBuildFailureKeepsCause(t *testing.T) {
	t.Parallel()
	var got []ingest.Result
	_, err := ingest.ReadGoTest(t.Context(), strings.NewReader(sharedDepBuildFailure),
		ingest.RecorderFunc(func(_ context.Context, r ingest.Result) error { got = append(got, r); return nil }), ingest.GoTestOptions{})
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %d", err, len(got))
	}
	for _, r := range got {
		if !strings.Contains(r.Error, "cannot use") {
			t.Errorf("%s: Error %q lacks the compiler error", r.CaseTitle, r.Error)
		}
	}
}
