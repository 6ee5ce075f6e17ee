package tunnels_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// front stands between the API client and the double as the service's
// edge would: every response carries a Date read from date (the
// service's clock; none when date is nil), and the servers listing comes
// perPage servers a page (0: whole, as the double answers it).
type front struct {
	rt      http.RoundTripper
	date    func() time.Time
	noDate  bool // answers carry no Date
	perPage int
}

func (f front) RoundTrip(r *http.Request) (*http.Response, error) {
	paged := f.perPage > 0 && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/servers")
	from := 0
	if paged {
		from, _ = strconv.Atoi(r.URL.Query().Get("cursor"))
		r = r.Clone(r.Context())
		r.URL.RawQuery = ""
	}
	resp, err := f.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	if paged && resp.StatusCode == http.StatusOK {
		var page struct {
			Items []json.RawMessage `json:"items"`
		}
		err := json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		to := min(from+f.perPage, len(page.Items))
		out := map[string]any{"items": page.Items[from:to]}
		if to < len(page.Items) {
			out["nextCursor"] = strconv.Itoa(to)
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		resp.Header.Del("Content-Length")
	}
	if f.date != nil {
		resp.Header.Set("Date", f.date().UTC().Format(http.TimeFormat))
	}
	if f.noDate {
		resp.Header.Del("Date")
	}
	return resp, nil
}

// behind is f with its API client behind rt.
func behind(t *testing.T, f *fixture, rt http.RoundTripper) *fixture {
	t.Helper()
	g := *f
	g.C = f.Client(t, option.WithTransport(rt))
	return &g
}

// noSecrets fails t when err shows a secret of one of the grants.
func noSecrets(t *testing.T, err error, grants ...*tunnels.Grant) {
	t.Helper()
	for _, g := range grants {
		if strings.Contains(err.Error(), secretOf(t, g)) || strings.Contains(err.Error(), g.ConnectToken) {
			t.Errorf("Serve's error shows a secret: %v", err)
		}
	}
}

// A host offline past its token's expiry, while another host took the
// tunnel over (a Create, which rotated the server's url), comes back to a
// refused token that has expired too: the expiry cannot tell it from one
// simply expired, the server's url can. Serve ends with ErrTokenRejected
// saying the tunnel was taken over, without a Create, which would revoke
// the other host's grant.
func TestRenewalAfterATakeoverPastExpiryStops(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	a, gt := offlineHost(t, f, g)
	g2 := create(t, f, "local") // host B takes over while A is offline
	b := serve(t, f, g2, echo)
	f.Clock.Advance(projectopstest.TunnelTokenTTL) // A stays offline past the expiry
	gt.set(false)
	err := a.wait(t)
	if !errors.Is(err, tunnels.ErrTokenRejected) || !strings.Contains(err.Error(), "taken over") {
		t.Fatalf("host A's Serve = %v, want ErrTokenRejected saying the tunnel was taken over", err)
	}
	noSecrets(t, err, g, g2)
	if n := tunnelCreates(f); n != 2 {
		t.Errorf("%d creates, want the test's two", n)
	}
	stillServes(t, f, b, g2)
}

// A host clock two minutes behind the service's (a VM or WSL after a
// sleep) sees an expired token as unexpired. Serve judges expiry on the
// service's clock, by the Date of the servers listing, and renews.
func TestRenewalJudgesExpiryByTheServiceDate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	sf := behind(t, f, front{rt: f.Srv.Transport(), date: f.Clock.Now})
	d := &dropper{rt: f.Srv.Transport()}
	renewed := make(chan *tunnels.Grant, 1)
	h := serve(t, sf, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.WithClock(func() time.Time { return f.Clock.Now().Add(-2 * time.Minute) }),
		tunnels.OnGrant(func(ng *tunnels.Grant) { renewed <- ng }))
	expireAndDrop(f, d)
	reconnectedRenewed(t, h, renewed, "host clock 2 min slow")
}

// The service's Date wins over a host clock an hour fast too: a tunnel
// closed while its host was offline, the token unexpired on the
// service's clock, is not revived.
func TestRenewalIgnoresAFastHostClockWhenTheServiceDates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	sf := behind(t, f, front{rt: f.Srv.Transport(), date: f.Clock.Now})
	gt := &gate{rt: f.Srv.Transport()}
	d := &dropper{rt: gt}
	a := serve(t, sf, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}), aheadOf(f),
		tunnels.WithReconnect(20*time.Millisecond, 50*time.Millisecond, time.Minute),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("a closed tunnel was revived") }))
	gt.set(true)
	d.drop()
	if _, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID); err != nil {
		t.Fatal(err)
	}
	gt.set(false)
	if err := a.wait(t); !errors.Is(err, tunnels.ErrTokenRejected) || !strings.Contains(err.Error(), "had not expired") {
		t.Fatalf("Serve = %v, want ErrTokenRejected saying the token had not expired", err)
	}
	if n := tunnelCreates(f); n != 1 {
		t.Errorf("%d creates, want the test's own", n)
	}
}

