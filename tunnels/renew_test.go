package tunnels_test

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
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

// aheadOf is a host clock an hour ahead of the double's: without a Date
// every connect token looks expired to Serve while the double still
// accepts it; the double's Date corrects it.
func aheadOf(f *fixture) tunnels.ServeOption {
	return tunnels.WithClock(func() time.Time { return f.Clock.Now().Add(projectopstest.TunnelTokenTTL) })
}

// Renewing stops after DefaultRenewals grants within RenewalResetAfter of
// each other whose tokens are refused: Serve returns ErrTokenRejected,
// its error free of the grants' secrets. A healthy session between
// refusals (one that relayed a request) does not start the count over, as
// an edge that refuses every token a while after its hello would
// otherwise have a grant minted every second for ever; renewals further
// apart than RenewalResetAfter do, as the service's agent counts them.
func TestRenewalsAreCapped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	sp := &spoiler{rt: d}
	var mu sync.Mutex
	var renewed []*tunnels.Grant
	lastURL := func() string {
		mu.Lock()
		defer mu.Unlock()
		return renewed[len(renewed)-1].URL
	}
	// Answers without a Date: the host's clock, an hour ahead, decides, and
	// every token, a fresh one too, looks expired.
	sf := behind(t, f, front{rt: f.Srv.Transport(), noDate: true})
	h := serve(t, sf, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: sp}), aheadOf(f),
		tunnels.OnGrant(func(g *tunnels.Grant) { mu.Lock(); renewed = append(renewed, g); mu.Unlock() }))

	// Refused three times in a row, the third renewal connects.
	sp.spoilNext(tunnels.DefaultRenewals)
	d.drop()
	h.waitConnected(t)
	mu.Lock()
	n := len(renewed)
	mu.Unlock()
	if n != tunnels.DefaultRenewals {
		t.Fatalf("%d renewals, want %d", n, tunnels.DefaultRenewals)
	}
	// More than RenewalResetAfter later, the count starts over.
	f.Clock.Advance(tunnels.RenewalResetAfter + time.Second)
	sp.spoilNext(1)
	d.drop()
	h.waitConnected(t)
	if status, _ := get(t, f, http.MethodGet, lastURL(), ""); status != http.StatusAccepted { // a healthy session
		t.Fatalf("renewed URL: %d", status)
	}

	// Within RenewalResetAfter, a healthy session between them or not,
	// the renewals run into the cap: two more, then Serve stops.
	sp.spoilNext(tunnels.DefaultRenewals)
	d.drop()
	err := h.wait(t)
	if !errors.Is(err, tunnels.ErrTokenRejected) {
		t.Fatalf("Serve = %v, want ErrTokenRejected", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := 2 * tunnels.DefaultRenewals; len(renewed) != want {
		t.Errorf("%d renewals in all, want %d", len(renewed), want)
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

// tunnelCreates counts the Creates the double was asked for.
func tunnelCreates(f *fixture) int {
	n := 0
	for _, r := range f.Srv.Requests() {
		if r.Route == "POST /projects/{projectId}/tunnels" {
			n++
		}
	}
	return n
}

// Renewing creates the tunnel again by the grant's server name, which
// repoints whatever server bears it: when the tunnel's server no longer
// has that name (it was renamed), Serve stops before Create, which would
// make a new server of that name.
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
	if err == nil || !strings.Contains(err.Error(), "renamed") || !strings.Contains(err.Error(), `"other"`) {
		t.Fatalf("Serve = %v, want the rename said", err)
	}
	if n := tunnelCreates(f); n != 1 {
		t.Errorf("%d creates, want the test's own", n)
	}
	for s, err := range f.C.Servers.All(t.Context(), f.WS.ProjectID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if s.Name == "other" {
			t.Errorf("a renewal made server %s named other", s.ID)
		}
	}
}

// When the tunnel's name now names another, pre-existing server (a stdio
// one), Serve stops before Create, which would repoint that server at a
// tunnel: its command line wiped, its transport http, its url
// overwritten.
func TestRenewalLeavesTheServerNowOfThatNameAlone(t *testing.T) {
	t.Parallel()
	f := setup(t)
	prod, err := f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "prod",
		Command: "node", Args: []string{"server.js"}})
	if err != nil {
		t.Fatal(err)
	}
	g := create(t, f, "local")
	renamed := *g
	renamed.Name = "prod" // as if "local" had been renamed and "prod" now named another server
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, f, &renamed, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("OnGrant told of another server's grant") }))
	expireAndDrop(f, d)
	err = h.wait(t)
	if err == nil || !strings.Contains(err.Error(), "renamed") || !strings.Contains(err.Error(), prod) {
		t.Fatalf("Serve = %v, want the rename said", err)
	}
	if n := tunnelCreates(f); n != 1 {
		t.Errorf("%d creates, want the test's own", n)
	}
	for s, err := range f.C.Servers.All(t.Context(), f.WS.ProjectID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if s.ID == prod && (s.TransportType != servers.TransportStdio || s.URL != "") {
			t.Errorf("server %s (prod, stdio) was repointed by a renewal: now %s %s", s.ID, s.TransportType,
				tunnels.RedactURL(s.URL))
		}
	}
}

