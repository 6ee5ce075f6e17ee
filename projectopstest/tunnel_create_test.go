package projectopstest_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// Creating a tunnel for a saved server's name repoints that record at the
// tunnel and switches it on: the service writes enabled true with the new
// URL, so a server saved switched off is enabled afterwards.
func TestTunnelCreateEnablesServer(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "local-dev",
		TransportType: "http", URL: "http://127.0.0.1:9/mcp", Disabled: true})
	if err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	var g struct {
		ServerID string `json:"serverId"`
		Existed  bool   `json:"existed"`
	}
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/tunnels", ws.APIKey, map[string]any{"name": "local-dev"}).decode(t, &g)
	if g.ServerID != id || !g.Existed {
		t.Fatalf("grant serverId %q existed %v, want %q true", g.ServerID, g.Existed, id)
	}
	var page struct {
		Items []struct {
			ID      string `json:"id"`
			Enabled *bool  `json:"enabled"`
		} `json:"items"`
	}
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/servers", ws.APIKey, nil).decode(t, &page)
	for _, it := range page.Items {
		if it.ID == id {
			if it.Enabled == nil || !*it.Enabled {
				t.Errorf("server %s after tunnel create: enabled false or missing, want true", id)
			}
			return
		}
	}
	t.Fatalf("server %s not listed", id)
}

// The create body's name is read as the service's schema reads it
// (tunnels.ts: z.string().trim().min(1).max(128)): trimmed first, then
// counted in UTF-16 code units, a string's length in JavaScript. So 128
// characters with white space around them are accepted and stored
// trimmed, 64 emoji (two units each) are the longest emoji name, and the
// limit is the route's own message, not the contract's.
func TestTunnelCreateNameLengthAfterTrim(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	path := "/projects/" + ws.ProjectID + "/tunnels"
	for _, tt := range []struct {
		sent, stored string // stored "" = refused
	}{
		{"  " + strings.Repeat("n", 128) + "\t", strings.Repeat("n", 128)},
		{" " + strings.Repeat("😀", 64) + "\n", strings.Repeat("😀", 64)},
		{strings.Repeat("n", 129), ""},
		{strings.Repeat("😀", 65), ""},
	} {
		r := tg.call(t, "POST", path, ws.APIKey, map[string]any{"name": tt.sent})
		if tt.stored == "" {
			r.wantField(t, "name")
			if !strings.Contains(string(r.body), "name must be at most 128 characters") {
				t.Errorf("create with a %d-byte name: %s, want the route's limit message", len(tt.sent), r.body)
			}
			continue
		}
		if r.status != 201 {
			t.Errorf("create with %q: %d %s, want 201 (the service trims before counting)", tt.sent, r.status, r.body)
			continue
		}
		var g struct {
			Name string `json:"name"`
		}
		r.decode(t, &g)
		if g.Name != tt.stored {
			t.Errorf("grant name %q, want the trimmed %q", g.Name, tt.stored)
		}
	}
}

// A name that is empty, or empty once trimmed (JavaScript's trim takes
// U+3000 too), fails the schema's lower bound with its one message, "name
// is required", on field name: the bound is counted after trimming, as
// zod's trim().min(1) counts it, not by the contract's minLength.
func TestTunnelCreateNameRequiredAfterTrim(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	for _, name := range []string{"", "   ", "\t\n", "\u3000"} {
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/tunnels", ws.APIKey, map[string]any{"name": name})
		r.wantField(t, "name")
		if b := r.wantError(t, shared.CodeValidation); b.Message != "name is required" {
			t.Errorf("create with name %q: message %q, want %q", name, b.Message, "name is required")
		}
	}
	// The contract still checks the type: the route only reads strings.
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/tunnels", ws.APIKey, map[string]any{"name": 5}).wantField(t, "name")
}

// A tunnel created through a host with an IPv6 zone gets URLs that parse
// back to that host: the zone reaches the double unescaped from the
// in-process client, and a URL needs it as %25 (RFC 6874). Written as it
// came, the URL could not be parsed and the create answered 500.
func TestTunnelCreateZonedIPv6Host(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := target{name: "zoned", client: srv.Client(), base: "http://[fe80::1%25lo]:8080/api/v1"}
	g := createTunnelRaw(t, tg, ws.ProjectID, ws.APIKey, "zoned")
	for _, key := range []string{"url", "relayWsUrl"} {
		s, _ := g[key].(string)
		u, err := url.Parse(s)
		if err != nil || u.Host != "[fe80::1%lo]:8080" {
			t.Errorf("grant %s %q: host %v (%v), want [fe80::1%%lo]:8080", key, s, u, err)
		}
	}
}

// A Host header the double cannot make the tunnel's URL from is the
// caller's error, a 400 envelope, not an internal one.
func TestTunnelCreateUnusableHost(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for _, host := range []string{"[::1", "[fe80::1%25lo"} {
		req, err := http.NewRequestWithContext(t.Context(), "POST",
			projectopstest.InProcessURL+"/projects/"+ws.ProjectID+"/tunnels", strings.NewReader(`{"name":"h"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		r := result{status: resp.StatusCode, header: resp.Header, body: b}
		r.wantError(t, shared.CodeValidation)
		if !strings.Contains(string(b), "Host header") {
			t.Errorf("Host %q: %s, want a message naming the Host header", host, b)
		}
	}
}
