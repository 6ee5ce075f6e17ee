package ingest_test

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/ingest"
)

// go test -json of a package whose binary was killed (CI step timeout,
// OOM kill, Ctrl-C on the pipe's writer) after one test passed and before
// the next began: real go1.26.8 output of example.com/gt/exitpkg cut after
// its 5th line. The package started and never reported an outcome, so its
// later tests never ran: the run must fail, as the same cut one line later
// (with TestExit running) fails TestExit as incomplete. Nothing was
// running to fail, so the package fails as "<pkg> [package]".
const cutBetweenTests = `{"Time":"2026-11-27T10:49:09.233Z","Action":"start","Package":"example.com/gt/exitpkg"}
{"Time":"2026-11-27T10:49:09.233Z","Action":"run","Package":"example.com/gt/exitpkg","Test":"TestOK"}
{"Time":"2026-11-27T10:49:09.233Z","Action":"output","Package":"example.com/gt/exitpkg","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Time":"2026-11-27T10:49:09.233Z","Action":"output","Package":"example.com/gt/exitpkg","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Time":"2026-11-27T10:49:09.233Z","Action":"pass","Package":"example.com/gt/exitpkg","Test":"TestOK","Elapsed":0}
`

func TestStreamCutBetweenTestsFailsPackage(t *testing.T) {
	t.Parallel()
	var c collector
	st, err := ingest.ReadGoTest(t.Context(), strings.NewReader(cutBetweenTests), &c, ingest.GoTestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Passed != 1 || st.Failed != 1 || st.PackageFailures != 1 || len(c.got) != 2 {
		t.Fatalf("stats %+v, results %+v; want TestOK passed and the package failed", st, c.got)
	}
	r := c.got[1]
	if r.CaseTitle != "example.com/gt/exitpkg [package]" || r.Passed ||
		!strings.Contains(r.Error, "the go test stream ended before the package finished") {
		t.Errorf("package row %+v", r)
	}
	// Without its start event (a stream filtered to test events) the
	// package is not known to have begun a run that must end.
	_, noStart, _ := strings.Cut(cutBetweenTests, "\n")
	var c2 collector
	if st, err := ingest.ReadGoTest(t.Context(), strings.NewReader(noStart), &c2, ingest.GoTestOptions{}); err != nil || st.Failed != 0 {
		t.Errorf("without the start event: stats %+v, err %v; want no failure", st, err)
	}
}

// A cut with a test running fails that test alone, as before: the package
// gets no row of its own. A benchmark that printed its result when the
// stream was cut passed (test2json would have sent no pass event for it).
func TestStreamCutFailsRunningTestsOnly(t *testing.T) {
	t.Parallel()
	in := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"BenchmarkA"}
{"Action":"output","Package":"p","Test":"BenchmarkA","Output":"BenchmarkA-2 \t"}
{"Action":"output","Package":"p","Test":"BenchmarkA","Output":"  1\t 632.0 ns/op\n"}
{"Action":"run","Package":"p","Test":"BenchmarkB"}
`
	got, _ := readVerdicts(t, strings.NewReader(in), "")
	if want := map[string]bool{"p.BenchmarkA": true, "p.BenchmarkB": false}; !gocmp.Equal(want, got) {
		t.Errorf("got %v, want %v", got, want)
	}
}
