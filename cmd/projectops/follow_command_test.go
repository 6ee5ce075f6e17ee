package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
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
// run on the service at base, in the order they appear: eval run without
// --wait prints the first on stdout; a stopped wait prints both on stderr.
func followCommands(base, runID, project string) (follow, cancel string) {
	g := "--base-url " + base + " --project " + shellWord(project)
	return "projectops eval status " + g + " --wait " + shellWord(runID),
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
		base := runningRunService(t, tc.project, tc.runID)
		follow, cancel := followCommands(base, tc.runID, tc.project)
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

// A run id holding "sk_" inside a word ("run_task_2026...") is no key:
// the stopped wait's message and both commands keep it whole.
func TestStoppedWaitingKeepsRunIDHoldingSk(t *testing.T) {
	id := "run_task_20261128"
	base := runningRunService(t, "prj_1", id)
	follow, cancel := followCommands(base, id, "prj_1")
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
}

// A run id holding the API key, or another key-shaped word, is masked in
// the stopped wait's message as every error is, and the commands holding
// it are not printed: masked, they would name no run (and "sk_***" is a
// glob), so the message says they were left out.
func TestStoppedWaitingWithholdsKeyShapedCommands(t *testing.T) {
	// The first holds the API key runningRunService sets; the second, a key
	// of another shape.
	for _, id := range []string{"run_sk_test_0000000000000000", "sk_live_OTHERKEY1234567890"} {
		runningRunService(t, "prj_1", id)
		code, out, errOut := evalCLI(t, "status", id, "--wait", "--interval", "1ms", "--wait-timeout", "50ms")
		want := "continues (follow it again with: " + notPrinted + "; cancel it with: " + notPrinted + ")\n"
		if code != 2 || strings.Contains(errOut, id[4:]) || !strings.Contains(errOut, "sk_***") || !strings.Contains(errOut, want) {
			t.Errorf("run %s: exit %d, want the id masked and %s\n%s\n%s", id, code, want, out, errOut)
		}
	}
}

// eval run's "follow it with" on stdout, which the exit path does not
// mask, is withheld as well when the run id holds a key, and the id is
// masked.
func TestEvalRunFollowOnStdoutWithholdsKeyShaped(t *testing.T) {
	runningRunService(t, "prj_1", "run_sk_test_0000000000000000")
	code, out, errOut := evalCLI(t, "run", "--suite", "evs_1")
	if code != 0 || strings.Contains(out, "sk_test_0000000000000000") || !strings.HasSuffix(out, "follow it with: "+notPrinted+"\n") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// With --base-url given as a flag, as from $PROJECTOPS_BASE_URL (the
// other tests), the printed commands name it: without it, pasted in
// another shell, they would ask another service.
func TestFollowCommandsKeepBaseURLFlag(t *testing.T) {
	base := runningRunService(t, "prj_1", "run_1")
	t.Setenv("PROJECTOPS_BASE_URL", "")
	follow, cancel := followCommands(base, "run_1", "prj_1")
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
	if want := "projectops eval status: stopped waiting for run run_hang after --wait-timeout 50ms before a poll saw the run (follow it again with:"; code != 2 || !strings.HasPrefix(errOut, want) {
		t.Errorf("timed out before a poll: exit %d, want %s\n%s\n%s", code, want, out, errOut)
	}
}

// shellArgs is the argv bash makes of a printed "projectops ..." line,
// without the program's name.
func shellArgs(t *testing.T, line string) []string {
	t.Helper()
	if !strings.HasPrefix(line, "projectops ") {
		t.Fatalf("not a command: %q", line)
	}
	out, err := exec.Command("bash", "-c", "printf '%s\\0' "+strings.TrimPrefix(line, "projectops ")).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// printedCommand is the text of s after the first after, up to until.
func printedCommand(t *testing.T, s, after, until string) string {
	t.Helper()
	i := strings.Index(s, after)
	if i < 0 {
		t.Fatalf("no %q in %q", after, s)
	}
	s = s[i+len(after):]
	if j := strings.Index(s, until); j >= 0 {
		s = s[:j]
	}
	return s
}

// withFlags is args (a command path of n words, then its own words) with
// flags put after the path: after a "--", they would be read as
// positional words.
func withFlags(args []string, n int, flags ...string) []string {
	return append(append(append([]string{}, args[:n]...), flags...), args[n:]...)
}

// A run id starting with "-" (only reachable as "eval status -- -r1") is
// printed after a "--": pasted, the follow command follows that run and
// the cancel command cancels it, where the id would be read as shorthand
// flags.
func TestFollowCommandsRunIDLeadingDash(t *testing.T) {
	runningRunService(t, "prj_1", "-r1")
	code, out, errOut := evalCLI(t, "status", "--wait", "--interval", "1ms", "--wait-timeout", "50ms", "--", "-r1")
	if code != 2 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	follow := printedCommand(t, errOut, "follow it again with: ", "; cancel it with")
	cancel := printedCommand(t, errOut, "cancel it with: ", ")\n")
	if !strings.HasSuffix(follow, " --wait -- -r1") || !strings.HasSuffix(cancel, " -- -r1") {
		t.Errorf("printed %q and %q, want the id after --", follow, cancel)
	}
	code, out, errOut = runCLI(t, withFlags(shellArgs(t, follow), 2, "--interval", "1ms", "--wait-timeout", "50ms")...)
	if code != 2 || !strings.Contains(errOut, "stopped waiting after --wait-timeout 50ms; run -r1 continues") {
		t.Errorf("printed %q, pasted: exit %d\n%s\n%s", follow, code, out, errOut)
	}
	// The double-free stub answers a cancel with 400: the request was
	// made, for that id.
	code, out, errOut = runCLI(t, shellArgs(t, cancel)...)
	if code != 2 || !strings.Contains(errOut, "unexpected request") {
		t.Errorf("printed %q, pasted: exit %d\n%s\n%s", cancel, code, out, errOut)
	}
}

// A project id starting with "-" is one flag value, pasted.
func TestFollowCommandProjectLeadingDash(t *testing.T) {
	runningRunService(t, "-p1", "r1")
	code, out, errOut := evalCLI(t, "run", "--project=-p1", "--suite", "evs_1")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	follow := printedCommand(t, out, "follow it with: ", "\n")
	code, out, errOut = runCLI(t, withFlags(shellArgs(t, follow), 2, "--interval", "1ms", "--wait-timeout", "50ms")...)
	if code != 2 || !strings.Contains(errOut, "run r1 continues") {
		t.Errorf("printed %q, pasted: exit %d\n%s\n%s", follow, code, out, errOut)
	}
}

// eval run --wait stopped before any poll answered says the run
// continues: eval run created it.
func TestEvalRunStoppedBeforeFirstPollContinues(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			<-r.Context().Done() // polls never answer
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte(`{"runId":"run_1","suiteId":"evs_1","status":"running"}`))
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_0000000000000000")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	code, out, errOut := evalCLI(t, "run", "--suite", "evs_1", "--wait", "--wait-timeout", "50ms")
	if code != 2 || !strings.Contains(errOut, "stopped waiting after --wait-timeout 50ms; run run_1 continues") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// Every poll answered 503 (retried until a retry's wait would outlast
// --wait-timeout): the message says no poll saw the run, not that none
// answered, and says the last answer, which ended the wait early: that
// answer alone, not the wait around it, masked as an error's text (a key
// after a percent escape too).
func TestStoppedWaitingAfter503sSaysWhy(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"code":"UNAVAILABLE","message":"try later; upstream refused auth=Bearer%20sk_live_OTHERKEY1234567890"}`))
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_0000000000000000")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	code, out, errOut := evalCLI(t, "status", "run_1", "--wait", "--interval", "1ms", "--wait-timeout", "300ms")
	if want := "stopped waiting for run run_1 after --wait-timeout 300ms before a poll saw the run (the last poll: GET "; code != 2 ||
		!strings.Contains(errOut, want) || !strings.Contains(errOut, "try later") || strings.Contains(errOut, "poll answered") {
		t.Errorf("exit %d, want %s... try later\n%s\n%s", code, want, out, errOut)
	}
	if strings.Contains(errOut, "deadline exceeded") || strings.Contains(errOut, "waiting to retry") {
		t.Errorf("the cause line says more than the last answer:\n%s", errOut)
	}
	if strings.Contains(errOut, "OTHERKEY") || !strings.Contains(errOut, "Bearer%20sk_***") {
		t.Errorf("the key in the last answer is not masked:\n%s", errOut)
	}
}
