package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// Ctrl-C while the service has not answered is said as an interrupt, not
// as the bare "context canceled" the request returns; eval run, whose
// request may already have started a run that goes on (and costs), says
// so and how to cancel it, as env build does for a build.
func TestInterruptBeforeAnswerSaysInterrupted(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"eval", "run", "--suite", "evs_smoke", "--wait"},
			[]string{"projectops eval run: interrupted before the service answered; a run of suite evs_smoke may have started",
				"projectops eval run --base-url BASE --project prj_demo --suite evs_smoke --idempotency-key projectops-cli-",
				"projectops eval cancel --base-url BASE --project prj_demo RUN_ID"}},
		{[]string{"eval", "run", "--suite", "evs_smoke", "--server", "srv demo", "--idempotency-key", "k1"},
			[]string{"interrupted before the service answered", "may have started",
				"projectops eval run --base-url BASE --project prj_demo --suite evs_smoke --server 'srv demo' --idempotency-key k1 "}},
		// The run's id is known: following it again is said, not sending
		// the request again. No poll has seen the run: it is not said to
		// go on (the id may be a typo, the run may have ended).
		{[]string{"eval", "status", "run_1", "--wait"},
			[]string{"projectops eval status: stopped waiting for run run_1 before a poll saw the run (" +
				"follow it again with: projectops eval status --base-url BASE --project prj_demo --wait run_1; " +
				"cancel it with: projectops eval cancel --base-url BASE --project prj_demo run_1)\n"}},
		{[]string{"export", "--server", "srv_demo"}, []string{"projectops export: interrupted\n"}},
		{[]string{"tools", "list", "--server", "srv_demo"}, []string{"projectops tools list: interrupted\n"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			// A server of its own: a subtest that fails leaves no
			// request behind for the next one to take as its own.
			arrived := make(chan struct{}, 1)
			hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// The body read to its end: only then does net/http's server watch
				// the connection, and end r's context when the client closes it
				// (which the client does when it gives up on the request).
				_, _ = io.Copy(io.Discard, r.Body)
				arrived <- struct{}{}
				<-r.Context().Done() // never answers
			}))
			defer hang.Close() // returns once the CLI closed its connections
			t.Setenv("PROJECTOPS_BASE_URL", hang.URL+"/api/v1")
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			go func() { // Ctrl-C once the request is in
				select {
				case <-arrived:
					cancel()
				case <-ctx.Done():
				}
			}()
			var o, e bytes.Buffer
			if code := run(ctx, tc.args, &o, &e); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			for _, w := range tc.want {
				// BASE: the printed commands name the service asked.
				if w = strings.ReplaceAll(w, "BASE", hang.URL+"/api/v1"); !strings.Contains(e.String(), w) {
					t.Errorf("stderr does not say %q: %q", w, e.String())
				}
			}
			if strings.Contains(e.String(), "context canceled") {
				t.Errorf("stderr says the bare %q", e.String())
			}
		})
	}
}

// The key an interrupted eval run prints finds the run the request
// started: sent again with it, the command answers with that run.
func TestEvalRunResendWithKeyFindsTheRun(t *testing.T) {
	demoAPI(t)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	var ids []string
	for range 2 {
		code, out, errOut := runCLI(t, "--json", "eval", "run", "--suite", "evs_smoke", "--idempotency-key", "k-resend")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rc struct {
			RunID string `json:"runId"`
		}
		if err := json.Unmarshal([]byte(out), &rc); err != nil || rc.RunID == "" {
			t.Fatalf("%q: %v", out, err)
		}
		ids = append(ids, rc.RunID)
	}
	if ids[0] != ids[1] {
		t.Errorf("the same key started two runs: %v", ids)
	}
}

// A service's answer is said as it is when an interrupt comes only after
// it arrived: it is not replaced by "interrupted ... may have started"
// (the answer says no run started). And a timeout is no interrupt.
func TestAnswerBeforeInterruptIsKept(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"code":"VALIDATION_ERROR","message":"no such suite"}}`)
	}))
	defer refuse.Close()
	t.Setenv("PROJECTOPS_BASE_URL", refuse.URL+"/api/v1")
	for _, args := range [][]string{
		{"-v", "eval", "run", "--suite", "evs_smoke"},
		{"-v", "env", "build", "env_1"},
	} {
		ctx, cancel := context.WithCancel(t.Context())
		// -v logs the answer as it arrives: Ctrl-C then, after the
		// answer and before the command said it.
		e := &cancelOnWrite{cancel: cancel, after: "400"}
		var o bytes.Buffer
		code := run(ctx, args, &o, e)
		cancel()
		if code != 2 || strings.Contains(e.String(), "interrupted") || !strings.Contains(e.String(), ": 400 ") {
			t.Errorf("%v: exit %d, stderr %q; want the service's answer, not an interrupt", args, code, e.String())
		}
	}
}

// cancelOnWrite is a stderr that calls cancel once a write holds after.
type cancelOnWrite struct {
	bytes.Buffer
	cancel func()
	after  string
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.after) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// A request cut short by a deadline, not by Ctrl-C, is not said as an
// interrupt that may have started a run or a build.
func TestTimeoutIsNoInterrupt(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done() // never answers
	}))
	defer hang.Close()
	t.Setenv("PROJECTOPS_BASE_URL", hang.URL+"/api/v1")
	for _, args := range [][]string{{"eval", "run", "--suite", "evs_smoke"}, {"env", "build", "env_1"}} {
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		var o, e bytes.Buffer
		code := run(ctx, args, &o, &e)
		cancel()
		if code != 2 || strings.Contains(e.String(), "interrupted") {
			t.Errorf("%v: exit %d, stderr %q; want an error that is no interrupt", args, code, e.String())
		}
	}
}

// TestInterruptedText: the SDK's name of a cancelled call is dropped (the
// command line says what was asked); other context is kept.
func TestInterruptedText(t *testing.T) {
	t.Parallel()
	for msg, want := range map[string]string{
		"context canceled": "interrupted",
		"POST /projects/prj_1/servers/srv_1/tools: context canceled": "interrupted",
		"waiting for run run_1: context canceled":                    "interrupted: waiting for run run_1",
	} {
		if got := interruptedText(msg); got != want {
			t.Errorf("interruptedText(%q) = %q, want %q", msg, got, want)
		}
	}
}
