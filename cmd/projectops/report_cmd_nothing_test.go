package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With -- CMD, a go test stream whose tests were all skipped, or in which no
// test ran, exits with CMD's status and the summary says why nothing was
// reported, as for the same stream piped in; output with no go test event
// at all gets a hint.
func TestReportCommandNothingToReportSaysWhy(t *testing.T) {
	for name, events := range map[string]string{
		"all skipped": `{"Action":"start","Package":"example.com/b"}
{"Action":"run","Package":"example.com/b","Test":"TestSkip"}
{"Action":"skip","Package":"example.com/b","Test":"TestSkip","Elapsed":0}
{"Action":"pass","Package":"example.com/b","Elapsed":0.01}
`,
		"no test ran": `{"Action":"start","Package":"example.com/gt/par"}
{"Action":"output","Package":"example.com/gt/par","Output":"ok  \texample.com/gt/par\t0.002s [no tests to run]\n"}
{"Action":"pass","Package":"example.com/gt/par","Elapsed":0.002}
`,
		"no event": "hello\n",
	} {
		t.Run(name, func(t *testing.T) {
			srv := reportEnv(t)
			dir := t.TempDir()
			f := filepath.Join(dir, "events")
			if err := os.WriteFile(f, []byte(events), 0o600); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runReportCLI(t, "", "report", "--", "sh", "-c", "cat "+f)
			if code != 0 {
				t.Fatalf("exit %d, want 0: %q", code, errOut)
			}
			if runs := srv.IngestedRuns(""); len(runs) != 0 {
				t.Fatalf("a run was created: %+v", runs)
			}
			want := "nothing to report"
			if name == "no event" {
				want = "no go test events in the output of sh; nothing was reported"
			}
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr = %q: want the summary saying why nothing was reported, as without -- CMD", errOut)
			}
		})
	}
}
