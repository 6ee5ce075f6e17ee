package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A damaged spool line is skipped, not the run: resume delivers the rest,
// says on stderr which file and line were skipped (never what they held),
// that the file is kept and that a later resume sends nothing more from
// it, and exits 2. A second resume sends nothing again.
func TestReportResumeDamagedSpool(t *testing.T) {
	srv := reportEnv(t)
	spool := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: func(string) string { return "" }})
	for _, title := range []string{"first", "second", "third"} {
		rec.Record(t, ingest.Result{CaseTitle: title, Passed: true})
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(spool, "*"+ingest.SpoolExt))
	if len(files) != 1 {
		t.Fatalf("spool files: %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	const secret = "sk_live_damagedlinesecret"
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < 4 || !strings.Contains(lines[2], `"second"`) {
		t.Fatalf("spool lines: %q", lines)
	}
	lines[2] = `{"kind":"chunk","results":[{"caseTitle":"` + secret + "\x00\n"
	if err := os.WriteFile(files[0], []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 2 || !strings.Contains(out, "2 results re-sent") ||
		!strings.Contains(errOut, files[0]+": damaged line 3 skipped: the rest of the file was delivered") ||
		!strings.Contains(errOut, "the file is kept") || !strings.Contains(errOut, "1 damaged spool files kept") ||
		strings.Contains(errOut+out, secret) {
		t.Errorf("resume: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(files[0]); err != nil {
		t.Errorf("the damaged spool file was removed: %v", err)
	}
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spool, "--json")
	if code != 2 || !strings.Contains(out, `"resent": 0`) || !strings.Contains(out, `"line": 3`) {
		t.Errorf("second resume: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	runs := srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].Summary.Total != 2 {
		t.Errorf("runs = %+v, want one of the 2 intact results", runs)
	}
}
