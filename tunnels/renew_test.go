package tunnels_test

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// spoiler is a RoundTripper that sends the next n relay dials with a
// connect token the relay refuses (close 4000), as an expired one is.
type spoiler struct {
	rt  http.RoundTripper
	mu  sync.Mutex
	bad int
}

func (s *spoiler) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	spoil := s.bad > 0
	if spoil {
		s.bad--
	}
	s.mu.Unlock()
	if spoil {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer ct_nope")
	}
	return s.rt.RoundTrip(r)
}

func (s *spoiler) spoilNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bad = n
}

// A drop after the connect token expired is refused (close 4000); the
// tunnel was up, so Serve creates it again for the same server, tells
// OnGrant, and serves on at the new URL, as the service's agent does. The
// old URL, its secret rotated, is dead. The established session itself
// outlived the expiry. Nothing logged shows the new grant's secrets.
func TestTokenExpiryRenewsTheGrant(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	grants := make(chan *tunnels.Grant, 4)
	logs := &syncWriter{w: &bytes.Buffer{}}
	h := serve(t, f, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnGrant(func(g *tunnels.Grant) { grants <- g }),
		tunnels.WithLogger(slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	f.Clock.Advance(projectopstest.TunnelTokenTTL)
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusAccepted {
		t.Fatalf("established session after expiry: %d", status)
	}
	d.drop()
	h.waitConnected(t)
	var ng *tunnels.Grant
	select {
	case ng = <-grants:
	default:
		t.Fatal("reconnected without telling OnGrant of a new grant")
	}
	if ng.ServerID != g.ServerID || ng.Slug != g.Slug || ng.URL == g.URL || ng.ConnectToken == g.ConnectToken {
		t.Errorf("renewed grant %v, from %v: want the same server and slug, a new URL and token", ng, g)
	}
	if status, _ := get(t, f, http.MethodGet, ng.URL, ""); status != http.StatusAccepted {
		t.Errorf("renewed URL: %d", status)
	}
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusNotFound {
		t.Errorf("old URL after renewal: %d, want 404", status)
	}
	for _, secret := range []string{secretOf(t, ng), ng.ConnectToken} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log shows a secret of the renewed grant:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), "tunnel grant renewed") {
		t.Errorf("the log does not say the grant was renewed:\n%s", logs.String())
	}
}

// WithRenewals(0) turns renewing off: a token refused after a drop ends
// Serve with ErrTokenRejected, as does one refused on the first dial
// whatever the option (the caller's grant is bad). A token used just
// before its expiry still connects.
func TestTokenRejectedWithoutRenewal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, f, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}), tunnels.WithRenewals(0),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("renewed with WithRenewals(0)") }))
	f.Clock.Advance(projectopstest.TunnelTokenTTL)
	d.drop()
	if err := h.wait(t); !errors.Is(err, tunnels.ErrTokenRejected) {
		t.Fatalf("Serve = %v, want ErrTokenRejected", err)
	}
	// The grant's own token has expired: refused on the first dial.
	if err := f.C.Tunnels.Serve(t.Context(), g, echo); !errors.Is(err, tunnels.ErrTokenRejected) {
		t.Errorf("Serve with an expired grant = %v, want ErrTokenRejected", err)
	}
	f2 := setup(t)
	g2 := create(t, f2, "local")
	f2.Clock.Advance(projectopstest.TunnelTokenTTL - time.Millisecond)
	serve(t, f2, g2, echo)
}

