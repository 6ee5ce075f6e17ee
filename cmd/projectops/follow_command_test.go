package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// runningRunService points the CLI at a service that answers eval-run
// create with runID and every read of a run with runID still running, in
// project. It returns the service's base URL.
func runningRunService(t *testing.T, project, runID string) string {
	t.Helper()
	id, err := json.Marshal(runID)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/eval-runs"):
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(`{"runId":` + string(id) + `,"suiteId":"evs_1","status":"running"}`))
		case r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/eval-runs/"):
			_, _ = w.Write([]byte(`{"id":` + string(id) + `,"suiteId":"evs_1","status":"running","source":"api","createdAt":1,` +
				`"summary":{"total":1,"passed":0,"failed":0,"passRate":0}}`))
		default:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"code":"VALIDATION_ERROR","message":"unexpected request"}`))
		}
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_0000000000000000")
	t.Setenv("PROJECTOPS_PROJECT", project)
	return hs.URL + "/api/v1"
}

// followCommands are the commands the CLI prints to follow or cancel a
// run, in the order they appear: eval run without --wait prints the first
// on stdout; a stopped wait prints both on stderr.
func followCommands(runID, project string, pre ...string) (follow, cancel string) {
	g := strings.Join(append(pre, "--project", shellWord(project)), " ")
	return "projectops eval status " + g + " " + shellWord(runID) + " --wait",
		"projectops eval cancel " + g + " " + shellWord(runID)
}

// Every word of the printed follow and cancel commands is one shell word:
// a run id the service sent holding ";" would run what follows it when
// pasted, and a project id with a space would name another project.
func TestFollowCommandsQuoteEachWord(t *testing.T) {
	for _, tc := range []struct{ project, runID string }{
		{"prj_1", "run_1;touch /tmp/pwned"},
		{"my proj", "run_1"},
		{"prj_1", "run_1\x1b[2J"}, // a control character: $'...'
	} {
		runningRunService(t, tc.project, tc.runID)
		follow, cancel := followCommands(tc.runID, tc.project)
		code, out, errOut := evalCLI(t, "run", "--suite", "evs_1")
		if code != 0 || !strings.HasSuffix(out, "follow it with: "+follow+"\n") {
			t.Errorf("eval run, project %q run %q: exit %d, want %s\n%s\n%s", tc.project, tc.runID, code, follow, out, errOut)
		}
		code, out, errOut = evalCLI(t, "status", tc.runID, "--wait", "--interval", "1ms", "--wait-timeout", "50ms")
		if code != 2 || !strings.Contains(errOut, "(follow it again with: "+follow+"; cancel it with: "+cancel+")\n") {
			t.Errorf("eval status --wait, project %q run %q: exit %d, want %s and %s\n%s\n%s", tc.project, tc.runID, code, follow, cancel, out, errOut)
		}
	}
}

// A stopped wait's message is not masked as key-shaped ("run_task_2026..."
// holds "sk_"), which would print commands naming no run, in either
// command; the API key's own value still is.
func TestStoppedWaitingKeepsKeyShapedRunID(t *testing.T) {
	id := "run_task_20261128"
	runningRunService(t, "prj_1", id)
	follow, cancel := followCommands(id, "prj_1")
	for _, args := range [][]string{
		{"status", id, "--wait", "--interval", "1ms", "--wait-timeout", "50ms"},
		{"run", "--suite", "evs_1", "--wait", "--interval", "1ms", "--wait-timeout", "50ms"},
	} {
		code, out, errOut := evalCLI(t, args...)
		want := "stopped waiting after --wait-timeout 50ms; run " + id + " continues (follow it again with: " + follow + "; cancel it with: " + cancel + ")"
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%v: exit %d, want %s\n%s\n%s", args, code, want, out, errOut)
		}
	}

	key := os.Getenv("PROJECTOPS_API_KEY")
	runningRunService(t, "prj_1", "run_"+key)
	code, out, errOut := evalCLI(t, "status", "run_"+key, "--wait", "--interval", "1ms", "--wait-timeout", "50ms")
	if code != 2 || strings.Contains(errOut, key) || !strings.Contains(errOut, "cancel it with: projectops eval cancel --project prj_1 run_sk_***") {
		t.Errorf("a run id holding the API key: exit %d\n%s\n%s", code, out, errOut)
	}
}

// With --base-url given as a flag (not $PROJECTOPS_BASE_URL), the printed
// commands keep it: without it, pasted, they would ask another service.
func TestFollowCommandsKeepBaseURLFlag(t *testing.T) {
	base := runningRunService(t, "prj_1", "run_1")
	t.Setenv("PROJECTOPS_BASE_URL", "")
	follow, cancel := followCommands("run_1", "prj_1", "--base-url", base)
	code, out, errOut := evalCLI(t, "run", "--base-url", base, "--suite", "evs_1")
	if code != 0 || !strings.HasSuffix(out, "follow it with: "+follow+"\n") {
		t.Errorf("eval run: exit %d, want %s\n%s\n%s", code, follow, out, errOut)
	}
	code, out, errOut = evalCLI(t, "status", "--base-url", base, "run_1", "--wait", "--interval", "1ms", "--wait-timeout", "50ms")
	if code != 2 || !strings.Contains(errOut, "(follow it again with: "+follow+"; cancel it with: "+cancel+")\n") {
		t.Errorf("eval status --wait: exit %d, want %s and %s\n%s\n%s", code, follow, cancel, out, errOut)
	}
}

// A stopped wait says the run continues only once a poll saw it going
// (or eval run created it): before, the id may be a typo or name a run
// that has ended.
func TestStoppedWaitingSaysContinuesOnlyOnceSeen(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_0000000000000000")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	// The first poll of run_1 answers; the next arrives only once the CLI
	// has read it, and is held, as every poll of run_hang is.
	var polls atomic.Int32
	repolled := make(chan struct{}, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/run_hang") || polls.Add(1) > 1 {
			select {
			case repolled <- struct{}{}:
			default:
			}
			<-r.Context().Done() // never answers
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"run_1","suiteId":"evs_1","status":"running","source":"api","createdAt":1}`))
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")

	// Interrupted once a poll has answered.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		select {
		case <-repolled:
			cancel()
		case <-ctx.Done():
		}
	}()
	var o, e bytes.Buffer
	code := run(ctx, []string{"eval", "status", "run_1", "--wait", "--interval", "1ms"}, &o, &e)
	if want := "projectops eval status: stopped waiting; run run_1 continues (follow it again with:"; code != 2 || !strings.HasPrefix(e.String(), want) {
		t.Errorf("interrupted after a poll: exit %d, want %s\n%s", code, want, e.String())
	}

	// --wait-timeout before any poll answered.
	code, out, errOut := evalCLI(t, "status", "run_hang", "--wait", "--wait-timeout", "50ms")
	if want := "projectops eval status: stopped waiting for run run_hang after --wait-timeout 50ms before a poll answered (follow it again with:"; code != 2 || !strings.HasPrefix(errOut, want) {
		t.Errorf("timed out before a poll: exit %d, want %s\n%s\n%s", code, want, out, errOut)
	}
}
