package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// A damaged spool line is skipped, not the run: resume delivers the rest,
// says on stderr which file and line were skipped (never what they held)
// and where the file was moved aside, and exits 3. A second resume finds
// nothing: it exits 0, as every later one on that directory does.
func TestReportResumeDamagedSpool(t *testing.T) {
	srv := reportEnv(t)
	spool, file, lines := spoolLines(t, "first", "second", "third")
	const secret = "sk_live_damagedlinesecret"
	if len(lines) < 4 || !strings.Contains(lines[2], `"second"`) {
		t.Fatalf("spool lines: %q", lines)
	}
	lines[2] = `{"kind":"chunk","results":[{"caseTitle":"` + secret + "\x00\n"
	if err := os.WriteFile(file, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool, "--json")
	moved := file + ingest.DamagedExt
	if code != exitDamaged || !strings.Contains(out, `"resent": 2`) || !strings.Contains(out, `"line": 3`) ||
		!strings.Contains(out, `"movedTo": "`+moved+`"`) ||
		!strings.Contains(errOut, file+": damaged line 3 skipped: the rest of the file was delivered") ||
		!strings.Contains(errOut, "moved aside to "+moved) || !strings.Contains(errOut, "1 damaged spool files: their damaged lines were skipped") ||
		strings.Contains(errOut+out, secret) {
		t.Errorf("resume: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(moved); err != nil {
		t.Errorf("the damaged spool file was not kept: %v", err)
	}
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 0 || !strings.Contains(out, "nothing to resume") || errOut != "" {
		t.Errorf("second resume: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	runs := srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].Summary.Total != 2 {
		t.Errorf("runs = %+v, want one of the 2 intact results", runs)
	}
}

// A spool file whose run record is damaged belongs to no run; beside a run
// that fails to resume it is still said on stderr (the count of failed
// runs does not replace it), once: the file is moved aside.
func TestReportResumeRunRecordDamageSaidBesideAFailedRun(t *testing.T) {
	srv := reportEnv(t)
	spool := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: func(string) string { return "" }})
	rec.Record(t, ingest.Result{CaseTitle: "a", Passed: true})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(spool, "other.1-00000000"+ingest.SpoolExt)
	if err := os.WriteFile(bad, []byte("\x00\x00garbage\n{\"kind\":\"chunk\",\"seq\":1,\"results\":[{\"caseTitle\":\"x\",\"passed\":true}]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.SetFault("POST /projects/{projectId}/eval-ingest/runs/finalize", projectopstest.Fault{Status: 500})
	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool, "--json")
	if code != exitError || !strings.Contains(errOut, "spool file "+bad+": line 1, its run record, is damaged") ||
		!strings.Contains(errOut, "moved aside to "+bad+ingest.DamagedExt) || !strings.Contains(errOut, "1 of 1 runs not resumed") ||
		strings.Contains(errOut+out, "garbage") {
		t.Errorf("exit %d: damaged %s not said; stdout %q stderr %q", code, bad, out, errOut)
	}
	srv.ClearFaults()
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 0 || strings.Contains(errOut, bad) {
		t.Errorf("second resume: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A run delivered and finalized whose spool file cannot be moved aside
// (something stands at its .damaged name) exits 2, as report resume's
// help says, though the run counts as delivered: the cleanup failed.
func TestReportResumeCleanupFailureAfterDeliveryExits2(t *testing.T) {
	srv := reportEnv(t)
	spool, file, lines := spoolLines(t, "first", "second")
	if len(lines) < 3 || !strings.Contains(lines[2], `"second"`) {
		t.Fatalf("spool lines: %q", lines)
	}
	lines[2] = "\x00\x00\n"
	if err := os.WriteFile(file, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(file+ingest.DamagedExt, "in-the-way"), 0o700); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != exitError || !strings.Contains(errOut, "(delivered)") {
		t.Errorf("resume: exit %d, stdout %q, stderr %q; want 2 and the run said delivered", code, out, errOut)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 1 || runs[0].Summary.Total != 1 {
		t.Errorf("runs = %+v, want one of the intact result", runs)
	}
	// The file stayed in place: the next resume sends nothing of it again
	// but says its damage once more (exit 3) and moves it aside; the one
	// after that has nothing to say.
	if err := os.RemoveAll(file + ingest.DamagedExt); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != exitDamaged || !strings.Contains(errOut, "line 3") {
		t.Errorf("second resume: exit %d, stdout %q, stderr %q; want 3 and the damage said again", code, out, errOut)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 1 || runs[0].Summary.Total != 1 {
		t.Errorf("after the second resume, runs = %+v, want the one run unchanged", runs)
	}
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 0 || strings.Contains(errOut, "damaged") {
		t.Errorf("third resume: exit %d, stdout %q, stderr %q; want 0, nothing said", code, out, errOut)
	}
}

// spoolLines records a passing result per title through a TBRecorder
// into a new spool directory and returns it, its one spool file and that
// file's lines (the run record first, then a chunk per result).
func spoolLines(t *testing.T, titles ...string) (spool, file string, lines []string) {
	t.Helper()
	spool = t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: func(string) string { return "" }})
	for _, title := range titles {
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
	return spool, files[0], strings.SplitAfter(string(b), "\n")
}
