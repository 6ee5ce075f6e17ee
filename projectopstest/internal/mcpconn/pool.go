package mcpconn

import (
	"context"
	"sync"
	"time"
)

// Pool hands out sessions per key (the double uses user and server).
//
// As the service connects afresh for every server operation, an Acquire of
// an HTTP, SSE or in-process target dials a session of its own, closed (in the
// background) when its lease is released; only stdio sessions (a process each, which the
// hosted service never runs) are kept, one per key, reused across calls
// and closed after the idle timeout without use. Under a Scope (an eval
// run) every target's session is kept, one per key, until the scope ends.
//
// Teardown is bounded: a session whose Close hangs is abandoned after the
// close timeout (a stdio server then killed with its process group), so
// neither a release, expiry nor Pool.Close can block on a bad server.
type Pool struct {
	dialer       *Dialer
	idle         time.Duration // 0: kept sessions never expire (a scope)
	closeTimeout time.Duration
	keepAll      bool // a scope's pool: every session is kept
	// clock, when set, also measures idle time (see UseClock).
	clock func() time.Time

	ctx    context.Context // parent of every session; cancelled by Close
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	entries map[string]*entry
	once    int                // per-call sessions Dial is dialing or opened, not yet discarded
	scopes  map[*Pool]struct{} // the pools of open scopes
	closing teardowns          // teardown goroutines
}

type entry struct {
	ready    chan struct{} // closed when dialing ends
	conn     *Conn
	err      error
	inflight int
	removed  bool      // out of entries: closed once inflight drops to 0
	used     time.Time // real time
	usedAt   time.Time // on the pool's clock, when it has one
	timer    *time.Timer
}

// NewPool returns a pool dialing through d; cancelling parent breaks every
// session.
func NewPool(parent context.Context, d *Dialer, idle, closeTimeout time.Duration) *Pool {
	ctx, cancel := context.WithCancel(parent)
	return &Pool{dialer: d, idle: idle, closeTimeout: closeTimeout, ctx: ctx, cancel: cancel,
		entries: map[string]*entry{}, scopes: map[*Pool]struct{}{}}
}

// KeepAll makes p keep every target's session, one per key, reused across
// calls until the idle timeout (the double's WithPooledMCPSessions). Call
// it before p's first Acquire.
func (p *Pool) KeepAll() { p.keepAll = true }

// UseClock makes p also measure kept sessions' idle time on now, an
// injected clock: p cannot watch it, so they expire on it only when its
// owner calls ExpireIdle. Real time still expires them. Call it before p's
// first Acquire.
func (p *Pool) UseClock(now func() time.Time) { p.clock = now }

// ExpireIdle closes the kept sessions unused for the idle timeout as of
// now, a reading of p's clock (UseClock); without one, or without an idle
// timeout, it does nothing. The caller reads the clock, so a clock that
// ticks on every read is read once.
func (p *Pool) ExpireIdle(now time.Time) {
	if p.clock == nil || p.idle <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.entries {
		if !e.removed && e.inflight == 0 && e.conn != nil && now.Sub(e.usedAt) >= p.idle {
			p.removeLocked(k, e)
		}
	}
}

// Kept reports whether p keeps t's session for later calls: a stdio
// server's, or any under a scope or KeepAll.
func (p *Pool) Kept(t Target) bool { return p.keepAll || t.Transport == TransportStdio }

type scopeKey struct{}

// Scope returns a child of ctx under which p's Acquire keeps every
// session, one per key, shared by the scope's calls (an eval run's), and
// end, which closes them in the background, bounded by the close timeout.
// Stdio sessions stay p's own. end may be called more than once.
func (p *Pool) Scope(ctx context.Context) (context.Context, func()) {
	sp := NewPool(p.ctx, p.dialer, 0, p.closeTimeout)
	sp.keepAll = true
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		sp.Close()
		return ctx, func() {}
	}
	p.scopes[sp] = struct{}{}
	p.mu.Unlock()
	var once sync.Once
	end := func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if _, ok := p.scopes[sp]; !ok {
				return // p.Close closes it
			}
			delete(p.scopes, sp)
			p.closing.Add(1)
			go func() {
				defer p.closing.Done()
				sp.Close()
			}()
		})
	}
	return context.WithValue(ctx, scopeKey{}, scope{p, sp}), end
}

// scope ties a scope's pool to the pool it was opened on.
type scope struct{ parent, pool *Pool }

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

