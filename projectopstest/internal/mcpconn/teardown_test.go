package mcpconn

import (
	"context"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func hangingDialer(t *testing.T) (*Dialer, *hang) {
	h := newHang(t)
	d := testDialer()
	d.wrap = h.wrap
	return d, h
}

func TestCloseWithinAbandonsHangingClose(t *testing.T) {
	t.Parallel()
	d, h := hangingDialer(t)
	c, err := d.Dial(t.Context(), inproc())
	if err != nil {
		t.Fatal(err)
	}
	echo(t, c)
	h.arm()
	if CloseWithin(c, 20*time.Millisecond) {
		t.Fatal("CloseWithin reported a hanging close as finished")
	}
	eventually(t, "the close to block", func() bool { return h.blockedN() == 1 })
	h.unblock()
}

func TestCloseWithinFinishes(t *testing.T) {
	t.Parallel()
	c, err := testDialer().Dial(t.Context(), inproc())
	if err != nil {
		t.Fatal(err)
	}
	if !CloseWithin(c, 5*time.Second) {
		t.Fatal("CloseWithin gave up on a healthy session")
	}
	if err := c.Session.Ping(t.Context(), nil); err == nil {
		t.Fatal("session answers after CloseWithin")
	}
	c.Close() // idempotent, returns at once
}

// TestPoolCloseBoundedByHangingSession: a session whose Close never
// returns must not hold Pool.Close past the close timeout and its grace.
func TestPoolCloseBoundedByHangingSession(t *testing.T) {
	t.Parallel()
	d, h := hangingDialer(t)
	const closeTimeout = 30 * time.Millisecond
	p := NewPool(context.Background(), d, time.Minute, closeTimeout)
	p.keepAll = true // a kept session (stdio's in the double)
	l, err := p.Acquire(t.Context(), "a", inproc())
	if err != nil {
		t.Fatal(err)
	}
	echo(t, l.Conn)
	l.Release(false)
	h.arm()
	done := make(chan struct{})
	go func() { p.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Pool.Close blocked on a hanging session")
	}
	eventually(t, "the close to block", func() bool { return h.blockedN() == 1 })
	h.unblock()
}

// TestPoolExpiryWithHangingClose: an idle session whose Close hangs still
// leaves the pool.
func TestPoolExpiryWithHangingClose(t *testing.T) {
	t.Parallel()
	d, h := hangingDialer(t)
	p := NewPool(context.Background(), d, 10*time.Millisecond, 20*time.Millisecond)
	p.keepAll = true // a kept session (stdio's in the double)
	defer p.Close()
	l, err := p.Acquire(t.Context(), "a", inproc())
	if err != nil {
		t.Fatal(err)
	}
	h.arm()
	l.Release(false)
	eventually(t, "expiry", func() bool { return p.Len() == 0 && h.blockedN() == 1 })
	l, err = p.Acquire(t.Context(), "a", inproc())
	if err != nil {
		t.Fatal(err)
	}
	if !l.Fresh {
		t.Fatal("reused an expired session")
	}
	l.Release(true)
	h.unblock()
}

// TestReleaseBoundedByHangingClose: the release of a per-call session,
// which closes it before the request ends, gives up on a hanging close
// after the close timeout.
func TestReleaseBoundedByHangingClose(t *testing.T) {
	t.Parallel()
	d, h := hangingDialer(t)
	const closeTimeout = 30 * time.Millisecond
	p := NewPool(context.Background(), d, time.Minute, closeTimeout)
	defer p.Close()
	l, err := p.Acquire(t.Context(), "a", inproc())
	if err != nil {
		t.Fatal(err)
	}
	echo(t, l.Conn)
	h.arm()
	released := make(chan struct{})
	go func() { l.Release(false); close(released) }()
	select {
	case <-released:
	case <-time.After(time.Minute): // a failure guard: the close hangs until h.unblock
		t.Fatal("Release still waiting on a hanging close after a minute")
	}
	if n := p.Len(); n != 0 {
		t.Fatalf("Len = %d after Release", n)
	}
	eventually(t, "the close to block", func() bool { return h.blockedN() == 1 })
	h.unblock()
}

// Once a stdio peer's leader is marked reaped, kill finds no group left to
// signal, but the close may still be running (cmd.Wait returning, the
// rest of Close): CloseWithin waits for it all the same, so no goroutine
// waiting for the session is left when it returns. The close here blocks
// until CloseWithin has started that wait.
func TestCloseWithinWaitsForACloseWhoseProcessWasReaped(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var releaseOnce sync.Once
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) }) // a close left blocked would leak
	var ended atomic.Bool
	c := &Conn{cancel: func() {}, proc: &procGroup{cmd: &exec.Cmd{}, reaped: true}}
	c.onClose = func() {
		<-release
		ended.Store(true)
	}
	c.reapWaiting = func() { releaseOnce.Do(func() { close(release) }) }
	if CloseWithin(c, time.Millisecond) {
		t.Fatal("CloseWithin reported a blocked close as finished")
	}
	if !ended.Load() {
		t.Error("CloseWithin returned while the close was still running")
	}
}
