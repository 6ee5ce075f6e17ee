package mcpconn

import (
	"context"
	"sync"
	"time"
)

// Pool keeps one session per key (the double uses user and server), reused
// across calls and closed after the idle timeout without use. Teardown is
// bounded: a session whose Close hangs is abandoned after the close
// timeout, so neither expiry nor Pool.Close can block on a bad server.
type Pool struct {
	dialer       *Dialer
	idle         time.Duration
	closeTimeout time.Duration

	ctx    context.Context // parent of every session; cancelled by Close
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	entries map[string]*entry
	closing sync.WaitGroup // teardown goroutines
}

type entry struct {
	ready    chan struct{} // closed when dialing ends
	conn     *Conn
	err      error
	inflight int
	removed  bool // out of entries: closed once inflight drops to 0
	used     time.Time
	timer    *time.Timer
}

// NewPool returns a pool dialing through d; cancelling parent breaks every
// session.
func NewPool(parent context.Context, d *Dialer, idle, closeTimeout time.Duration) *Pool {
	ctx, cancel := context.WithCancel(parent)
	return &Pool{dialer: d, idle: idle, closeTimeout: closeTimeout, ctx: ctx, cancel: cancel, entries: map[string]*entry{}}
}

// ErrClosed is returned once the pool is closed.
var ErrClosed = &Failure{Kind: Unreachable, Message: "The service is shutting down"}

// Lease is a session handed out by Acquire; Release it after the call.
type Lease struct {
	Conn *Conn
	// Fresh reports whether this Acquire dialed the session.
	Fresh bool
	p     *Pool
	e     *entry
	key   string
}

// Acquire returns the pooled session for key, dialing t when there is none.
// Concurrent callers for the same key share one dial.
func (p *Pool) Acquire(ctx context.Context, key string, t Target) (*Lease, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	e := p.entries[key]
	if e != nil && e.conn != nil && e.conn.Dead() {
		// Its reading failed since its last call (the server exited after
		// answering): a call on it would be refused unsent. Dial anew.
		p.removeLocked(key, e)
		e = nil
	}
	fresh := e == nil
	if fresh {
		e = &entry{ready: make(chan struct{}), inflight: 1} // the dial's own reference
		p.entries[key] = e
		p.closing.Add(1)
		go p.dial(key, e, t)
	}
	e.inflight++
	p.mu.Unlock()
	l := &Lease{Fresh: fresh, p: p, e: e, key: key}

	// Every caller, the one that started the dial included, waits for it
	// only as long as its own context: the dial goes on for the callers
	// still waiting, and a session that arrives for nobody is pooled.
	select {
	case <-e.ready:
	case <-ctx.Done():
		l.Release(false)
		return nil, ctx.Err()
	}
	if e.err != nil {
		l.Release(true)
		return nil, e.err
	}
	l.Conn = e.conn
	return l, nil
}

// dial connects e's session on the pool's context (bounded by the dialer's
// connect timeout and by Close) and drops the dial's reference to e.
func (p *Pool) dial(key string, e *entry, t Target) {
	defer p.closing.Done()
	conn, err := p.dialer.Dial(p.ctx, t)
	p.mu.Lock()
	e.conn, e.err = conn, err
	close(e.ready)
	p.mu.Unlock()
	(&Lease{p: p, e: e, key: key}).Release(err != nil)
}

// Release ends the lease. broken drops the session from the pool (the next
// Acquire dials again); it is closed once no call uses it.
func (l *Lease) Release(broken bool) {
	p, e := l.p, l.e
	p.mu.Lock()
	defer p.mu.Unlock()
	e.inflight--
	if broken {
		p.removeLocked(l.key, e)
	}
	if e.removed {
		p.closeIfIdleLocked(e)
		return
	}
	e.used = time.Now()
	if e.inflight == 0 {
		if e.timer == nil {
			e.timer = time.AfterFunc(p.idle, func() { p.expire(l.key, e) })
		} else {
			e.timer.Reset(p.idle)
		}
	}
}

// removeLocked takes e out of the pool; its session closes when unused.
func (p *Pool) removeLocked(key string, e *entry) {
	if !e.removed {
		e.removed = true
		if p.entries[key] == e {
			delete(p.entries, key)
		}
		if e.timer != nil {
			e.timer.Stop()
		}
	}
	p.closeIfIdleLocked(e)
}

func (p *Pool) closeIfIdleLocked(e *entry) {
	if e.inflight == 0 && e.conn != nil {
		c := e.conn
		e.conn = nil
		p.closing.Add(1)
		go func() {
			defer p.closing.Done()
			CloseWithin(c, p.closeTimeout)
		}()
	}
}

// expire closes e if it is still idle.
func (p *Pool) expire(key string, e *entry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.removed || e.inflight > 0 || time.Since(e.used) < p.idle {
		return
	}
	p.removeLocked(key, e)
}

// Drop removes every session whose key satisfies match (new credentials,
// a changed server); sessions in use close when their calls end.
func (p *Pool) Drop(match func(key string) bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.entries {
		if match(k) {
			p.removeLocked(k, e)
		}
	}
}

// Len is the number of pooled sessions (including ones being dialed).
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.entries)
}

// CloseWithin closes c, waiting at most d. It reports whether the close
// finished; if not, c's context and its HTTP exchanges are cancelled to
// unblock it, and the closing goroutine finishes soon after.
func CloseWithin(c *Conn, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		c.Close()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		c.cancel()
		if c.abortNow != nil {
			c.abortNow() // go-sdk's session DELETE too
		}
		return false
	}
}

// Close closes every idle session, and every busy one as its call ends, and
// waits for the teardowns at most the close timeout (plus a short grace for
// cancelled contexts to unwind). It never blocks longer than that.
func (p *Pool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	for k, e := range p.entries {
		p.removeLocked(k, e)
	}
	p.mu.Unlock()
	// Dials in progress fail at once; calls in flight on the double are
	// cancelled by its own Close.
	p.cancel()
	done := make(chan struct{})
	go func() { p.closing.Wait(); close(done) }()
	t := time.NewTimer(p.closeTimeout + 100*time.Millisecond)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// Discard closes a session that was dialed outside the pool (a one-off
// diagnostic connection) in the background, bounded like pooled ones.
func (p *Pool) Discard(c *Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closing.Add(1)
	go func() {
		defer p.closing.Done()
		CloseWithin(c, p.closeTimeout)
	}()
}

// Dial opens a session outside the pool; Discard it when done.
func (p *Pool) Dial(ctx context.Context, t Target) (*Conn, error) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(p.ctx, cancel)
	c, err := p.dialer.Dial(ctx, t)
	if err != nil {
		stop()
		cancel()
		return nil, err
	}
	c.onClose = func() { stop(); cancel() }
	return c, nil
}