// Acquire returns a session for key: a new one, for this lease only,
// unless p keeps t's sessions (Kept), when it is the kept session for key,
// dialed when there is none. Concurrent callers for the same kept key share
// one dial.
func (p *Pool) Acquire(ctx context.Context, key string, t Target) (*Lease, error) {
	if sc, ok := ctx.Value(scopeKey{}).(scope); ok && sc.parent == p && !p.Kept(t) {
		return sc.pool.Acquire(ctx, key, t)
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if !p.Kept(t) {
		p.mu.Unlock()
		c, err := p.Dial(ctx, t)
		if err != nil {
			return nil, err
		}
		return &Lease{Conn: c, Fresh: true, p: p}, nil
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

// Release ends the lease. A session of its own is discarded (Discard: it
// closes in the background, so the caller's answer never waits on the
// server). A kept one stays for the next Acquire unless broken, which drops it from
// the pool (the next Acquire dials again); it is closed once no call uses
// it.
func (l *Lease) Release(broken bool) {
	p, e := l.p, l.e
	if e == nil {
		p.Discard(l.Conn)
		return
	}
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
	if p.clock != nil {
		e.usedAt = p.clock()
	}
	if e.inflight == 0 && p.idle > 0 {
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

// Drop removes every kept session whose key satisfies match (new
// credentials, a changed server), its scopes' too; sessions in use close
// when their calls end.
func (p *Pool) Drop(match func(key string) bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.entries {
		if match(k) {
			p.removeLocked(k, e)
		}
	}
	for sp := range p.scopes {
		sp.Drop(match)
	}
}

// Len is the number of open sessions: the kept ones (including ones being
// dialed), those of open scopes, and the per-call ones (Dial's and
// Acquire's, being dialed included) not yet discarded or released. A
// discarded session still closing in the background is not counted: its
// operation has ended.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.entries) + p.once
	for sp := range p.scopes {
		n += sp.Len()
	}
	return n
}

// reapWait bounds the wait for a stdio server's process after CloseWithin
// killed its group. A SIGKILLed process dies at once; this only bounds one
// the kernel cannot end yet (stuck in uninterruptible I/O).
const reapWait = time.Second

// CloseWithin closes c, waiting at most d. It reports whether the close
// finished; if not, c's context and its HTTP exchanges are cancelled to
// unblock it, and the closing goroutine finishes soon after. A stdio
// server still running then (one that ignores its stdin closing and
// SIGTERM) has its process group killed (outside unix, its process), and
// CloseWithin waits, at most reapWait more, for the close to reap it: once
// it returns, nothing the session started is left running (on unix: a
// wrapper's child may survive elsewhere), nor any goroutine waiting for
// it.
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
		// Waited for whether or not kill found a group left to signal: it
		// finds none once the leader is marked reaped, which is before
		// cmd.Wait returns and the close goes on.
		c.kill()
		if c.proc != nil {
			if c.reapWaiting != nil {
				c.reapWaiting()
			}
			r := time.NewTimer(reapWait)
			defer r.Stop()
			select {
			case <-done:
			case <-r.C:
			}
		}
		return false
	}
}

// Close closes every idle session, and every busy one as its call ends, and
// waits for the teardowns at most the close timeout, plus reapWait for the
// stdio servers CloseWithin killed to be reaped, plus a short grace for
// cancelled contexts to unwind. It never blocks longer than that.
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
	for sp := range p.scopes {
		delete(p.scopes, sp)
		p.closing.Add(1)
		go func() {
			defer p.closing.Done()
			sp.Close()
		}()
	}
	p.mu.Unlock()
	// Dials in progress fail at once; calls in flight on the double are
	// cancelled by its own Close.
	p.cancel()
	done := make(chan struct{})
	go func() { <-p.closing.idle(); close(done) }()
	t := time.NewTimer(p.closeTimeout + reapWait + 100*time.Millisecond)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// Discard ends a session that Dial opened: it stops counting in Len at
// once, and closes in the background, bounded by the close timeout (a
// hanging server's close is abandoned, as in CloseWithin); Close waits for
// it. Nothing waits on the server: the service's disconnect is local (its
// transport aborts its requests, sending no session DELETE), so neither
// does an answer here wait for go-sdk's DELETE.
func (p *Pool) Discard(c *Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.once--
	p.closing.Add(1)
	go func() {
		defer p.closing.Done()
		CloseWithin(c, p.closeTimeout)
	}()
}

// Dial opens a session for one call, outside the kept ones; Discard it
// when done. It counts in Len from the start of its dial (a failed dial
// stops counting when Dial returns) until Discard.
func (p *Pool) Dial(ctx context.Context, t Target) (*Conn, error) {
	p.mu.Lock()
	p.once++
	p.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(p.ctx, cancel)
	c, err := p.dialer.Dial(ctx, t)
	if err != nil {
		stop()
		cancel()
		p.mu.Lock()
		p.once--
		p.mu.Unlock()
		return nil, err
	}
	c.onClose = func() { stop(); cancel() }
	return c, nil
}

// teardowns counts teardown goroutines. Unlike a sync.WaitGroup it may be
// added to at any time, while Close waits included: a session released
// after Close began (a call Close cancelled) starts its teardown then.
type teardowns struct {
	mu   sync.Mutex
	n    int
	none chan struct{} // closed while n is 0; nil until the first Add
}

func (t *teardowns) Add(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		t.none = make(chan struct{})
	}
	t.n += n
}

func (t *teardowns) Done() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n--
	if t.n == 0 {
		close(t.none)
	}
}

// idle returns a channel closed once no teardown is running (at once when
// none is).
func (t *teardowns) idle() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		c := make(chan struct{})
		close(c)
		return c
	}
	return t.none
}
