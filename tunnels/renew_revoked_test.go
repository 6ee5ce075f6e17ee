package tunnels_test

import (
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/tunnels"
)

// gate fails every relay dial while shut (a laptop asleep, a network down).
type gate struct {
	rt   http.RoundTripper
	mu   sync.Mutex
	shut bool
}

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	g.mu.Lock()
	shut := g.shut
	g.mu.Unlock()
	if shut {
		return nil, errors.New("network down")
	}
	return g.rt.RoundTrip(r)
}

func (g *gate) set(shut bool) { g.mu.Lock(); g.shut = shut; g.mu.Unlock() }

// offlineHost serves g through a gate, then takes it offline: its session
// dropped, its dials failing until the gate opens again.
func offlineHost(t *testing.T, f *fixture, g *tunnels.Grant) (*host, *gate) {
	t.Helper()
	gt := &gate{rt: f.Srv.Transport()}
	d := &dropper{rt: gt}
	h := serve(t, f, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.WithReconnect(20*time.Millisecond, 50*time.Millisecond, time.Minute),
		tunnels.OnGrant(func(ng *tunnels.Grant) { t.Errorf("renewed a grant it should not have: %v", ng) }))
	gt.set(true)
	d.drop()
	return h, gt
}

// A host that was offline while another host took the tunnel over (a
// second `projectops tunnel --name local`) comes back to a refused token
// (close 4000: rotated, not expired). Serve ends with ErrTokenRejected
// rather than renew, which would take the tunnel back from the host that
// took it over (and that host would take it back in turn).
func TestRefusedUnexpiredTokenAfterTakeoverIsNotRenewed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	a, gt := offlineHost(t, f, g)
	g2 := create(t, f, "local") // another host takes over while A is offline
	b := serve(t, f, g2, echo)
	gt.set(false)
	if err := a.wait(t); !errors.Is(err, tunnels.ErrTokenRejected) {
		t.Fatalf("host A's Serve = %v, want ErrTokenRejected", err)
	}
	stillServes(t, f, b, g2)
}

// A tunnel closed through the API while its host was offline stays
// closed when that host comes back: Serve ends with ErrTokenRejected
// rather than create the tunnel again.
func TestRefusedUnexpiredTokenAfterCloseIsNotRenewed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	a, gt := offlineHost(t, f, g)
	if _, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID); err != nil {
		t.Fatal(err)
	}
	gt.set(false)
	if err := a.wait(t); !errors.Is(err, tunnels.ErrTokenRejected) {
		t.Fatalf("Serve = %v, want ErrTokenRejected", err)
	}
	creates := 0
	for _, r := range f.Srv.Requests() {
		if r.Route == "POST /projects/{projectId}/tunnels" {
			creates++
		}
	}
	if creates != 1 {
		t.Errorf("%d creates, want the test's own: Serve created the closed tunnel again", creates)
	}
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusNotFound {
		t.Errorf("the closed tunnel's URL answers %d, want 404", status)
	}
}

// stillServes asserts that host b, which took the tunnel over with grant
// g, is still serving it: its Serve has not ended and g's URL answers.
func stillServes(t *testing.T, f *fixture, b *host, g *tunnels.Grant) {
	t.Helper()
	select {
	case err := <-b.done:
		b.done <- err
		t.Errorf("host B, which took the tunnel over, was cut off: %v", err)
	default:
	}
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusAccepted {
		t.Errorf("host B's URL answers %d, want 202", status)
	}
}
