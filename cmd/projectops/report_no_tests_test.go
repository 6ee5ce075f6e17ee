package main

import (
	"strings"
	"testing"
)

// Valid go test -json streams (go1.26.8, real output) in which no test
// ran: a package with no test files, and -run matching none. Like a stream
// whose tests were all skipped (TestAllSkippedStreamPasses), they are a
// passing run with nothing to store, not bad input: exit 0, no run, and a
// summary that says why nothing was reported. Exit 2 would fail a CI shard
// or module that has no tests.
func TestNoTestsStreamIsNotBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"no test files": `{"Time":"2026-11-27T10:49:09Z","Action":"start","Package":"example.com/gt/nofiles"}
{"Time":"2026-11-27T10:49:09Z","Action":"output","Package":"example.com/gt/nofiles","Output":"?   \texample.com/gt/nofiles\t[no test files]\n"}
{"Time":"2026-11-27T10:49:09Z","Action":"skip","Package":"example.com/gt/nofiles","Elapsed":0}
`,
		"-run matches nothing": `{"Time":"2026-11-27T10:49:09Z","Action":"start","Package":"example.com/gt/par"}
{"Time":"2026-11-27T10:49:09Z","Action":"output","Package":"example.com/gt/par","Output":"testing: warning: no tests to run\n"}
{"Time":"2026-11-27T10:49:09Z","Action":"output","Package":"example.com/gt/par","Output":"PASS\n"}
{"Time":"2026-11-27T10:49:09Z","Action":"output","Package":"example.com/gt/par","Output":"ok  \texample.com/gt/par\t0.002s [no tests to run]\n"}
{"Time":"2026-11-27T10:49:09Z","Action":"pass","Package":"example.com/gt/par","Elapsed":0.002}
`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := reportEnv(t)
			code, _, errOut := runReportCLI(t, in, "report")
			if code != 0 || !strings.Contains(errOut, "nothing to report: no test ran in the go test input") {
				t.Errorf("exit %d, want 0 (a valid run in which nothing failed) and why nothing was reported: %q", code, errOut)
			}
			if runs := srv.IngestedRuns(""); len(runs) != 0 {
				t.Errorf("a run was created: %+v", runs)
			}
		})
	}
}

// Input with no go test event at all is still refused with exit 2: only a
// stream that is one is a run in which nothing ran.
func TestNoEventStreamIsBadInput(t *testing.T) {
	reportEnv(t)
	if code, _, errOut := runReportCLI(t, "{\"not\":\"an event\"}\n", "report"); code != 2 ||
		!strings.Contains(errOut, "no test results in the go test input; nothing was reported") {
		t.Errorf("exit %d, want 2: %q", code, errOut)
	}
}

// A package whose benchmarks all passed (their result lines split across
// events, as go1.26's test2json writes them) is a run with passing rows.
func TestBenchmarkOnlyStreamReports(t *testing.T) {
	srv := reportEnv(t)
	in := `{"Action":"start","Package":"example.com/gt/benchok"}
{"Action":"run","Package":"example.com/gt/benchok","Test":"BenchmarkOne"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkOne","Output":"BenchmarkOne-2    \t"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkOne","Output":"       1\t       632.0 ns/op\n"}
{"Action":"output","Package":"example.com/gt/benchok","Output":"PASS\n"}
{"Action":"pass","Package":"example.com/gt/benchok","Elapsed":0.028}
`
	code, _, errOut := runReportCLI(t, in, "report")
	runs := srv.IngestedRuns("")
	if code != 0 || len(runs) != 1 || runs[0].Summary.Passed != 1 {
		t.Errorf("exit %d, runs %+v: %q", code, runs, errOut)
	}
}
