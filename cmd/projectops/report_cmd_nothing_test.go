package main

import (
	"encoding/json"
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

// A CMD that cannot start exits 127, as a shell's would; with --json the
// summary is still one JSON object on stdout, its error saying why.
func TestReportJSONCommandNotFoundPrintsSummary(t *testing.T) {
	reportEnv(t)
	devnullStdin(t)
	code, out, errOut := runReportCLI(t, "", "report", "--json", "--external-run-id", "not-found", "--", "no-such-command-xyz")
	if code != 127 {
		t.Fatalf("exit %d, want 127; stderr %q", code, errOut)
	}
	var v reportSummary
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("--json: stdout is not a JSON object (%v): %q; stderr %q", err, out, errOut)
	}
	if !strings.Contains(v.Error, "cannot run no-such-command-xyz") || v.Passed+v.Failed+v.Skipped != 0 || v.Run != nil {
		t.Errorf("summary = %+v, want no results and the reason CMD could not run", v)
	}
	if !strings.HasPrefix(errOut, "projectops report: cannot run no-such-command-xyz: ") {
		t.Errorf("stderr %q, want the reason, naming the command", errOut)
	}
}
