package projectopstest

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// TestIngestApplyPanicReleasesLock: an ingest handler's apply runs under
// Server.mu; if it panics (net/http recovers the handler), the lock is
// released, so later requests are not all left waiting on it.
func TestIngestApplyPanicReleasesLock(t *testing.T) {
	s := NewTestServer(t)
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("apply's panic did not propagate")
			}
		}()
		_, _ = applyLocked(s, &call{s: s}, &ingestBody{}, func(*call, *ingestBody) (struct{}, *edge.Error) {
			panic("boom")
		})
	}()
	if !s.mu.TryLock() {
		t.Fatal("Server.mu is still held after apply panicked")
	}
	s.mu.Unlock()
}
