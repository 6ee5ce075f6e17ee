package projectopstest

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// A handler that panics under Server.mu (recovered upstream as a dropped
// connection) leaves the lock free for the next request.
func TestLockedHandlerPanicReleasesLock(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o := op[none, any]{apply: func(*call, *none) (any, *edge.Error) { panic("boom") }}
	func() {
		defer func() { _ = recover() }()
		_, _ = o.locked(s, &call{s: s}, &none{}, false)
	}()
	if !s.mu.TryLock() {
		t.Fatal("Server.mu is still held after the handler panicked")
	}
	s.mu.Unlock()
}