// Renewing stops after DefaultRenewals grants in a row whose tokens are
// refused at once: Serve returns ErrTokenRejected, its error free of the
// grants' secrets. A healthy session between refusals (one that relayed a
// request) starts the count over.
func TestRenewalsAreCapped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	sp := &spoiler{rt: d}
	var mu sync.Mutex
	var renewed []*tunnels.Grant
	h := serve(t, f, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: sp}),
		tunnels.OnGrant(func(g *tunnels.Grant) { mu.Lock(); renewed = append(renewed, g); mu.Unlock() }))

	// Refused three times in a row, the third renewal connects.
	sp.spoilNext(tunnels.DefaultRenewals)
	d.drop()
	h.waitConnected(t)
	mu.Lock()
	last := renewed[len(renewed)-1]
	n := len(renewed)
	mu.Unlock()
	if n != tunnels.DefaultRenewals {
		t.Fatalf("%d renewals, want %d", n, tunnels.DefaultRenewals)
	}
	// A request relayed makes the session healthy: the count starts over.
	if status, _ := get(t, f, http.MethodGet, last.URL, ""); status != http.StatusAccepted {
		t.Fatalf("renewed URL: %d", status)
	}
	sp.spoilNext(1)
	d.drop()
	h.waitConnected(t)

	// Refused one more time than renewals allow: Serve stops.
	if status, _ := get(t, f, http.MethodGet, last.URL, ""); status != http.StatusNotFound {
		t.Fatalf("URL of a grant since renewed: %d", status)
	}
	mu.Lock()
	last = renewed[len(renewed)-1]
	mu.Unlock()
	if status, _ := get(t, f, http.MethodGet, last.URL, ""); status != http.StatusAccepted { // healthy again
		t.Fatalf("renewed URL: %d", status)
	}
	sp.spoilNext(tunnels.DefaultRenewals + 1)
	d.drop()
	err := h.wait(t)
	if !errors.Is(err, tunnels.ErrTokenRejected) {
		t.Fatalf("Serve = %v, want ErrTokenRejected", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(renewed) != 2*tunnels.DefaultRenewals+1 {
		t.Errorf("%d renewals in all, want %d", len(renewed), 2*tunnels.DefaultRenewals+1)
	}
	for _, ng := range append(renewed, g) {
		if strings.Contains(err.Error(), ng.ConnectToken) || strings.Contains(err.Error(), secretOf(t, ng)) {
			t.Errorf("Serve's error shows a secret: %v", err)
		}
	}
}

// expireAndDrop makes the grant's connect token expire on the double and
// drops the live session: the reconnect is refused (close 4000).
func expireAndDrop(f *fixture, d *dropper) {
	f.Clock.Advance(projectopstest.TunnelTokenTTL)
	d.drop()
}

// A renewal the service refuses (here 403) ends Serve with that error; a
// passing one (503) is retried like a failed dial, and the tunnel comes
// back.
func TestRenewalFailures(t *testing.T) {
	t.Parallel()
	const route = "POST /projects/{projectId}/tunnels"
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, f, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}))
	f.Srv.SetFault(route, projectopstest.Fault{Status: http.StatusServiceUnavailable, Times: 2})
	expireAndDrop(f, d)
	h.waitConnected(t)

	f.Srv.SetFault(route, projectopstest.Fault{Status: http.StatusForbidden})
	expireAndDrop(f, d)
	err := h.wait(t)
	if !errors.Is(err, projectops.ErrForbidden) || errors.Is(err, tunnels.ErrTokenRejected) {
		t.Errorf("Serve = %v, want the service's 403", err)
	}
	refused := 0
	for _, r := range f.Srv.Requests() {
		if r.Route == route && r.Status == http.StatusForbidden {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("Serve asked %d times for a renewal the service refused, want once", refused)
	}
}

// Renewing creates the tunnel again by the grant's server name: when that
// name now names another server (the tunnel's was renamed), Serve revokes
// the tunnel it just pointed that server at and stops, rather than serve
// another server.
func TestRenewalOfARenamedServerStops(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	renamed := *g
	renamed.Name = "other" // as if "local" had been renamed since
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, f, &renamed, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("OnGrant told of another server's grant") }))
	expireAndDrop(f, d)
	err := h.wait(t)
	if err == nil || !strings.Contains(err.Error(), "renamed") {
		t.Fatalf("Serve = %v, want the rename said", err)
	}
	for s, err := range f.C.Servers.All(t.Context(), f.WS.ProjectID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != "other" {
			continue
		}
		if s.ID == g.ServerID {
			t.Fatalf("server %s renamed", s.ID)
		}
		if status, _ := get(t, f, http.MethodGet, s.URL, ""); status != http.StatusNotFound {
			t.Errorf("the other server's new tunnel answers %d, want 404 (revoked)", status)
		}
		return
	}
	t.Error("no server named other")
}
