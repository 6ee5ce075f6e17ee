package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

// envServer starts a double on loopback with the demo workspace and points
// the CLI at it through the environment (so these tests are not parallel).
func envServer(t *testing.T, opts ...projectopstest.Option) (*projectopstest.Server, string) {
	t.Helper()
	srv := projectopstest.NewTestServer(t, append([]projectopstest.Option{
		projectopstest.WithSeed(projectopstest.DemoSeed()), projectopstest.WithRateLimit(0, 0)}, opts...)...)
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	return srv, base
}

// env runs "projectops env args..." and returns the exit code and output.
func env(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), append([]string{"env"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestEnvCommands(t *testing.T) {
	_, _ = envServer(t)
	// Empty listings are [] under --json, as every other listing: jq '.[]'
	// works on them.
	if code, out, errOut := env(t, "list", "--json"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("list of none: %d %q %q", code, out, errOut)
	}
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM python:3.13-slim@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\nRUN pip install httpx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := env(t, "create", "--name", "py", "--file", df, "--json")
	var created environments.Environment
	if code != 0 || json.Unmarshal([]byte(out), &created) != nil || created.Name != "py" {
		t.Fatalf("create: %d %q %q", code, out, errOut)
	}
	id := created.ID

	code, out, errOut = env(t, "build", "--interval", "1ms", id)
	// The log and the status are progress: stderr.
	if code != 0 || !strings.Contains(errOut, ": ready") || !strings.Contains(errOut, "  #1 [1/2] FROM python:3.13-slim@sha256:cf1b6e9cc15cc669") ||
		!strings.Contains(errOut, "build ready") {
		t.Fatalf("build: %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "\033[") {
		t.Errorf("terminal escapes written to a non-terminal:\n%q", errOut)
	}

	code, out, _ = env(t, "list")
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "ready bld_") || !strings.Contains(out, "you") {
		t.Fatalf("list: %d\n%s", code, out)
	}
	code, out, _ = env(t, "builds", id)
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, "provider_a") {
		t.Fatalf("builds: %d\n%s", code, out)
	}
	for _, step := range []struct {
		args []string
		want string
	}{
		{[]string{"boot", id}, "booting from " + id},
		{[]string{"reset"}, "computer reset"},
		{[]string{"share", id}, "shared with the project"},
		{[]string{"build", "--wait=false", id}, "queued"},
		{[]string{"delete", id}, "deleted " + id},
	} {
		if code, out, errOut := env(t, step.args...); code != 0 || !strings.Contains(out, step.want) {
			t.Errorf("%v: %d %q %q", step.args, code, out, errOut)
		}
	}
	code, _, errOut = env(t, "boot", id)
	if code != 2 || !strings.Contains(errOut, "404 NOT_FOUND") {
		t.Errorf("boot of a deleted environment: %d %q", code, errOut)
	}
}

func TestEnvBuildFailureExitsNonZero(t *testing.T) {
	srv, _ := envServer(t)
	id, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: "prj_demo", OwnerUserID: "usr_owner",
		Name: "bad", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN exit 7\n"})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := env(t, "build", "--interval", "1ms", id)
	// The build's log and status are progress, on stderr; stdout stays data.
	if code != 1 || !strings.Contains(errOut, "exited with code 7") || !strings.Contains(errOut, ": failed") ||
		!strings.Contains(errOut, "ERROR: line 2: RUN exit 7: exited with code 7") || strings.Contains(out, "ERROR") {
		t.Errorf("failing build: %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	// Under --json the failed build is still printed: its status and error
	// are the data.
	code, out, errOut = env(t, "build", "--json", "--interval", "1ms", id)
	var b environments.Build
	if code != 1 || json.Unmarshal([]byte(out), &b) != nil || b.Status != environments.BuildFailed || b.Error == "" {
		t.Errorf("failing build --json: %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	// A guest of the project cannot build.
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoGuestKey)
	if code, _, errOut := env(t, "build", id); code != 2 || !strings.Contains(errOut, "FORBIDDEN") {
		t.Errorf("guest build: %d %q", code, errOut)
	}
}

// The progress display follows a build through each state as it happens.
func TestEnvBuildProgress(t *testing.T) {
	release := make(chan struct{})
	hook := func(ctx context.Context, s projectopstest.BuildStep) error {
		if s.Index > 1 {
			return nil
		}
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	srv, _ := envServer(t, projectopstest.WithBuildHook(hook))
	id, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: "prj_demo", OwnerUserID: "usr_owner",
		Name: "e", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN true\n"})
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		var stdout bytes.Buffer // progress goes to stderr; stdout stays data
		code <- run(t.Context(), []string{"env", "build", "--interval", "1ms", id}, &stdout, pw)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	expect := func(want string) {
		t.Helper()
		for sc.Scan() {
			if strings.Contains(sc.Text(), want) {
				return
			}
		}
		t.Fatalf("output ended before %q", want)
	}
	expect(": queued")
	release <- struct{}{} // leave queued; held before the first instruction
	expect(": building")
	close(release)
	expect(": ready")
	for sc.Scan() {
	}
	if c := <-code; c != 0 {
		t.Fatalf("exit code %d", c)
	}
}

func TestEnvTerminalProgress(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	p := &buildProgress{w: &buf, tty: true, id: "bld_1", start: time.Now()}
	p.update(environments.Build{Status: environments.BuildQueued, LogPreview: "#0 queued"})
	p.update(environments.Build{Status: environments.BuildBuilding, LogPreview: "#0 queued\n#0 building"})
	p.update(environments.Build{Status: environments.BuildBuilding,
		LogPreview: "[earlier log lines truncated]\n#0 building\n#1 [1/1] FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"})
	p.finish(&environments.Build{Status: environments.BuildReady})
	want := "\r\033[K  #0 queued\nbuild bld_1: queued (0s)" +
		"\r\033[K  #0 building\nbuild bld_1: building (0s)" +
		"\r\033[K  #1 [1/1] FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\nbuild bld_1: building (0s)" +
		"\r\033[Kbuild bld_1: ready\n"
	if buf.String() != want {
		t.Errorf("terminal output\n%q\nwant\n%q", buf.String(), want)
	}
}

func TestEnvUsageErrors(t *testing.T) {
	t.Setenv("PROJECTOPS_PROJECT", "")
	t.Setenv("PROJECTOPS_API_KEY", "sk_unused_000000000000")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Available Commands:"},
		{[]string{"help"}, 0, "Available Commands:"},
		{[]string{"nope"}, 2, `unknown command "nope" for "projectops env"`},
		{[]string{"list"}, 2, "--project is required"},
		{[]string{"build", "--project", "p"}, 2, "want ENV_ID, got 0 argument(s)"},
		{[]string{"reset", "--project", "p", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"create", "--project", "p", "--name", "x"}, 2, "--name and --file are required"},
		{[]string{"create", "--project", "p", "--name", "x", "--file", "/nonexistent/Dockerfile"}, 2, "no such file"},
		{[]string{"build", "--project", "p", "--interval", "0s", "e"}, 2, "--interval must be positive"},
		{[]string{"build", "--project", "p", "--wait=false", "--wait-timeout", "5m", "e"}, 2, "--wait-timeout needs --wait"},
		{[]string{"boot", "-h"}, 0, "PROJECTOPS_API_KEY"},
	}
	for _, tt := range tests {
		code, out, errOut := env(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("env %v: %d %q %q, want %d %q", tt.args, code, out, errOut, tt.code, tt.want)
		}
	}
	// An empty Dockerfile on stdin is refused before anything is sent, and
	// one past the limit is refused, not cut short.
	setStdin(t, strings.NewReader(" \n"))
	if code, out, errOut := env(t, "create", "--project", "p", "--name", "x", "--file", "-"); code != 2 ||
		!strings.Contains(errOut, "the Dockerfile is empty") {
		t.Errorf("empty Dockerfile on stdin: %d %q %q", code, out, errOut)
	}
	setStdin(t, strings.NewReader("FROM a\n"+strings.Repeat("#", 1<<20)))
	if code, out, errOut := env(t, "create", "--project", "p", "--name", "x", "--file", "-"); code != 2 ||
		!strings.Contains(errOut, "standard input is over") {
		t.Errorf("Dockerfile past the limit on stdin: %d %q %q", code, out, errOut)
	}
}

// A line the log repeats ("ok", a blank) is no landmark: the lines after
// the part the previous preview ended with are printed, once each, as the
// tail grows and scrolls.
func TestEnvProgressRepeatedLines(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	p := &buildProgress{w: &buf, id: "bld_1", start: time.Now()}
	for _, preview := range []string{
		"step 1\nok\n",
		"step 1\nok\nstep 2\nok\n",
		"step 1\nok\nstep 2\nok\n", // unchanged
		"[earlier log lines truncated]\nok\nstep 2\nok\nstep 3\n",
	} {
		p.update(environments.Build{Status: environments.BuildBuilding, LogPreview: preview})
	}
	var got []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "build ") {
			got = append(got, l)
		}
	}
	if want := []string{"step 1", "ok", "step 2", "ok", "step 3"}; !slices.Equal(got, want) {
		t.Errorf("printed %q, want %q\n%s", got, want, buf.String())
	}
}

// env list prints one row per environment: a tab or newline in a name
// (anyone's text; a shared environment's name is another member's) is
// escaped as docs/cli.md says (\t, \n), so it neither breaks the table nor
// reads as a space.
func TestEnvListOneRowPerEnv(t *testing.T) {
	_, _ = envServer(t)
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM ubuntu:24.04@sha256:"+strings.Repeat("0", 64)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := env(t, "create", "--name", "line one\nline\ttwo", "--file", df); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	code, out, _ := env(t, "list")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 || !strings.Contains(lines[1], `line one\nline\ttwo`) {
		t.Errorf("want a header and one row, got %d lines:\n%s", len(lines), out)
	}
}

// Following a build stops at --wait-timeout (the build goes on) with exit
// 2, as eval run --wait does: a stuck build must not hold a CI job.
func TestEnvBuildWaitTimeout(t *testing.T) {
	_, base := envServer(t, projectopstest.WithBuildStepDelay(time.Minute))
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM python:3.13-slim@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := env(t, "create", "--name", "slow", "--file", df, "--json")
	var created environments.Environment
	if code != 0 || json.Unmarshal([]byte(out), &created) != nil {
		t.Fatalf("create: %d %q %q", code, out, errOut)
	}
	// The second: a timeout shorter than the interval ends the wait early.
	for _, f := range [][2]string{{"1ms", "200ms"}, {"60s", "5s"}} { // interval, timeout
		code, _, errOut = env(t, "build", "--interval", f[0], "--wait-timeout", f[1], created.ID)
		// The command names the service asked, $PROJECTOPS_BASE_URL here.
		see := "continues (see it with: projectops env builds --base-url " + base + " --project prj_demo " + created.ID + ")\n"
		if code != 2 || !strings.Contains(errOut, "stopped waiting after --wait-timeout "+f[1]) || !strings.Contains(errOut, see) {
			t.Errorf("build past --wait-timeout %s (interval %s): %d %q, want %s", f[1], f[0], code, errOut, see)
		}
	}
	if code, _, errOut := env(t, "build", "--wait-timeout", "-1s", created.ID); code != 2 || !strings.Contains(errOut, "must not be negative") {
		t.Errorf("negative --wait-timeout: %d %q", code, errOut)
	}
}

// env create's "build it with" command is built as every printed command
// is: quoted, and naming the service asked ($PROJECTOPS_BASE_URL here);
// pasted, it builds that environment.
func TestEnvCreatePrintsBuildCommand(t *testing.T) {
	_, base := envServer(t)
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM python:3.13-slim@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := env(t, "create", "--name", "py", "--file", df)
	build := printedCommand(t, out, "build it with: ", "\n")
	id := printedCommand(t, out, "created ", " ")
	if want := "projectops env build --base-url " + base + " --project prj_demo " + id; code != 0 || build != want {
		t.Fatalf("create: exit %d, printed %q, want %q\n%s", code, build, want, errOut)
	}
	t.Setenv("PROJECTOPS_BASE_URL", "") // pasted in a shell without it
	if code, out, errOut := runCLI(t, withFlags(shellArgs(t, build), 2, "--wait=false")...); code != 0 || !strings.Contains(out, "queued") {
		t.Errorf("%s pasted: exit %d %q %q", build, code, out, errOut)
	}
}

// The ids and names env create and env build print on stdout are the
// service's: a key-shaped one is masked there as in error text, and the
// command to paste, which would hold it, is withheld.
func TestEnvStdoutMasksKeyShapedIDs(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/build") || strings.HasSuffix(r.URL.Path, "/builds") {
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(`{"id":"env_1","buildId":"bld_sk_live_BUILDKEY12","reused":false}`))
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":"env_sk_live_IDKEY1234","name":"Bearer%20sk_live_NAMEKEY1","sharing":"personal"}`))
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_0000000000000000")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := env(t, "create", "--name", "x", "--file", df)
	if want := "created env_sk_*** (Bearer%20sk_***, personal draft); build it with: " + notPrinted + "\n"; code != 0 || out != want {
		t.Errorf("create: exit %d, printed %q, want %q\n%s", code, out, want, errOut)
	}
	code, out, errOut = env(t, "build", "--wait=false", "env_1")
	if want := "build bld_sk_*** queued\n"; code != 0 || out != want {
		t.Errorf("build: exit %d, printed %q, want %q\n%s", code, out, want, errOut)
	}
}
