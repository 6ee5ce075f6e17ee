package ingest_test

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/ingest"
)

// Real `go test -json -v` (go1.26.8) of a passing package whose subtest
// prints without a trailing newline (fmt.Print("no newline")): the
// framing lines that follow are glued to that text or indented, so
// test2json sends no pass event for TestP nor TestP/s, and the package
// passes. Both were dropped (`projectops report` said no test ran); each
// now takes the outcome and time its own --- line gives, TestP's from
// TestP/s's output, where test2json put it.
const lostEndEvents = `{"Action":"start","Package":"example.com/m/nonlsub"}
{"Action":"run","Package":"example.com/m/nonlsub","Test":"TestP"}
{"Action":"output","Package":"example.com/m/nonlsub","Test":"TestP","Output":"=== RUN   TestP\n"}
{"Action":"run","Package":"example.com/m/nonlsub","Test":"TestP/s"}
{"Action":"output","Package":"example.com/m/nonlsub","Test":"TestP/s","Output":"=== RUN   TestP/s\n"}
{"Action":"output","Package":"example.com/m/nonlsub","Test":"TestP/s","Output":"no newline--- PASS: TestP (0.00s)\n"}
{"Action":"output","Package":"example.com/m/nonlsub","Test":"TestP/s","Output":"    --- PASS: TestP/s (0.00s)\n"}
{"Action":"output","Package":"example.com/m/nonlsub","Output":"PASS\n"}
{"Action":"output","Package":"example.com/m/nonlsub","Output":"ok  \texample.com/m/nonlsub\t0.012s\n"}
{"Action":"pass","Package":"example.com/m/nonlsub","Elapsed":0.013}
`

func TestTestsWithoutEndEventTakeTheirFramingLine(t *testing.T) {
	t.Parallel()
	got, st := readVerdicts(t, strings.NewReader(lostEndEvents), "example.com/m/nonlsub.")
	if want := map[string]bool{"TestP": true, "TestP/s": true}; !gocmp.Equal(want, got) {
		t.Errorf("results %v, want %v", got, want)
	}
	if st.Passed != 2 || st.Failed != 0 || st.PackageFailures != 0 {
		t.Errorf("stats %+v, want Passed 2", st)
	}
}

// The same loss hid a failure: real `go test -json -v` (go1.26.8) of a
// package whose TestMain ignores m.Run's code (m.Run(); os.Exit(0)) and
// whose test prints without a newline, then t.FailNow(). test2json sees
// "partial--- FAIL: TestBad (0.00s)", so no fail event; the package
// prints "FAIL" then "ok" and passes, and TestBad had no result at all.
const lostFailEvent = `{"Action":"start","Package":"example.com/m/mainexit0nl"}
{"Action":"run","Package":"example.com/m/mainexit0nl","Test":"TestBad"}
{"Action":"output","Package":"example.com/m/mainexit0nl","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"example.com/m/mainexit0nl","Test":"TestBad","Output":"partial--- FAIL: TestBad (0.00s)\n"}
{"Action":"output","Package":"example.com/m/mainexit0nl","Output":"FAIL\n"}
{"Action":"output","Package":"example.com/m/mainexit0nl","Output":"ok  \texample.com/m/mainexit0nl\t0.015s\n"}
{"Action":"pass","Package":"example.com/m/mainexit0nl","Elapsed":0.015}
`

func TestLostFailEventUnderPassingPackageIsAFailure(t *testing.T) {
	t.Parallel()
	// The time is the framing line's (0.00s in the real stream).
	in := strings.Replace(lostFailEvent, "TestBad (0.00s)", "TestBad (0.25s)", 1)
	var c collector
	st, err := ingest.ReadGoTest(t.Context(), strings.NewReader(in), &c, ingest.GoTestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.got) != 1 || c.got[0].Passed || c.got[0].DurationMs != 250 || st.Failed != 1 {
		t.Fatalf("results %+v, stats %+v; want TestBad failed in 250 ms", c.got, st)
	}
	if !strings.Contains(c.got[0].Error, "partial--- FAIL: TestBad") {
		t.Errorf("error %q, want the test's output", c.got[0].Error)
	}
}

