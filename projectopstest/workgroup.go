package projectopstest

import "sync"

// workGroup counts goroutines as a sync.WaitGroup does, but its Wait may
// run while goroutines are added: Wait (a test's, any time) racing an Add
// from zero is a misuse of a WaitGroup ("reused before previous Wait has
// returned"). Wait returns once the count has been zero since it was
// called; work added after that is not waited for.
type workGroup struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // closed when n drops to zero; nil while n is zero
}

// Add adds delta, which may be negative, to the count.
func (g *workGroup) Add(delta int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n == 0 && delta > 0 {
		g.zero = make(chan struct{})
	}
	g.n += delta
	switch {
	case g.n < 0:
		panic("projectopstest: negative workGroup count")
	case g.n == 0 && g.zero != nil:
		close(g.zero)
		g.zero = nil
	}
}

// Done decrements the count by one.
func (g *workGroup) Done() { g.Add(-1) }

// Wait blocks until the count is zero.
func (g *workGroup) Wait() { <-g.idle() }

// idle returns a channel closed once the count has been zero since idle
// was called, so that a wait can also end on something else.
func (g *workGroup) idle() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.zero == nil {
		return closedChan
	}
	return g.zero
}

// closedChan is a channel already closed: a wait on it is over at once.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
