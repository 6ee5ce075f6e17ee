package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/evals"
)

// An interrupt ends a command that waits on standard input (tools call -,
// env create --file -, eval run --file -): main catches every signal, and
// the read never looked at ctx, so only the end of input (or kill -9)
// stopped it. run's ctx is what main's signal handler cancels.
func TestInterruptEndsStdinRead(t *testing.T) {
	t.Setenv("PROJECTOPS_BASE_URL", "http://127.0.0.1:1/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_stdin_0123456789")
	t.Setenv("PROJECTOPS_PROJECT", "prj_x")
	for _, args := range [][]string{
		{"tools", "call", "--server", "srv_x", "add", "-"},
		{"env", "create", "--name", "n", "--file", "-"},
		{"eval", "run", "--file", "-"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			pr, pw := io.Pipe() // a terminal nobody types into
			defer pw.Close()    // ends the read left behind
			setStdin(t, pr)
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan int, 1)
			go func() { done <- run(ctx, args, io.Discard, io.Discard) }()
			cancel() // Ctrl-C
			select {
			case code := <-done:
				if code == 0 {
					t.Errorf("exit 0 after an interrupt")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still reading standard input after the interrupt")
			}
		})
	}
}

// Tool arguments keep their numbers as written: through float64 an id past
// 2^53 reached the tool as another number. Trailing data is still refused.
func TestToolArgumentsKeepNumbers(t *testing.T) {
	m, err := readArguments(t.Context(), `{"id":9007199254740993,"x":1.50}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(m)
	if string(b) != `{"id":9007199254740993,"x":1.50}` {
		t.Errorf("arguments sent as %s", b)
	}
	for _, bad := range []string{`{"a":1} x`, `{"a":1}}`, `[1]`, `null`, ``} {
		if _, err := readArguments(t.Context(), bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// -v logs the key no more than the error line does: the SDK redacts its
// key in the path it logs (here the key pasted as ENV_ID).
func TestVerboseLogMasksKey(t *testing.T) {
	const key = "sk_live_PASTEDKEY0123456789"
	t.Setenv("PROJECTOPS_API_KEY", key)
	code, out, errOut := runCLI(t, "env", "boot", key, "-p", "prj_x", "-v", "--base-url", "http://127.0.0.1:1/api/v1")
	if code != 2 {
		t.Errorf("exit %d", code)
	}
	if strings.Contains(out+errOut, "PASTEDKEY") {
		t.Errorf("the API key appears in clear:\n%s", errOut)
	}
}

// "projectops tools help" prints the group's help (exit 0), as "env help"
// does; a subcommand without --server is still bad usage.
func TestToolsHelpAndServerRequired(t *testing.T) {
	for _, group := range []string{"env", "tools"} {
		code, out, errOut := runCLI(t, group, "help")
		if code != 0 || !strings.Contains(out, "projectops "+group) {
			t.Errorf("%s help: exit %d, stdout %q, stderr %q", group, code, out, errOut)
		}
	}
	for _, sub := range []string{"list", "call"} {
		code, _, errOut := runCLI(t, "tools", sub, "-p", "prj_x")
		if code != 2 || !strings.Contains(errOut, `"server" not set`) {
			t.Errorf("tools %s without --server: exit %d, %q", sub, code, errOut)
		}
	}
}

// An empty --name (trimmed as the service trims, JavaScript's way: a BOM
// too) is refused before any request, as env create refuses one; a NEL is
// a name, and goes on to the service (here, none listening).
func TestTunnelEmptyName(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_tunnel_0123456789")
	for name, empty := range map[string]bool{" ": true, "\ufeff": true, "\u0085": false} {
		code, _, errOut := runCLI(t, "tunnel", "-p", "prj_x", "--name", name, "--to", "http://127.0.0.1:3000/mcp",
			"--base-url", "http://127.0.0.1:1/api/v1")
		if refused := strings.Contains(errOut, "--name must not be empty"); refused != empty || code != 2 {
			t.Errorf("--name %q: exit %d, %q; want refused as empty: %v", name, code, errOut, empty)
		}
	}
}

// Completion still offers --server first while it is unset.
func TestToolsCompletionSuggestsServer(t *testing.T) {
	for _, sub := range []string{"list", "call"} {
		code, out, _ := runCLI(t, "__complete", "tools", sub, "")
		if code != 0 || !strings.Contains(out, "--server") {
			t.Errorf("completion of tools %s: exit %d, %q", sub, code, out)
		}
	}
}

// A run file's passCriteria without minimumPassRate is sent as none (the
// service's default, 100), not as an explicit 0 that passes every run; an
// unknown key inside it is still refused, where it is.
func TestRunFilePassCriteria(t *testing.T) {
	dir := t.TempDir()
	read := func(in string) (*evals.PassCriteria, error) {
		p := filepath.Join(dir, "run.json")
		if err := os.WriteFile(p, []byte(in), 0o600); err != nil {
			t.Fatal(err)
		}
		rp, err := readRunFile(t.Context(), p)
		return rp.PassCriteria, err
	}
	if pc, err := read(`{"suiteName":"s","passCriteria":{}}`); err != nil || pc != nil {
		t.Errorf("{}: %+v, %v; want none", pc, err)
	}
	if pc, err := read(`{"suiteName":"s","passCriteria":{"minimumPassRate":0}}`); err != nil || pc == nil || pc.MinimumPassRate != 0 {
		t.Errorf("explicit 0: %+v, %v", pc, err)
	}
	if pc, err := read(`{"suiteName":"s","passCriteria":{"minimumPassRate":null}}`); err != nil || pc != nil {
		t.Errorf("null: %+v, %v; want none (not 0)", pc, err)
	}
	if pc, err := read(`{"suiteName":"s","passCriteria":{"MinimumPassRate":50}}`); err != nil || pc == nil || pc.MinimumPassRate != 50 {
		t.Errorf("other case: %+v, %v; want 50, as encoding/json matches it", pc, err)
	}
	for in, want := range map[string]string{
		"{\"suiteName\":\"s\",\n \"passCriteria\":{\"minPassRate\":50}}":         `line 2, column 18: unknown field "minPassRate"`,
		"{\"suiteName\":\"s\",\n \"passCriteria\":{\"minimumPassRate\":\"50\"}}": "line 2, column 40:",
	} {
		if _, err := read(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", in, err, want)
		}
	}
}