// A test with no end event and no --- line of its own under a passing
// package (the line cut away, or never printed) fails, saying its end was
// never reported, as gotestsum fails it; it is no package failure.
func TestTestWithNoWordOfItsEndFails(t *testing.T) {
	t.Parallel()
	in := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestGone"}
{"Action":"output","Package":"p","Test":"TestGone","Output":"=== RUN   TestGone\n"}
{"Action":"output","Package":"p","Test":"TestGone","Output":"half a line--- PASS: TestOther (0.00s)\n"}
{"Action":"output","Package":"p","Output":"PASS\n"}
{"Action":"pass","Package":"p","Elapsed":0.01}
`
	var c collector
	st, err := ingest.ReadGoTest(t.Context(), strings.NewReader(in), &c, ingest.GoTestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.got) != 1 || c.got[0].CaseTitle != "p.TestGone" || c.got[0].Passed || st.Failed != 1 || st.PackageFailures != 0 {
		t.Fatalf("results %+v, stats %+v; want TestGone failed", c.got, st)
	}
	if !strings.Contains(c.got[0].Error, "never reported this test's end") {
		t.Errorf("error %q, want the reason", c.got[0].Error)
	}
}

// In a package that fails for another test, a test whose end event was
// lost takes its own --- line's outcome too: it was failed as "the package
// failed while this test was running".
func TestLostEndInFailingPackageTakesItsFramingLine(t *testing.T) {
	t.Parallel()
	in := `{"Action":"run","Package":"p","Test":"TestNoNL"}
{"Action":"output","Package":"p","Test":"TestNoNL","Output":"no newline--- PASS: TestNoNL (0.00s)\n"}
{"Action":"run","Package":"p","Test":"TestBad"}
{"Action":"output","Package":"p","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestBad"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"fail","Package":"p","Elapsed":0.01}
`
	got, st := readVerdicts(t, strings.NewReader(in), "p.")
	if want := map[string]bool{"TestNoNL": true, "TestBad": false}; !gocmp.Equal(want, got) || st.PackageFailures != 0 {
		t.Errorf("results %v, stats %+v; want %v", got, st, want)
	}
}

// Real `go test -json -v` (go1.26.8): TestBad prints without a newline
// and fails (its fail event is lost; TestMain exits 0), then TestLogger
// logs text that reads "--- PASS: TestBad (0.00s)". That line, in another
// test's output, was taken for TestBad's and, the later one, turned its
// failure into a pass. A framing line counts only in the test's own
// output, a subtest's or the package's, and a FAIL stays: a PASS line in
// the package's output afterwards changes nothing either.
const lostFailQuotedElsewhere = `{"Action":"start","Package":"example.com/fool"}
{"Action":"run","Package":"example.com/fool","Test":"TestBad"}
{"Action":"output","Package":"example.com/fool","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"example.com/fool","Test":"TestBad","Output":"partial--- FAIL: TestBad (0.00s)\n"}
{"Action":"run","Package":"example.com/fool","Test":"TestLogger"}
{"Action":"output","Package":"example.com/fool","Test":"TestLogger","Output":"=== RUN   TestLogger\n"}
{"Action":"output","Package":"example.com/fool","Test":"TestLogger","Output":"    x_test.go:5: golden: --- PASS: TestBad (0.00s)\n"}
{"Action":"output","Package":"example.com/fool","Test":"TestLogger","Output":"--- PASS: TestLogger (0.00s)\n"}
{"Action":"pass","Package":"example.com/fool","Test":"TestLogger","Elapsed":0}
{"Action":"output","Package":"example.com/fool","Output":"FAIL\n"}
{"Action":"output","Package":"example.com/fool","Output":"ok  \texample.com/fool\t0.020s\n"}
{"Action":"pass","Package":"example.com/fool","Elapsed":0.03}
`

func TestLostFailNotTurnedToPassByOtherOutput(t *testing.T) {
	t.Parallel()
	const pkgPass = `{"Action":"output","Package":"example.com/fool","Output":"--- PASS: TestBad (0.00s)\n"}` + "\n"
	for name, in := range map[string]string{
		"another test's output": lostFailQuotedElsewhere,
		"package output after":  strings.Replace(lostFailQuotedElsewhere, `{"Action":"run","Package":"example.com/fool","Test":"TestLogger"}`+"\n", pkgPass+`{"Action":"run","Package":"example.com/fool","Test":"TestLogger"}`+"\n", 1),
	} {
		got, _ := readVerdicts(t, strings.NewReader(in), "example.com/fool.")
		if want := map[string]bool{"TestBad": false, "TestLogger": true}; !gocmp.Equal(want, got) {
			t.Errorf("%s: verdicts %v, want %v", name, got, want)
		}
	}
}

// Real `go test -json -v -count=2` (go1.26.8): TestBad's first run fails
// with its end lost (TestMain exits 0), its second passes. The second run
// event reused the still-running first occurrence, so the failure
// vanished behind one pass. The first occurrence now ends when its name
// runs again, as its package's end would end it: here by its FAIL line;
// with no line it fails as never reported.
const lostFailThenRerun = `{"Action":"start","Package":"example.com/fool"}
{"Action":"run","Package":"example.com/fool","Test":"TestBad"}
{"Action":"output","Package":"example.com/fool","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"example.com/fool","Test":"TestBad","Output":"partial--- FAIL: TestBad (0.00s)\n"}
{"Action":"run","Package":"example.com/fool","Test":"TestBad"}
{"Action":"output","Package":"example.com/fool","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"example.com/fool","Test":"TestBad","Output":"--- PASS: TestBad (0.00s)\n"}
{"Action":"pass","Package":"example.com/fool","Test":"TestBad","Elapsed":0}
{"Action":"output","Package":"example.com/fool","Output":"FAIL\n"}
{"Action":"output","Package":"example.com/fool","Output":"ok  \texample.com/fool\t0.022s\n"}
{"Action":"pass","Package":"example.com/fool","Elapsed":0.022}
`

func TestLostEndSettledWhenTheTestRunsAgain(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		in, why string
	}{
		"its FAIL line": {lostFailThenRerun, "partial--- FAIL: TestBad"},
		"no line": {strings.Replace(lostFailThenRerun, "partial--- FAIL: TestBad (0.00s)", "partial", 1),
			"never reported this test's end"},
	} {
		var c collector
		st, err := ingest.ReadGoTest(t.Context(), strings.NewReader(tc.in), &c, ingest.GoTestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.got) != 2 || c.got[0].Passed || !c.got[1].Passed || st.Failed != 1 ||
			c.got[0].ExternalIterationID == c.got[1].ExternalIterationID {
			t.Errorf("%s: results %+v, stats %+v; want the first occurrence failed and the second passed", name, c.got, st)
			continue
		}
		if !strings.Contains(c.got[0].Error, tc.why) {
			t.Errorf("%s: error %q, want %q", name, c.got[0].Error, tc.why)
		}
	}
}
