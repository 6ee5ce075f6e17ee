package projectopstest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// TestIngestApplyPanicReleasesLock: an ingest handler (ingestOp) runs its
// apply under Server.mu; if apply panics (net/http recovers the handler),
// the lock is released, so later requests are not all left waiting on it.
func TestIngestApplyPanicReleasesLock(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	h := ingestOp(s, nil, func(*call, *ingestBody) (struct{}, *edge.Error) { panic("boom") })
	r := httptest.NewRequest(http.MethodPost, apiPrefix+"/projects/"+ws.ProjectID+"/eval-ingest/runs/start", strings.NewReader(`{}`))
	r.Header.Set("Authorization", "Bearer "+ws.APIKey)
	r.Header.Set("Content-Type", "application/json")
	r.SetPathValue("projectId", ws.ProjectID)
	a, herr := s.authenticate(r)
	if herr != nil {
		t.Fatalf("authenticate: %v", herr)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("apply's panic did not propagate")
			}
		}()
		_ = h(httptest.NewRecorder(), r, a)
	}()
	if !s.mu.TryLock() {
		t.Fatal("Server.mu is still held after apply panicked")
	}
	s.mu.Unlock()
}
