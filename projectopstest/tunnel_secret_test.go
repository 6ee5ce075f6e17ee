package projectopstest_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/projectopstest"
)

// createTunnelRaw creates a tunnel over raw HTTP and returns the grant as
// JSON fields.
func createTunnelRaw(t *testing.T, tg target, projectID, key, name string) map[string]any {
	t.Helper()
	r := tg.call(t, "POST", "/projects/"+projectID+"/tunnels", key, `{"name":"`+name+`"}`)
	if r.status != 201 {
		t.Fatalf("create tunnel: %d %s", r.status, r.body)
	}
	var g map[string]any
	r.decode(t, &g)
	return g
}

// TestTunnelRecordHoldsGrantURL: the server record's url is the grant's
// URL with its plaintext ?k= secret, exactly, wherever the record is read
// (the listing, a chatbox's attached servers, check-oauth), as the
// specification defines it. The request log and debug log never hold it.
func TestTunnelRecordHoldsGrantURL(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	srv := projectopstest.NewTestServer(t, noLimit,
		projectopstest.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ws := srv.Default()
	tg := inproc(srv)
	g := createTunnelRaw(t, tg, ws.ProjectID, ws.APIKey, "local")
	grantURL, _ := g["url"].(string)
	u, err := url.Parse(grantURL)
	if err != nil || u.Query().Get("k") == "" {
		t.Fatalf("grant url %q has no secret (%v)", grantURL, err)
	}
	secret := u.Query().Get("k")
	serverID, _ := g["serverId"].(string)
	cb := must[string](t)(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "cb", ServerIDs: []string{serverID}}))

	var list rawPage
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/servers", ws.APIKey, nil).decode(t, &list)
	if len(list.Items) != 1 || list.Items[0]["url"] != grantURL {
		t.Errorf("listing: %v, want url %q", list.Items, grantURL)
	}
	var detail struct {
		Servers []map[string]any `json:"servers"`
	}
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/chatboxes/"+cb, ws.APIKey, nil).decode(t, &detail)
	if len(detail.Servers) != 1 || detail.Servers[0]["url"] != grantURL {
		t.Errorf("chatbox servers: %v, want url %q", detail.Servers, grantURL)
	}
	var oauth map[string]any
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+serverID+"/check-oauth", ws.APIKey, nil).decode(t, &oauth)
	if oauth["serverUrl"] != grantURL {
		t.Errorf("check-oauth serverUrl = %v, want %q", oauth["serverUrl"], grantURL)
	}
	// A public tunnel request carries the secret in its query: still not logged.
	resp, err := srv.Client().Post(grantURL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if strings.Contains(logs.String(), secret) || strings.Contains(fmt.Sprint(srv.Requests()), secret) {
		t.Error("a log shows the tunnel secret")
	}
}

// TestTunnelPreviousURL: previousUrl appears only when the record pointed
// somewhere else before, and then holds that URL as it was; re-creating the
// same tunnel (only the secret rotates) has none, even through the double's
// URL with the default port written out (the service compares WHATWG origin
// and pathname: tunnels.ts, sameEndpoint). Through another base URL (the
// loopback listener) the tunnel's URL names that host, another endpoint.
func TestTunnelPreviousURL(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tgs := targets(t, srv)
	tg, loopback := tgs[0], tgs[1]
	old := "https://mcp.example.com/mcp?token=abc"
	must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "remote", URL: old}))
	g1 := createTunnelRaw(t, tg, ws.ProjectID, ws.APIKey, "remote")
	if g1["existed"] != true || g1["previousUrl"] != old {
		t.Errorf("repointing an http record: existed %v previousUrl %v, want %q", g1["existed"], g1["previousUrl"], old)
	}
	g2 := createTunnelRaw(t, tg, ws.ProjectID, ws.APIKey, "remote")
	if _, ok := g2["previousUrl"]; ok || g2["url"] == g1["url"] || g2["slug"] != g1["slug"] {
		t.Errorf("re-create: previousUrl %v (want none), url %v (was %v), slug %v (was %v)",
			g2["previousUrl"], g2["url"], g1["url"], g2["slug"], g1["slug"])
	}
	withPort := target{name: "port80", client: srv.Client(), base: "http://projectops.test:80/api/v1"}
	g3 := createTunnelRaw(t, withPort, ws.ProjectID, ws.APIKey, "remote")
	if prev, ok := g3["previousUrl"]; ok {
		t.Errorf("re-create through :80: previousUrl %v (want none), url %v", prev, g3["url"])
	}
	g4 := createTunnelRaw(t, loopback, ws.ProjectID, ws.APIKey, "remote")
	if g4["previousUrl"] != g3["url"] || g4["slug"] != g1["slug"] {
		t.Errorf("re-create through the loopback URL: previousUrl %v, want %v; slug %v, want %v",
			g4["previousUrl"], g3["url"], g4["slug"], g1["slug"])
	}
	fresh := createTunnelRaw(t, tg, ws.ProjectID, ws.APIKey, "new")
	if _, ok := fresh["previousUrl"]; ok || fresh["existed"] != false {
		t.Errorf("new record: %v", fresh)
	}
}

// Re-creating a tunnel through another spelling of the same IP address
// (here [0:0::1] and [::1], one WHATWG origin) is the same endpoint: the
// grant has no previousUrl, where comparing the host as written reported
// the old secret-bearing URL.
func TestTunnelPreviousURLIPv6Spelling(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	short := target{name: "v6short", client: srv.Client(), base: "http://[::1]/api/v1"}
	long := target{name: "v6long", client: srv.Client(), base: "http://[0:0::1]/api/v1"}
	createTunnelRaw(t, short, ws.ProjectID, ws.APIKey, "tun")
	g := createTunnelRaw(t, long, ws.ProjectID, ws.APIKey, "tun")
	if prev, ok := g["previousUrl"]; ok {
		t.Errorf("re-create through [0:0::1]: previousUrl %v, want none (the same origin as [::1]); url %v", prev, g["url"])
	}
}

// The relay's agent endpoint reads the connect token under any case of the
// Bearer scheme (RFC 9110 §11.1), as the API routes read keys.
func TestRelayAgentBearerSchemeAnyCase(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	g := createTunnelRaw(t, inproc(srv), ws.ProjectID, ws.APIKey, "local")
	relayURL, _ := g["relayWsUrl"].(string)
	token, _ := g["connectToken"].(string)
	for _, scheme := range []string{"bearer", "BEARER"} {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		conn, resp, err := websocket.Dial(ctx, relayURL, &websocket.DialOptions{HTTPClient: srv.Client(),
			HTTPHeader: http.Header{"Authorization": {scheme + " " + token}}, Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			cancel()
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			t.Fatalf("dial with %q scheme: HTTP %d: %v", scheme, status, err)
		}
		// A token the relay does not read is closed with 4000 after the
		// upgrade: the session must say hello.
		typ, msg, err := conn.Read(ctx)
		cancel()
		if err != nil || typ != websocket.MessageText || !strings.Contains(string(msg), `"t":"hello"`) {
			t.Errorf("with %q scheme: %s %v, want the hello", scheme, msg, err)
		}
		_ = conn.CloseNow()
	}
}
