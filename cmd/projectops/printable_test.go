package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/tunnels"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain name":                        "plain name",
		"tab\tand\nnewline":                 "tab\tand\nnewline",
		"evil\x1b]0;pwned\x07\x1b[2Jname":   `evil\x1b]0;pwned\x07\x1b[2Jname`,
		"cr\rover":                          `cr\x0dover`,
		"del\x7f":                           `del\x7f`,
		"c1 \u009b2J csi":                   `c1 \u009b2J csi`,
		"cut c1 \xc2":                       `cut c1 \xc2`,
		"é ünïcode ✓ \u00a0kept":            "é ünïcode ✓ \u00a0kept",
		"nul\x00 bell\x07 backspace\x08 vt": `nul\x00 bell\x07 backspace\x08 vt`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// printableField escapes newline and tab as well: one field of a line.
func TestPrintableField(t *testing.T) {
	if got, want := printableField("a\tb\nc\rd\x1b"), `a\tb\nc\x0dd\x1b`; got != want {
		t.Errorf("printableField = %q, want %q", got, want)
	}
}

// printableWriter escapes what passes through it and reports the bytes it
// was given as written, as an io.Writer must.
func TestPrintableWriter(t *testing.T) {
	var b bytes.Buffer
	n, err := printableWriter{&b}.Write([]byte("a\x1b[2Jb\n"))
	if n != 7 || err != nil || b.String() != "a\\x1b[2Jb\n" {
		t.Errorf("Write = %d, %v; wrote %q", n, err, b.String())
	}
}

// notef's line carries the service's words: escaped too.
func TestNotefEscapesControlCharacters(t *testing.T) {
	var b bytes.Buffer
	notef(&b, reportPath, "run %s: %s", "r\x1b[1A", "msg\x07")
	if want := "projectops report: run r\\x1b[1A: msg\\x07\n"; b.String() != want {
		t.Errorf("notef wrote %q, want %q", b.String(), want)
	}
}

// notef's format is its caller's alone: a % in the command path is
// printed as it is, not read as a verb.
func TestNotefPathIsNotAFormat(t *testing.T) {
	var b bytes.Buffer
	notef(&b, "projectops 100%d", "run %s", "r1")
	if want := "projectops 100%d: run r1\n"; b.String() != want {
		t.Errorf("notef wrote %q, want %q", b.String(), want)
	}
}

// assertNoControls fails when out holds a raw ESC or BEL.
func assertNoControls(t *testing.T, what, out string) {
	t.Helper()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("%s printed raw control characters from a stored string: %q", what, out)
	}
}

// A stored environment name (any project member may set it) is printed
// with its control characters escaped in text output, not replayed on the
// terminal; --json keeps it exact.
func TestEnvTextEscapesControlCharacters(t *testing.T) {
	demoAPI(t)
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM ubuntu:24.04@sha256:"+strings.Repeat("a", 64)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	evil := "evil\x1b]0;pwned\x07\x1b[2Jname"
	code, out, errOut := runCLI(t, "env", "create", "-p", "prj_demo", "--name", evil, "--file", df)
	if code != 0 {
		t.Fatalf("env create: %d %q", code, errOut)
	}
	assertNoControls(t, "env create", out)
	if !strings.Contains(out, `evil\x1b]0;pwned\x07\x1b[2Jname`) {
		t.Errorf("env create: the name is not shown escaped: %q", out)
	}
	code, out, errOut = runCLI(t, "env", "list", "-p", "prj_demo")
	if code != 0 {
		t.Fatalf("env list: %d %q", code, errOut)
	}
	assertNoControls(t, "env list", out)
	code, out, errOut = runCLI(t, "env", "list", "-p", "prj_demo", "--json")
	var envs []struct{ Name string }
	if code != 0 || json.Unmarshal([]byte(out), &envs) != nil {
		t.Fatalf("env list --json: %d %q %q", code, out, errOut)
	}
	found := false
	for _, e := range envs {
		found = found || e.Name == evil
	}
	if !found {
		t.Errorf("env list --json does not hold the name exactly: %q", out)
	}
}

// An iteration's title (the test's, as the run file gave it) is escaped
// in eval run's and eval iterations' tables.
func TestEvalTablesEscapeControlCharacters(t *testing.T) {
	_, serverID := evalServer(t)
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{serverID}, Tests: []evals.Test{{
		Title: "t\x1b[2Jitle\x07", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "Use echo with message=hi")}}}})
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms")
	if code != 1 || !strings.Contains(out, `t\x1b[2Jitle\x07`) {
		t.Fatalf("run: %d\n%q\n%s", code, out, errOut)
	}
	assertNoControls(t, "eval run", out)
	runID := strings.Fields(out[strings.LastIndex(out, "run run_"):])[1]
	code, out, _ = evalCLI(t, "iterations", runID)
	if code != 0 || !strings.Contains(out, `t\x1b[2Jitle\x07`) {
		t.Fatalf("iterations: %d %q", code, out)
	}
	assertNoControls(t, "eval iterations", out)
}

