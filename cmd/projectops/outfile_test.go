package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/evals"
)

// noDashFile fails the test when a file named "-" was written in the
// working directory instead of stdout.
func noDashFile(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("-"); err == nil {
		t.Errorf(`a file named "-" was written instead of stdout`)
	}
}

// export -o - writes the snapshot to stdout, as no -o does.
func TestExportOutputDashIsStdout(t *testing.T) {
	demoAPI(t)
	t.Chdir(t.TempDir())
	code, out, errOut := runCLI(t, "export", "--project", "prj_demo", "--server", "srv_demo", "-o", "-")
	var snap map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &snap) != nil || snap["tools"] == nil {
		t.Fatalf("export -o -: %d %q %q", code, out, errOut)
	}
	noDashFile(t)
}

// eval run --junit - writes the JUnit XML to stdout, alone (the table
// goes to stderr), so a pipe parses it; --summary - writes the Markdown
// there alike.
func TestEvalRunReportsToStdout(t *testing.T) {
	_, _ = evalServer(t)
	t.Chdir(t.TempDir())
	demo := os.Getenv("EVAL_TEST_DEMO_SERVER")
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{demo}, Tests: []evals.Test{
		{Title: "adds", Model: "openai/gpt-4o-mini", Steps: []evals.Step{
			evals.ToolCallStep("call", "echo", map[string]any{"message": "hi"}),
			evals.AssertCalledWith("want-add", "add", nil)}},
	}})

	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms", "--junit", "-")
	var suites junitSuites
	if code != 1 || xml.Unmarshal([]byte(out), &suites) != nil || len(suites.Suites) != 1 || suites.Suites[0].Failures != 1 {
		t.Fatalf("--junit -: %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.HasPrefix(out, "<?xml") || strings.Contains(out, "REASON") || strings.Contains(out, "pass rate") {
		t.Errorf("stdout holds more than the XML:\n%s", out)
	}
	if !strings.Contains(errOut, "REASON") || !strings.Contains(errOut, "step want-add: add was not called") ||
		!strings.Contains(errOut, "completed: failed (0 passed, 1 failed of 1") {
		t.Errorf("the table is not on stderr:\n%s", errOut)
	}

	code, out, errOut = evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms", "--summary", "-")
	if code != 1 || !strings.HasPrefix(out, "### Eval run ") || strings.Contains(out, "REASON") ||
		!strings.Contains(errOut, "REASON") {
		t.Errorf("--summary -: %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	noDashFile(t)
}

// Two documents cannot share stdout: refused before a run starts.
func TestEvalRunStdoutReportConflicts(t *testing.T) {
	srv, _ := evalServer(t)
	before := len(srv.Requests())
	for _, args := range [][]string{
		{"run", "--suite", "evs_x", "--wait", "--junit", "-", "--summary", "-"},
		{"run", "--suite", "evs_x", "--wait", "--junit", "-", "--json"},
		{"run", "--suite", "evs_x", "--wait", "--summary", "-", "--json"},
	} {
		code, out, errOut := evalCLI(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "both write to standard output") {
			t.Errorf("%v: %d %q %q", args, code, out, errOut)
		}
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("%d requests sent for refused invocations", n)
	}
}

// --junit and --summary naming one file (spelled alike or not) are
// refused before a run starts: the Markdown appended to the XML would
// leave a JUnit file that does not parse.
func TestEvalRunReportsShareNoFile(t *testing.T) {
	srv, _ := evalServer(t)
	before := len(srv.Requests())
	dir := t.TempDir()
	f := filepath.Join(dir, "r")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, summary := range []string{f, filepath.Join(dir, ".", "r"), filepath.Join(dir, "..", filepath.Base(dir), "r")} {
		code, out, errOut := evalCLI(t, "run", "--suite", "evs_x", "--wait", "--junit", f, "--summary", summary)
		if code != 2 || out != "" || !strings.Contains(errOut, "--junit and --summary name the same file") {
			t.Errorf("--summary %s: %d %q %q", summary, code, out, errOut)
		}
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("%d requests sent for refused invocations", n)
	}
}

// Two spellings of one report file that does not exist yet are one file
// too: a dangling symlink to the other, a relative and an absolute path.
// Two missing files are not.
func TestEvalRunReportsShareNoMissingFile(t *testing.T) {
	srv, _ := evalServer(t)
	before := len(srv.Requests())
	dir := t.TempDir()
	t.Chdir(dir)
	x := filepath.Join(dir, "report.xml")
	link := filepath.Join(dir, "summary.md")
	if err := os.Symlink(x, link); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{x, link}, {"report.xml", x}, {"report.xml", "summary.md"}} {
		code, out, errOut := evalCLI(t, "run", "--suite", "evs_x", "--wait", "--junit", pair[0], "--summary", pair[1])
		if code != 2 || out != "" || !strings.Contains(errOut, "--junit and --summary name the same file") {
			t.Errorf("--junit %s --summary %s: %d %q %q", pair[0], pair[1], code, out, errOut)
		}
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("%d requests sent for refused invocations", n)
	}
	if sameFile(x, filepath.Join(dir, "other.md")) || sameFile("report.xml", "report.xml.md") {
		t.Errorf("two missing files are taken for one")
	}
}

// checkOutput writes nothing: an existing file keeps its content and a
// missing one is not created (nor is the probe left beside it).
func TestCheckOutputLeavesThePathAsItWas(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(existing, []byte("earlier step\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{existing, filepath.Join(dir, "new.xml"), stdoutPath, ""} {
		if err := checkOutput("--junit", path); err != nil {
			t.Errorf("checkOutput(%q): %v", path, err)
		}
	}
	if b, err := os.ReadFile(existing); err != nil || string(b) != "earlier step\n" {
		t.Errorf("the existing file now holds %q (%v)", b, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the directory now holds %d entries, want the one file: %v", len(entries), entries)
	}
}

// checkOutput of a missing file creates nothing in its directory, not
// even for a moment: the directory's modification time stays as it was
// (a probe file created and removed would move it, and be left behind if
// the command were killed in between).
func TestCheckOutputLeavesTheDirectoryUntouched(t *testing.T) {
	dir := t.TempDir()
	then := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(dir, then, then); err != nil {
		t.Fatal(err)
	}
	if err := checkOutput("--summary", filepath.Join(dir, "new.md")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !st.ModTime().Equal(then) {
		t.Errorf("the directory was modified at %v: checkOutput wrote in it", st.ModTime())
	}
}

// A path that cannot be a file is bad usage, said with its flag.
func TestCheckOutputRefusesWhatCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir:                           "--junit " + dir + ": is a directory",
		filepath.Join(file, "x.xml"):  "its directory does not exist", // under a file
		filepath.Join(dir, "no", "x"): "its directory does not exist",
	} {
		err := checkOutput("--junit", path)
		if _, ok := errors.AsType[usageError](err); !ok || !strings.Contains(err.Error(), want) {
			t.Errorf("checkOutput(%q) = %v, want a usage error saying %q", path, err, want)
		}
	}
}

// export -o DIRECTORY is refused before the export is asked for.
func TestExportOutputDirectoryRefusedUpFront(t *testing.T) {
	srv := demoAPI(t)
	dir := t.TempDir()
	code, _, errOut := runCLI(t, "export", "--project", "prj_demo", "--server", "srv_demo", "-o", dir)
	if code != 2 || !strings.Contains(errOut, "-o "+dir+": is a directory") || !strings.Contains(errOut, "--help") {
		t.Errorf("export -o DIRECTORY: %d %q", code, errOut)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for a refused invocation", n)
	}
}