// listingAs answers the servers listing with one server, id, name and
// url, as if the listing had been read just before a rename; every other
// request reaches the double.
type listingAs struct {
	rt            http.RoundTripper
	id, name, url string
}

func (l listingAs) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/servers") {
		return l.rt.RoundTrip(r)
	}
	body := `{"items":[{"id":"` + l.id + `","name":"` + l.name + `","url":` + strconv.Quote(l.url) +
		`,"enabled":true,"transportType":"http","useOAuth":false,"hasClientSecret":false}]}`
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// A rename between the lookup and Create (the name now another server's
// when Create runs): Serve revokes the tunnel Create pointed that server
// at, and stops, saying that server's record was overwritten and is not
// restored.
func TestRenewalRenamedAfterTheLookupRevokes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	prod, err := f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "prod", URL: "https://prod.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	g := create(t, f, "local")
	renamed := *g
	renamed.Name = "prod"
	lying := *f
	lying.C = f.Client(t, option.WithTransport(listingAs{rt: f.Srv.Transport(), id: g.ServerID, name: "prod", url: g.URL}))
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, &lying, &renamed, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("OnGrant told of another server's grant") }))
	expireAndDrop(f, d)
	err = h.wait(t)
	if err == nil || !strings.Contains(err.Error(), "renamed") || !strings.Contains(err.Error(), prod) {
		t.Fatalf("Serve = %v, want the rename said", err)
	}
	if !strings.Contains(err.Error(), "overwritten") || !strings.Contains(err.Error(), "not restored") {
		t.Errorf("Serve = %v, want it said that server's record was overwritten and is not restored", err)
	}
	for s, err := range f.C.Servers.All(t.Context(), f.WS.ProjectID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if s.ID != prod {
			continue
		}
		if status, _ := get(t, f, http.MethodGet, s.URL, ""); status != http.StatusNotFound {
			t.Errorf("the other server's new tunnel answers %d, want 404 (revoked)", status)
		}
		return
	}
	t.Error("no server named prod")
}

// permanentCreates fails every Create with an error marked permanent by
// backoff/v4, as a transport does that knows no retry helps.
type permanentCreates struct{ rt http.RoundTripper }

func (p permanentCreates) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/tunnels") {
		return nil, backoff.Permanent(errors.New("no retry helps"))
	}
	return p.rt.RoundTrip(r)
}

// A renewal whose Create the client's transport fails with a permanent
// mark ends Serve with that error, even when Serve is told to retry for
// ever.
func TestRenewalMarkedPermanentEndsServe(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	perm := *f
	perm.C = f.Client(t, option.WithTransport(permanentCreates{rt: f.Srv.Transport()}))
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, &perm, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.WithReconnect(time.Millisecond, 10*time.Millisecond, 0))
	expireAndDrop(f, d)
	var pe *backoff.PermanentError
	if err := h.wait(t); !errors.As(err, &pe) {
		t.Fatalf("Serve = %v, want the transport's permanent error", err)
	}
}

// A renewal that fails and is retried (a 503 from the API) is told to
// OnConnectError like a failed dial, its error saying it was the renewal:
// a tunnel whose renewals keep failing is not silent.
func TestOnConnectErrorToldOfFailedRenewal(t *testing.T) {
	t.Parallel()
	const route = "POST /projects/{projectId}/tunnels"
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	var mu sync.Mutex
	var told []string
	h := serve(t, f, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnConnectError(func(err error, _ time.Duration) { mu.Lock(); told = append(told, err.Error()); mu.Unlock() }))
	f.Srv.SetFault(route, projectopstest.Fault{Status: http.StatusServiceUnavailable, Times: 10})
	expireAndDrop(f, d)
	h.waitConnected(t)
	mu.Lock()
	defer mu.Unlock()
	renewals := 0
	for _, s := range told {
		if strings.Contains(s, "renewing the grant") {
			renewals++
		}
	}
	if renewals == 0 {
		t.Errorf("OnConnectError was not told of the failed renewals; told %q", told)
	}
}