// The tunnel's lines name the server as the service stores it: escaped,
// newline included (it cannot fake the "tunnel closed" line).
func TestTunnelLinesEscapeControlCharacters(t *testing.T) {
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	defer local.Close()
	_, stderr, stop := startTunnel(t, "--name", "t\x1b]0;x\x07\ntunnel closed", "--to", local.URL+"/mcp")
	if c := stop(); c != 0 || !strings.Contains(stderr.String(), `(t\x1b]0;x\x07\ntunnel closed)`) {
		t.Errorf("exit %d; stderr %q; want the name escaped", c, stderr.String())
	}
	assertNoControls(t, "tunnel", stderr.String())
}

// The error line is the service's message, escaped.
func TestExitLineEscapesControlCharacters(t *testing.T) {
	var b bytes.Buffer
	a := &app{stderr: &b}
	if code := a.exit(nil, errors.New("bad \x1b[2Jname")); code != exitError || b.String() != "projectops: bad \\x1b[2Jname\n" {
		t.Errorf("exit %d, stderr %q", code, b.String())
	}
}

// A stored name is one field of a line: a newline in it is escaped, so it
// cannot print a line of its own that passes for one of the CLI's.
func TestEnvNameNewlineCannotFakeALine(t *testing.T) {
	demoAPI(t)
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM ubuntu:24.04@sha256:"+strings.Repeat("a", 64)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "env", "create", "-p", "prj_demo", "--name", "x\nbuild env_1 succeeded; all good\n", "--file", df)
	if code != 0 {
		t.Fatalf("env create: %d %q", code, errOut)
	}
	if !strings.Contains(out, `(x\nbuild env_1 succeeded; all good, personal draft)`) {
		t.Errorf("env create: the name is not shown escaped: %q", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "build env_1 succeeded") {
			t.Errorf("a stored name printed a line of its own: %q", out)
		}
	}
}

// The error line carries the service's message on one line.
func TestExitLineEscapesNewline(t *testing.T) {
	var b bytes.Buffer
	a := &app{stderr: &b}
	if code := a.exit(nil, errors.New("bad\nprojectops: all good")); code != exitError || b.String() != "projectops: bad\\nprojectops: all good\n" {
		t.Errorf("exit %d, stderr %q", code, b.String())
	}
}

// Cells are escaped before tabwriter measures them: a control character
// shown as four characters does not shift the columns after it.
func TestEscapedCellKeepsTableAligned(t *testing.T) {
	var b bytes.Buffer
	iters := []evals.Iteration{
		{ID: "it_1", IterationNumber: 1, Title: "a\x1b\x1b\x1bb", Status: "completed", Result: "passed"},
		{ID: "it_2", IterationNumber: 2, Title: "abcde", Status: "completed", Result: "passed"},
		{ID: "it_3\x07", IterationNumber: 3, Title: "abc", Status: "completed", Result: "passed"},
	}
	printIterations(printableWriter{&b}, iters, nil)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	col := func(l string) int { return strings.Index(l, "completed") }
	if col(lines[1]) != col(lines[2]) || col(lines[2]) != col(lines[3]) {
		t.Errorf("STATUS column misaligned:\n%s", b.String())
	}
}

// The conversation's role and tool names are one field each: a newline in
// them is escaped, so a stored name cannot print a line of its own.
func TestTraceFieldsCannotFakeALine(t *testing.T) {
	var b bytes.Buffer
	tr := &evals.Trace{Messages: []evals.TraceMessage{{
		Role:      "assistant\nFAKE role",
		Content:   "hi",
		ToolCalls: []evals.ToolCall{{ToolName: "flat\nFAKE call"}},
		Parts: []evals.ContentPart{{Type: "tool-call", ToolName: "part\nFAKE part", Input: json.RawMessage(`{}`)},
			{Type: "tool-result", ToolName: "res\nFAKE result", Output: json.RawMessage(`"ok"`)}},
	}}}
	printTrace(&b, nil, tr, func(s string) string { return s })
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "FAKE") {
			t.Errorf("a stored name printed a line of its own: %q", b.String())
		}
	}
	for _, want := range []string{`assistant\nFAKE role:`, `flat\nFAKE call`, `part\nFAKE part`, `res\nFAKE result`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("trace %q lacks %q", b.String(), want)
		}
	}
}

// The tunnel's disconnect line carries the service's or the relay's text:
// escaped, newline and all.
func TestTunnelDisconnectLineEscapesCause(t *testing.T) {
	var b bytes.Buffer
	disconnectNotice(context.Background(), &b)(fmt.Errorf("%w: relay said \x1b[2J\nFAKE line", tunnels.ErrRevoked))
	if got := b.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, `\x1b[2J\nFAKE line`) {
		t.Errorf("disconnect line %q; want one line with the cause escaped", got)
	}
}
