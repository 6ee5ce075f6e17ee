package projectopstest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/environments"
)

// untilWaiting returns true once a POST wait's handler on s is blocked in
// its wait, so that what the test does next happens while a wait is
// pending, or false once answered is closed: the wait was answered without
// waiting. It reads s's own count of waits, never another server's.
func untilWaiting(t *testing.T, s *Server, answered <-chan struct{}) bool {
	t.Helper()
	for s.controlWaiters.Load() == 0 {
		select {
		case <-answered:
			return false
		case <-time.After(time.Millisecond):
		}
	}
	return true
}

// A POST wait pending as Close begins is answered 503 in the envelope at
// once: Close does not hold it (and itself) for all of ShutdownGrace, after
// which the client would have read a dropped connection instead.
func TestControlWaitEndsWhenCloseBegins(t *testing.T) {
	t.Parallel()
	s, err := NewServer(WithControlAPI())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Start(); err != nil {
		t.Fatal(err)
	}
	s.goBackground(func(ctx context.Context) { <-ctx.Done() }) // ends only once Close cancels it
	type answer struct {
		status int
		body   []byte
		err    error
	}
	got := make(chan answer, 1)
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		resp, err := http.Post(s.ControlURL()+"/wait", "application/json", nil)
		if err != nil {
			got <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- answer{resp.StatusCode, b, err}
	}()
	if !untilWaiting(t, s, answered) {
		t.Fatalf("POST wait was answered before Close, with work pending: %+v", <-got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	a := <-got
	if a.err != nil {
		t.Fatalf("POST wait pending as Close began: %v, want its 503 (Close held it for the grace and dropped it)", a.err)
	}
	var env struct{ Code, Message string }
	if err := json.Unmarshal(a.body, &env); err != nil || a.status != http.StatusServiceUnavailable ||
		env.Code != "INTERNAL_ERROR" || !strings.Contains(env.Message, "the double is closing") {
		t.Fatalf("POST wait as Close began = %d %s, want 503 saying the double is closing", a.status, a.body)
	}
}

// A POST wait whose client leaves returns at once: its handler does not
// stay blocked until the background work ends.
func TestControlWaitEndsWhenClientLeaves(t *testing.T) {
	t.Parallel()
	s := NewTestServer(t, WithControlAPI())
	release := make(chan struct{})
	defer close(release)
	s.goBackground(func(ctx context.Context) {
		select {
		case <-ctx.Done():
		case <-release:
		}
	})
	ctx, cancel := context.WithCancel(t.Context())
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, s.ControlURL()+"/wait", nil)
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Handler().ServeHTTP(rec, req)
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(time.Minute): // a safety net: the handler returns at once
		t.Fatal("the handler of a POST wait whose client left is still blocked in the wait")
	}
	// The double is not closing: no answer says it is.
	if rec.Body.Len() != 0 || rec.Code != http.StatusOK {
		t.Fatalf("POST wait whose client left wrote %d %s, want nothing written", rec.Code, rec.Body)
	}
}

// holdWait sends a POST wait to a server of its own and returns once it
// is pending; it stays pending until the test ends.
func holdWait(t *testing.T) {
	t.Helper()
	s := NewTestServer(t, WithControlAPI())
	release := make(chan struct{})
	s.goBackground(func(ctx context.Context) {
		select {
		case <-ctx.Done():
		case <-release:
		}
	})
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		if resp, err := s.Client().Post(s.ControlURL()+"/wait", "application/json", nil); err == nil {
			resp.Body.Close()
		}
	}()
	if !untilWaiting(t, s, answered) {
		t.Fatal("the other server's POST wait was answered with its work pending")
	}
	t.Cleanup(func() { close(release); <-answered })
}

// Another server's pending POST wait (another test's, run in parallel or
// in another -count round) does not count as this server's: the wait
// tests' signal is scoped to their own server, or Close could begin
// before their wait is there and they would read 204 or a refused
// connection.
func TestControlWaitEndsWhenCloseBeginsBesideAnotherWait(t *testing.T) {
	holdWait(t)
	for range 20 {
		t.Run("close", TestControlWaitEndsWhenCloseBegins)
	}
}

// A wait whose work is already done is done even once Close has begun or
// its client has gone: waitUntil does not pick at random among what is
// ready.
func TestWaitUntilPrefersDone(t *testing.T) {
	t.Parallel()
	s := NewTestServer(t)
	gone := make(chan struct{})
	close(gone)
	for i := range 200 {
		if !s.waitUntil(gone, gone) {
			t.Fatalf("round %d: no work pending, client gone and Close begun: waitUntil reported the work not done", i)
		}
	}
}

// POST wait answers only once the background work is done: a build held
// by its hook is finished (its environment ready) when the 204 arrives.
func TestControlWaitBlocksUntilWorkDone(t *testing.T) {
	t.Parallel()
	held := make(chan struct{})
	release := make(chan struct{})
	hook := func(ctx context.Context, step BuildStep) error {
		if step.Index == 0 {
			close(held)
			select {
			case <-release:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	s := NewTestServer(t, WithControlAPI(), WithBuildHook(hook))
	c, err := s.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	p := s.Default().ProjectID
	env, err := c.Environments.Create(t.Context(), p, environments.CreateParams{Name: "e",
		Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN true\n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Environments.Build(t.Context(), p, env.ID); err != nil {
		t.Fatal(err)
	}
	<-held
	got := make(chan int, 1)
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		resp, err := s.Client().Post(s.ControlURL()+"/wait", "application/json", nil)
		if err != nil {
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	if !untilWaiting(t, s, answered) {
		t.Fatalf("POST wait answered %d while the build was held", <-got)
	}
	close(release)
	if status := <-got; status != http.StatusNoContent {
		t.Fatalf("POST wait = %d, want 204", status)
	}
	e, err := c.Environments.Get(t.Context(), p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e.CurrentBuild == nil || e.CurrentBuild.Status != environments.BuildReady {
		t.Fatalf("after POST wait the build is %+v, want it finished (ready)", e.CurrentBuild)
	}
}
