package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// report --json prints its summary when every test was skipped too (it
// printed nothing, and `| jq` read no input).
func TestReportJSONAllSkipped(t *testing.T) {
	reportEnv(t)
	in := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"skip","Package":"p","Test":"TestA","Elapsed":0}
{"Action":"skip","Package":"p","Elapsed":0}
`
	code, out, errOut := runReportCLI(t, in, "report", "--json")
	var sum struct{ Passed, Failed, Skipped int }
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || sum.Skipped != 1 {
		t.Errorf("exit %d, stdout %q (want a JSON summary), stderr %q", code, out, errOut)
	}
}

// A reporting failure is said once, without the SDK's prefix in the
// middle of the line ("...: projectops: POST ..."), also under --strict.
func TestReportFailureSaidOnce(t *testing.T) {
	reportEnv(t)
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_wrong_0123456789")
	for _, strict := range []bool{false, true} {
		args := []string{"report", "--junit", "../../ingest/testdata/junit.xml"}
		if strict {
			args = append(args, "--strict")
		}
		code, _, errOut := runReportCLI(t, "", args...)
		if strings.Contains(errOut, ": projectops:") || strings.Count(errOut, "NOT reported") != 1 || !strings.Contains(errOut, "401") {
			t.Errorf("strict %v: exit %d, stderr %q", strict, code, errOut)
		}
		if want := map[bool]int{false: 1, true: 2}[strict]; code != want {
			t.Errorf("strict %v: exit %d, want %d", strict, code, want)
		}
	}
}

// "help TOPIC" with an unknown topic is a usage error, as an unknown
// command is (it printed the root's help and exited 0).
func TestHelpUnknownTopic(t *testing.T) {
	for _, args := range [][]string{{"help", "nope"}, {"help", "env", "nope"}} {
		code, out, errOut := runCLI(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "unknown help topic") {
			t.Errorf("%v: exit %d, %d bytes on stdout, stderr %q", args, code, len(out), errOut)
		}
	}
	if code, out, _ := runCLI(t, "help", "env"); code != 0 || !strings.Contains(out, "projectops env") {
		t.Errorf("help env: exit %d", code)
	}
}

// tunnel --to never echoes credentials or a query back, and refuses a
// port out of range before anything is created.
func TestTunnelToChecked(t *testing.T) {
	demoAPI(t)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	for to, want := range map[string]string{
		"ftp://admin:hunter2@10.0.0.5/mcp?token=SECRET123": "absolute http or https",
		"http://127.0.0.1:99999/mcp":                       "port 99999",
		"http://[::1":                                      "not a URL",
		"admin:hunter2@127.0.0.1:3000/mcp":                 "absolute http or https", // the scheme forgotten
		"http//admin:hunter2@127.0.0.1:3000/mcp":           "absolute http or https", // no host: all path
		"http:/admin:hunter2@127.0.0.1:3000/mcp":           "absolute http or https",
		"ws://127.0.0.1:3000/mcp#access_token=hunter2":     "absolute http or https",
	} {
		code, _, errOut := runCLI(t, "tunnel", "--name", "t", "--to", to)
		if code != 2 || !strings.Contains(errOut, want) || strings.Contains(errOut, "hunter2") || strings.Contains(errOut, "SECRET123") {
			t.Errorf("--to %s: exit %d, stderr %q", to, code, errOut)
		}
	}
}

// env builds --limit below 0 is a usage error (it meant "all").
func TestEnvBuildsNegativeLimit(t *testing.T) {
	envServer(t)
	if code, _, errOut := env(t, "builds", "--limit", "-3", "env_x"); code != 2 || !strings.Contains(errOut, "--limit") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// An interrupted env build --wait says the build goes on, as eval run
// --wait does (it said "context canceled").
func TestEnvBuildInterrupted(t *testing.T) {
	srv, _ := envServer(t, projectopstest.WithBuildHook(func(ctx context.Context, _ projectopstest.BuildStep) error {
		<-ctx.Done() // the build runs until the double closes
		return ctx.Err()
	}))
	id, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: "prj_demo", OwnerUserID: "usr_owner",
		Name: "slow", Dockerfile: "FROM ubuntu:22.04@sha256:cb287cf26b15fded26828219b268886d76ea3963bc93495425dcf08225c86e9f\nRUN echo hi\n"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// Ctrl-C once the CLI shows the build's progress (it is waiting).
	stderr := &cancelOnWrite{cancel: cancel, when: "build "}
	var stdout bytes.Buffer
	code := run(ctx, []string{"env", "build", "--interval", "10ms", id}, &stdout, stderr)
	if got := stderr.String(); code != 2 || !strings.Contains(got, "stopped waiting; build") || strings.Contains(got, "context") {
		t.Errorf("exit %d, stderr %q", code, got)
	}
}

// cancelOnWrite is a writer that calls cancel once what is written
// contains when.
type cancelOnWrite struct {
	bytes.Buffer
	cancel func()
	when   string
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if strings.Contains(w.String(), w.when) {
		w.cancel()
	}
	return n, err
}

// report -- CMD with a command that cannot start exits as a shell does
// (127 not found), saying so, instead of "reading go test: exec: ...".
func TestReportCommandNotFound(t *testing.T) {
	reportEnv(t)
	code, _, errOut := runReportCLI(t, "", "report", "--", "projectops-no-such-command")
	if code != 127 || !strings.Contains(errOut, "cannot run projectops-no-such-command") || strings.Contains(errOut, "reading") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
