package inproc

import (
	"context"
	"sync"
	"sync/atomic"
)

// handlerCtx is an ordinary route's handler context: the request's context,
// also cancelled when the server closes, and cancelled once the handler has
// returned. The cancel context and the AfterFunc on the server's context
// this takes are built by the first call that needs them (Done, directly or
// through a context derived from this one): most handlers never make one,
// and building them was a tenth of an in-process call. Until then Err reads
// both parents.
//
// It keeps the context contract as the built form would: the first error
// Err returns is the one it always returns, Done is closed once Err has
// returned one, and context.Cause reads the request's cause only when the
// request's own end is what ended this context.
type handlerCtx struct {
	context.Context // the request's
	host            context.Context

	mu       sync.Mutex // serialises building and releasing
	built    atomic.Pointer[mergedCtx]
	released atomic.Bool
	err      atomic.Pointer[error] // the first error Err returned
	// ownEnd: ended by the server or by release rather than by the
	// request, so the request's cancellation (and its cause) stays hidden.
	ownEnd atomic.Bool
}

// mergedCtx is the built form: a child of the request's context that the
// server's closing cancels too.
type mergedCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
	stop   func() bool // unregisters the cancel from the server's context
}

// closedChan is Done's answer once the handler has returned without ever
// asking.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// merged builds the merged context on first use; nil once released without
// it.
func (c *handlerCtx) merged() *mergedCtx {
	if m := c.built.Load(); m != nil {
		return m
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := c.built.Load(); m != nil || c.released.Load() {
		return m
	}
	parent := c.Context
	if c.ownEnd.Load() {
		// Ended by the server or the handler's return, as Err has said:
		// the request's own end, later, must not show through.
		parent = context.WithoutCancel(parent)
	}
	ctx, cancel := context.WithCancel(parent)
	m := &mergedCtx{ctx: ctx, cancel: cancel, stop: context.AfterFunc(c.host, cancel)}
	if c.host.Err() != nil || c.ownEnd.Load() {
		// Ended already: the AfterFunc cancels on another goroutine, and
		// Done must not be open once Err has said otherwise.
		cancel()
	}
	c.built.Store(m)
	return m
}

// Done implements context.Context.
func (c *handlerCtx) Done() <-chan struct{} {
	if m := c.merged(); m != nil {
		return m.ctx.Done()
	}
	return closedChan
}

// Err implements context.Context.
func (c *handlerCtx) Err() error {
	if p := c.err.Load(); p != nil {
		return *p
	}
	var err error
	if m := c.built.Load(); m != nil {
		err = m.ctx.Err()
	} else if err = c.Context.Err(); err == nil && (c.released.Load() || c.host.Err() != nil) {
		c.ownEnd.Store(true)
		err = context.Canceled
	}
	if err == nil {
		return nil
	}
	c.err.CompareAndSwap(nil, errPointer(err))
	return *c.err.Load()
}

// The errors a context ends with nearly always, boxed once: latching one
// costs no allocation per request.
var (
	canceled error = context.Canceled
	deadline error = context.DeadlineExceeded
)

// errPointer boxes err for the latch.
func errPointer(err error) *error {
	switch err {
	case context.Canceled:
		return &canceled
	case context.DeadlineExceeded:
		return &deadline
	}
	return boxed(err)
}

// boxed is the allocation errPointer spares the common errors (apart, so
// that errPointer's own argument does not escape).
func boxed(err error) *error { return &err }

// Value implements context.Context. Once built, values come from the merged
// context, so a context derived from this one finds its cancellation and
// joins it directly (no goroutine). Before that they come from the
// request's, except that a context this one's own end ended no longer shows
// the request's cancellation (context.Cause finds it through Value).
func (c *handlerCtx) Value(key any) any {
	if m := c.built.Load(); m != nil {
		return m.ctx.Value(key)
	}
	if c.ownEnd.Load() {
		return context.WithoutCancel(c.Context).Value(key)
	}
	return c.Context.Value(key)
}

// release cancels the context once the handler has returned.
func (c *handlerCtx) release() {
	c.mu.Lock()
	c.released.Store(true)
	m := c.built.Load()
	c.mu.Unlock()
	if m != nil {
		m.stop()
		m.cancel()
		return
	}
	_ = c.Err() // fixes the error now: a later end of the request changes nothing
}

// cancel cancels the context now (a streaming response's body closed).
func (c *handlerCtx) cancel() {
	if m := c.merged(); m != nil {
		m.cancel()
	}
}