// The servers listing is read page by page: a grant's server on a later
// page is found, and its grant renewed.
func TestRenewalReadsEveryPageOfTheListing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, name := range []string{"alpha", "beta"} {
		if _, err := f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: name, URL: "https://" + name + ".example/mcp"}); err != nil {
			t.Fatal(err)
		}
	}
	g := create(t, f, "local")
	pf := behind(t, f, front{rt: f.Srv.Transport(), perPage: 1})
	d := &dropper{rt: f.Srv.Transport()}
	renewed := make(chan *tunnels.Grant, 1)
	h := serve(t, pf, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnGrant(func(ng *tunnels.Grant) { renewed <- ng }))
	expireAndDrop(f, d)
	reconnectedRenewed(t, h, renewed, "a listing of one server a page")
	pages := 0
	for _, r := range f.Srv.Requests() {
		if r.Route == "GET /projects/{projectId}/servers" {
			pages++
		}
	}
	if pages < 3 {
		t.Errorf("the listing was read in %d pages, want the server's own third", pages)
	}
}

// A grant whose server no longer exists is not renewed: Create by name
// would make a new server.
func TestRenewalOfADeletedServerStops(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	// The listing as it reads once the server is deleted (the SDK cannot
	// delete one): another server alone.
	gone := behind(t, f, listingAs{rt: f.Srv.Transport(), id: "srv_other", name: "other", url: "https://other.example/mcp"})
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, gone, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("renewed the grant of a deleted server") }))
	expireAndDrop(f, d)
	err := h.wait(t)
	if err == nil || !strings.Contains(err.Error(), "deleted") {
		t.Fatalf("Serve = %v, want the deletion said", err)
	}
	if n := tunnelCreates(f); n != 1 {
		t.Errorf("%d creates, want the test's own", n)
	}
}

// Grants Serve cannot renew end it with ErrTokenRejected saying why, not
// with a claim that the tunnel was closed or taken over: one without an
// expiry (the reference marks it optional), one without a ProjectID (as
// decoded from JSON). Neither is renewed.
func TestRenewalOfAnIncompleteGrantSaysWhy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, want string
		edit       func(*tunnels.Grant)
	}{
		{"no expiry", "names no expiry", func(g *tunnels.Grant) { g.ConnectTokenExpiresAt = 0 }},
		{"no project", "no ProjectID", func(g *tunnels.Grant) { g.ProjectID = "" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			g := create(t, f, "local")
			ng := *g
			c.edit(&ng)
			d := &dropper{rt: f.Srv.Transport()}
			h := serve(t, f, &ng, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}))
			expireAndDrop(f, d)
			err := h.wait(t)
			if !errors.Is(err, tunnels.ErrTokenRejected) || !strings.Contains(err.Error(), c.want) ||
				strings.Contains(err.Error(), "had not expired") || strings.Contains(err.Error(), "closed") {
				t.Fatalf("Serve = %v, want ErrTokenRejected saying %q", err, c.want)
			}
			if n := tunnelCreates(f); n != 1 {
				t.Errorf("%d creates, want the test's own", n)
			}
		})
	}
}

// A Date far ahead of the host's clock (a broken or hostile server, a
// proxy with a wrong clock, or a host clock hours slow): which clock is
// wrong cannot be told, so Serve neither revives a tunnel closed through
// the API while its host was offline (its token an hour from expiry on
// the host's clock) nor claims it closed: it stops, saying to check the
// clock.
func TestRenewalStopsWhenADateIsFarAhead(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	bogus := func() time.Time { return f.Clock.Now().AddDate(10, 0, 0) }
	sf := behind(t, f, front{rt: f.Srv.Transport(), date: bogus})
	gt := &gate{rt: f.Srv.Transport()}
	d := &dropper{rt: gt}
	a := serve(t, sf, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.WithReconnect(20*time.Millisecond, 50*time.Millisecond, time.Minute),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("a Date ten years ahead revived a closed tunnel") }))
	gt.set(true)
	d.drop()
	if _, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID); err != nil {
		t.Fatal(err)
	}
	gt.set(false)
	if err := a.wait(t); !errors.Is(err, tunnels.ErrTokenRejected) || !strings.Contains(err.Error(), "check this host's clock") {
		t.Fatalf("Serve = %v, want ErrTokenRejected saying to check the clock", err)
	}
}

// A Date far behind the host's clock (a broken server clock, a stale
// cached answer, or a host clock hours fast): Serve neither renews nor
// claims the tunnel closed; it stops, saying to check the clock.
func TestRenewalStopsWhenADateIsFarBehind(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	bogus := func() time.Time { return time.Unix(0, 0) }
	sf := behind(t, f, front{rt: f.Srv.Transport(), date: bogus})
	d := &dropper{rt: f.Srv.Transport()}
	h := serve(t, sf, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnGrant(func(*tunnels.Grant) { t.Error("renewed by a Date of 1970") }))
	expireAndDrop(f, d)
	if err := h.wait(t); !errors.Is(err, tunnels.ErrTokenRejected) || !strings.Contains(err.Error(), "check this host's clock") {
		t.Fatalf("Serve = %v, want ErrTokenRejected saying to check the clock", err)
	}
}

// reconnectedRenewed waits for h to reconnect and asserts that it did so
// on a renewed grant (one sent to renewed by OnGrant); why names the case.
func reconnectedRenewed(t *testing.T, h *host, renewed <-chan *tunnels.Grant, why string) {
	t.Helper()
	select {
	case <-h.connected:
	case err := <-h.done:
		h.done <- err
		t.Fatalf("%s: Serve = %v, want the expired token renewed", why, err)
	}
	select {
	case <-renewed:
	default:
		t.Error("reconnected without a renewal")
	}
}
