package mcpconn

import (
	"context"
	"os"
	"testing"
	"time"
)

// An HTTP, SSE or in-process target gets a session of its own per
// Acquire, closed by Release, as the service connects afresh for every
// server operation.
func TestPoolPerCallSessions(t *testing.T) {
	t.Parallel()
	p := NewPool(context.Background(), testDialer(), time.Minute, time.Second)
	t.Cleanup(p.Close)
	for _, tg := range []Target{inproc(), {Transport: TransportHTTP, URL: httpServer(t, false).URL}, {Transport: TransportSSE, URL: httpServer(t, true).URL}} {
		l1, err := p.Acquire(t.Context(), "k", tg)
		if err != nil {
			t.Fatalf("%s: %v", tg.Transport, err)
		}
		if n := p.Len(); n != 1 {
			t.Errorf("%s: Len during the call = %d, want 1", tg.Transport, n)
		}
		l2, err := p.Acquire(t.Context(), "k", tg)
		if err != nil {
			t.Fatalf("%s: %v", tg.Transport, err)
		}
		if l1.Conn == l2.Conn || !l1.Fresh || !l2.Fresh {
			t.Errorf("%s: two Acquires shared a session", tg.Transport)
		}
		echo(t, l1.Conn)
		l1.Release(false)
		l2.Release(false)
		// Len drops at Release; the session itself closes in the
		// background (Release never waits on the server).
		if n := p.Len(); n != 0 {
			t.Errorf("%s: Len after Release = %d, want 0", tg.Transport, n)
		}
		_ = l1.Conn.Session.Wait() // returns once the background close has ended the session
		if err := l1.Conn.Session.Ping(t.Context(), nil); err == nil {
			t.Errorf("%s: session still answers after Release", tg.Transport)
		}
	}
}

// A stdio target's session is kept for the next call, scope or not.
func TestPoolKeepsStdioSessions(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tg := Target{Transport: TransportStdio, Command: exe, Env: []string{stdioEnv + "=1"}}
	p := NewPool(context.Background(), testDialer(), time.Minute, time.Second)
	t.Cleanup(p.Close)
	l1, err := p.Acquire(t.Context(), "k", tg)
	if err != nil {
		t.Fatal(err)
	}
	l1.Release(false)
	ctx, end := p.Scope(t.Context())
	l2, err := p.Acquire(ctx, "k", tg)
	if err != nil {
		t.Fatal(err)
	}
	l2.Release(false)
	end()
	if l1.Conn != l2.Conn || l2.Fresh {
		t.Fatal("a stdio session was not kept")
	}
	echo(t, l2.Conn)
	if n := p.Len(); n != 1 {
		t.Fatalf("Len = %d, want 1", n)
	}
}

// Under a scope (an eval run), every call for a key shares one session,
// closed when the scope ends; other scopes and calls outside get their own.
func TestPoolScopeSharesSessionUntilEnd(t *testing.T) {
	t.Parallel()
	p := NewPool(context.Background(), testDialer(), time.Minute, time.Second)
	t.Cleanup(p.Close)
	tg := inproc()
	ctx, end := p.Scope(t.Context())
	a, err := p.Acquire(ctx, "k", tg)
	if err != nil {
		t.Fatal(err)
	}
	a.Release(false)
	b, err := p.Acquire(ctx, "k", tg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Conn != b.Conn || b.Fresh {
		t.Fatal("a scope's second call dialed anew")
	}
	other, end2 := p.Scope(t.Context())
	c, err := p.Acquire(other, "k", tg)
	if err != nil {
		t.Fatal(err)
	}
	if c.Conn == a.Conn {
		t.Fatal("two scopes shared a session")
	}
	if n := p.Len(); n != 2 {
		t.Errorf("Len = %d, want 2 (one per scope)", n)
	}
	b.Release(false)
	end()
	end() // idempotent
	closedEventually(t, a.Conn)
	echo(t, c.Conn)
	c.Release(false)
	if n := p.Len(); n != 1 {
		t.Errorf("Len after the first scope ended = %d, want 1", n)
	}
	// Pool.Close ends a scope still open.
	p.Close()
	closedEventually(t, c.Conn)
	end2()
	if n := p.Len(); n != 0 {
		t.Errorf("Len after Close = %d", n)
	}
}

// Drop reaches the sessions of open scopes too (new credentials, a
// changed server).
func TestPoolDropReachesScopes(t *testing.T) {
	t.Parallel()
	p := NewPool(context.Background(), testDialer(), time.Minute, time.Second)
	t.Cleanup(p.Close)
	ctx, end := p.Scope(t.Context())
	defer end()
	a, err := p.Acquire(ctx, "k", inproc())
	if err != nil {
		t.Fatal(err)
	}
	a.Release(false)
	p.Drop(func(k string) bool { return k == "k" })
	closedEventually(t, a.Conn)
	b, err := p.Acquire(ctx, "k", inproc())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release(false)
	if b.Conn == a.Conn || !b.Fresh {
		t.Fatal("a dropped scope session was reused")
	}
}
