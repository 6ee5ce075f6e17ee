package mcpconn

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newTestPool returns a pool that keeps every session, as a scope's does:
// the kept sessions' machinery (stdio's in the double), exercised with
// cheap in-process servers.
func newTestPool(t *testing.T, d *Dialer, idle time.Duration) *Pool {
	t.Helper()
	p := NewPool(context.Background(), d, idle, time.Second)
	p.keepAll = true
	t.Cleanup(p.Close)
	return p
}

func acquire(t *testing.T, p *Pool, key string) *Lease {
	t.Helper()
	l, err := p.Acquire(t.Context(), key, inproc())
	if err != nil {
		t.Fatalf("Acquire(%q): %v", key, err)
	}
	return l
}

// closedEventually waits until c's session no longer answers.
func closedEventually(t *testing.T, c *Conn) {
	t.Helper()
	eventually(t, "session close", func() bool { return c.Session.Ping(t.Context(), nil) != nil })
}

func TestPoolReusesSessionPerKey(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, testDialer(), time.Minute)
	l1 := acquire(t, p, "a")
	l1.Release(false)
	l2 := acquire(t, p, "a")
	defer l2.Release(false)
	if !l1.Fresh || l2.Fresh {
		t.Fatalf("Fresh = %v, %v; want true, false", l1.Fresh, l2.Fresh)
	}
	if l1.Conn != l2.Conn {
		t.Fatal("second Acquire dialed a new session")
	}
	echo(t, l2.Conn)
	lb := acquire(t, p, "b")
	defer lb.Release(false)
	if lb.Conn == l2.Conn || !lb.Fresh {
		t.Fatal("another key shared the session")
	}
	if n := p.Len(); n != 2 {
		t.Fatalf("Len = %d, want 2", n)
	}
}

func TestPoolConcurrentCallersShareOneDial(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, testDialer(), time.Minute)
	const n = 8
	leases := make([]*Lease, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			l, err := p.Acquire(t.Context(), "k", inproc())
			if err != nil {
				t.Errorf("Acquire: %v", err)
				return
			}
			echo(t, l.Conn)
			leases[i] = l
		})
	}
	wg.Wait()
	fresh := 0
	for _, l := range leases {
		if l == nil {
			t.FailNow()
		}
		if l.Fresh {
			fresh++
		}
		if l.Conn != leases[0].Conn {
			t.Fatal("concurrent callers got different sessions")
		}
		l.Release(false)
	}
	if fresh != 1 || p.Len() != 1 {
		t.Fatalf("fresh = %d, Len = %d; want 1, 1", fresh, p.Len())
	}
}

func TestPoolBrokenReleaseDropsSession(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, testDialer(), time.Minute)
	l1 := acquire(t, p, "a")
	l2 := acquire(t, p, "a")
	old := l1.Conn
	l1.Release(true)
	if n := p.Len(); n != 0 {
		t.Fatalf("Len after broken release = %d, want 0", n)
	}
	echo(t, l2.Conn) // still in use: not closed under the other call
	l2.Release(false)
	closedEventually(t, old)
	if n := p.Len(); n != 0 {
		t.Fatalf("a release of a dropped session re-pooled it: Len = %d", n)
	}
	l3 := acquire(t, p, "a")
	defer l3.Release(false)
	if !l3.Fresh || l3.Conn == old {
		t.Fatal("Acquire after a broken release reused the dropped session")
	}
	echo(t, l3.Conn)
}

func TestPoolIdleExpiry(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, testDialer(), 20*time.Millisecond)
	busy := acquire(t, p, "busy")
	defer busy.Release(false)
	idle := acquire(t, p, "idle")
	idle.Release(false)
	eventually(t, "idle expiry", func() bool { return p.Len() == 1 })
	closedEventually(t, idle.Conn)
	// The busy session outlived an idle timeout that closed the other one.
	echo(t, busy.Conn)
	l := acquire(t, p, "idle")
	defer l.Release(false)
	if !l.Fresh {
		t.Fatal("Acquire after expiry reused the expired session")
	}
}

func TestPoolDrop(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, testDialer(), time.Minute)
	a, b, c := acquire(t, p, "u1\x00s1"), acquire(t, p, "u2\x00s1"), acquire(t, p, "u1\x00s2")
	b.Release(false)
	c.Release(false)
	p.Drop(func(k string) bool { return strings.HasSuffix(k, "\x00s1") })
	if n := p.Len(); n != 1 {
		t.Fatalf("Len after Drop = %d, want 1", n)
	}
	closedEventually(t, b.Conn)
	echo(t, a.Conn) // in use: closes when its call ends
	a.Release(false)
	closedEventually(t, a.Conn)
	echo(t, c.Conn)
}

func TestPoolCloseClosesSessionsAndRefusesAcquire(t *testing.T) {
	t.Parallel()
	p := NewPool(context.Background(), testDialer(), time.Minute, time.Second)
	p.keepAll = true
	l := acquire(t, p, "a")
	l.Release(false)
	p.Close()
	if err := l.Conn.Session.Ping(t.Context(), nil); err == nil {
		t.Fatal("session still answers after Pool.Close")
	}
	_, err := p.Acquire(t.Context(), "a", inproc())
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("Acquire after Close: %v, want ErrClosed", err)
	}
	if n := p.Len(); n != 0 {
		t.Fatalf("Len after Close = %d", n)
	}
	p.Close() // idempotent
}

// slowTransport holds Connect until gate is closed.
type slowTransport struct {
	mcp.Transport
	gate chan struct{}
}

func (s *slowTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	<-s.gate
	return s.Transport.Connect(ctx)
}

func TestPoolWaiterLeavesOnCancel(t *testing.T) {
	t.Parallel()
	gate := make(chan struct{})
	d := testDialer()
	d.wrap = func(tr mcp.Transport) mcp.Transport { return &slowTransport{tr, gate} }
	p := newTestPool(t, d, time.Minute)
	first := make(chan *Lease)
	go func() {
		l, err := p.Acquire(context.Background(), "a", inproc())
		if err != nil {
			t.Errorf("Acquire: %v", err)
		}
		first <- l
	}()
	eventually(t, "dial start", func() bool { return p.Len() == 1 })
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.Acquire(ctx, "a", inproc()); !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting Acquire with a cancelled context: %v", err)
	}
	close(gate)
	l := <-first
	if l == nil {
		t.FailNow()
	}
	echo(t, l.Conn)
	l.Release(false)
	if n := p.Len(); n != 1 {
		t.Fatalf("Len = %d, want 1", n)
	}
}
