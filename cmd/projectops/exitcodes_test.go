package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// The exit-code table (docs/cli.md), command by command: 0 success, 1 a
// gate failed, 2 bad usage or an API error.
func TestExitCodeTable(t *testing.T) {
	srv := demoAPI(t)
	t.Setenv(envProject, "prj_demo")
	dir := t.TempDir()
	snap := filepath.Join(dir, "a.json")
	if code, _, errOut := runCLI(t, "export", "--server", "srv_demo", "-o", snap); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	changed := filepath.Join(dir, "b.json")
	b, _ := os.ReadFile(snap)
	if err := os.WriteFile(changed, []byte(strings.Replace(string(b), "Echo a message back", "Echo it", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	badEnv, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: "prj_demo", OwnerUserID: "usr_owner",
		Name: "bad", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN exit 1\n"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"version", []string{"version"}, 0},
		{"version extra", []string{"version", "x"}, 2},
		{"unknown command", []string{"nope"}, 2},
		{"unknown flag", []string{"version", "--nope"}, 2},
		{"diff equal", []string{"diff", snap, snap}, 0},
		{"diff different", []string{"diff", snap, changed}, 1},
		{"diff unreadable", []string{"diff", snap, filepath.Join(dir, "missing.json")}, 2},
		{"export", []string{"export", "--server", "srv_demo"}, 0},
		{"export no server flag", []string{"export"}, 2},
		{"export API error", []string{"export", "--server", "srv_nope"}, 2},
		{"tools list", []string{"tools", "list", "--server", "srv_demo"}, 0},
		{"tools call", []string{"tools", "call", "--server", "srv_demo", "add", `{"a":1,"b":2}`}, 0},
		{"tools call isError", []string{"tools", "call", "--server", "srv_demo", "divide", `{"a":1,"b":0}`}, 1},
		{"tools call bad args", []string{"tools", "call", "--server", "srv_demo", "add", `[1]`}, 2},
		{"eval run passed", []string{"eval", "run", "--suite", "evs_smoke", "--wait", "--interval", "1ms"}, 0},
		{"eval run usage", []string{"eval", "run"}, 2},
		{"eval run API error", []string{"eval", "run", "--suite", "evs_nope"}, 2},
		{"eval iterations API error", []string{"eval", "iterations", "run_nope"}, 2},
		{"env list", []string{"env", "list"}, 0},
		{"env build failed", []string{"env", "build", "--interval", "1ms", badEnv}, 1},
		{"env boot API error", []string{"env", "boot", "env_nope"}, 2},
		{"report no input", []string{"report"}, 2},
		{"report junit with failures", []string{"report", "--junit", "../../ingest/testdata/junit.xml"}, 1},
		{"report unreadable file", []string{"report", "--junit", filepath.Join(dir, "missing.xml")}, 2},
		{"report command status", []string{"report", "--", "sh", "-c", "exit 3"}, 3},
		{"report command killed by a signal", []string{"report", "--", "sh", "-c", "kill -TERM $$"}, 128 + 15},
		{"report resume of a missing --spool", []string{"report", "resume", "--spool", filepath.Join(dir, "missing")}, 2},
		{"report pass rate over 100", []string{"report", "--min-pass-rate", "150", "--junit", "../../ingest/testdata/junit.xml"}, 2},
		{"report negative pass rate", []string{"report", "--min-pass-rate", "-5", "--junit", "../../ingest/testdata/junit.xml"}, 2},
		{"tunnel missing --to", []string{"tunnel", "--name", "x"}, 2},
		{"serve bad seed", []string{"serve", "--seed", filepath.Join(dir, "missing.json")}, 2},
		{"completion", []string{"completion", "bash"}, 0},
		{"completion without a shell", []string{"completion"}, 2},
		{"completion of an unknown shell", []string{"completion", "tcsh"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("%v: exit %d, want %d; stderr %q", tc.args, code, tc.code, errOut)
			}
			// An error is printed once, naming the command, without the
			// SDK's prefix repeated.
			if strings.Contains(errOut, ": projectops:") || strings.Count(errOut, "Run '") > 1 {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
}

// Without a key every API command is a configuration error, caught before
// anything is sent.
func TestNoKeyIsUsageError(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	code, _, errOut := runCLI(t, "env", "list", "--project", "p")
	if code != 2 || !strings.Contains(errOut, "projectops env list: PROJECTOPS_API_KEY is not set") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// Flags are accepted after positional arguments, and the persistent flags
// work on every command.
func TestFlagsAfterArguments(t *testing.T) {
	srv := demoAPI(t)
	t.Setenv("PROJECTOPS_BASE_URL", "http://127.0.0.1:1/api/v1") // wrong on purpose: --base-url wins
	code, out, errOut := runCLI(t, "tools", "call", "add", `{"a":2,"b":3}`, "--server", "srv_demo", "-p", "prj_demo",
		"--base-url", srv.URL())
	if code != 0 || !strings.Contains(out, `"sum": 5`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// --json prints data a program can read on every command that prints data.
func TestJSONEverywhere(t *testing.T) {
	demoAPI(t)
	t.Setenv(envProject, "prj_demo")
	for _, args := range [][]string{
		{"version"},
		{"env", "list"},
		{"eval", "run", "--suite", "evs_smoke"},
		{"tools", "list", "--server", "srv_demo"},
		{"report", "--junit", "../../ingest/testdata/junit.xml"},
	} {
		_, out, errOut := runCLI(t, append(args, "--json")...)
		if !json.Valid([]byte(out)) || strings.TrimSpace(out) == "" {
			t.Errorf("%v --json: stdout %q is not JSON; stderr %q", args, out, errOut)
		}
	}
}

// Completion scripts for the four shells, and --project completed from
// the projects the key sees.
func TestCompletion(t *testing.T) {
	demoAPI(t)
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, _ := runCLI(t, "completion", shell)
		if code != 0 || !strings.Contains(out, "projectops") {
			t.Errorf("completion %s: exit %d, %d bytes", shell, code, len(out))
		}
	}
	code, out, errOut := runCLI(t, "__complete", "env", "list", "--project", "")
	if code != 0 || !strings.Contains(out, "prj_demo\t") {
		t.Errorf("complete --project: exit %d, %q %q", code, out, errOut)
	}
}

// -v makes retries and their waits visible on stderr; stdout stays data.
func TestVerboseShowsRetries(t *testing.T) {
	srv := demoAPI(t)
	srv.SetFault("GET /projects/{projectId}/computer-environments", projectopstest.Fault{Status: 503, Times: 1})
	code, out, errOut := runCLI(t, "env", "list", "-p", "prj_demo", "-v", "--json")
	if code != 0 || !json.Valid([]byte(out)) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "projectops retry") || !strings.Contains(errOut, "wait=") || !strings.Contains(errOut, "status=503") {
		t.Errorf("stderr lacks the retry: %q", errOut)
	}
	if strings.Contains(errOut, projectopstest.DemoOwnerKey) {
		t.Error("the key was logged")
	}
}

// A key typed where the CLI does not expect it (an argument, glued to a
// shorthand flag) is not echoed back in the usage error; the key in
// PROJECTOPS_API_KEY is masked whatever its shape. The typed key is shaped
// as a real one, sk_ and 43 base64url characters, as it must be to be
// caught glued to a flag ("-ksk_...").
func TestUsageErrorsMaskKeys(t *testing.T) {
	const key = "sk_TYPEDKEY0123456789abcdefghijklmnopqrst-_xyz"
	t.Setenv("PROJECTOPS_API_KEY", "odd-shaped-KEY-987654")
	for _, args := range [][]string{{"export", "-k" + key}, {"eval", key}, {"eval", "odd-shaped-KEY-987654"}} {
		code, out, errOut := runCLI(t, args...)
		if all := out + errOut; strings.Contains(all, "TYPEDKEY") || strings.Contains(all, "KEY-987654") || code != exitError {
			t.Errorf("%v: exit %d: %s", args, code, all)
		}
	}
}

// A bad flag value, or a --to that is no URL, is said in words: never
// strconv's or the SDK function's name.
func TestFlagErrorsSpeakPlainly(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "iterations", "--limit", "abc", "run_1"}, `"--limit" flag: must be an integer`},
		{[]string{"report", "--min-pass-rate", "abc"}, `"--min-pass-rate" flag: must be a number`},
		{[]string{"tunnel", "-p", "prj_demo", "--name", "x", "--to", "notaurl"}, "want an absolute http or https URL"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitError || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "strconv") || strings.Contains(errOut, "ProxyTo") {
			t.Errorf("%v: exit %d: %s", tc.args, code, errOut)
		}
	}
}

// Input files that are not what a command reads are described in JSON's
// terms, with where: never a Go type or field name.
func TestJSONInputErrorsSpeakJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	snap := write("snap.json", `{"tools":[],"resources":[],"prompts":[]}`)
	wrong := write("wrong.json", `{"tools":{},"resources":[],"prompts":[]}`)
	arr := write("arr.json", `[1,2]`)
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", snap, wrong}, `line 1, column 11: field "tools" must be an array, not an object`},
		{[]string{"diff", snap, arr}, "not a JSON object"},
		{[]string{"eval", "run", "-p", "prj_demo", "--file", arr}, "the document must be an object, not an array"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitError || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "Go ") ||
			strings.Contains(errOut, "evals.") || strings.Contains(errOut, "mcp.") {
			t.Errorf("%v: exit %d: %s", tc.args, code, errOut)
		}
	}
}
