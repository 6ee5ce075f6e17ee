package projectopstest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// A server operation checks its body before it looks the server up, as
// the service does: a bad body on an unknown server is 400, a good one 404.
func TestServerOpBodyCheckedBeforeLookup(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/servers/srv_nope"
	for _, c := range []struct {
		path, body string
		status     int
	}{
		{base + "/oauth/import-tokens", `{}`, 400},
		{base + "/oauth/import-tokens", `{"serverUrl":"https://x.example/mcp","tokens":{}}`, 400},
		{base + "/export", `{`, 400},
		{base + "/export", `[]`, 400},
		{base + "/export", `{}`, 404},
		{base + "/oauth/import-tokens", `{"serverUrl":"https://x.example/mcp","tokens":{"access_token":"at"}}`, 404},
	} {
		if r := tg.call(t, "POST", c.path, ws.APIKey, c.body); r.status != c.status {
			t.Errorf("POST %s %s: %d %s, want %d", c.path, c.body, r.status, r.body, c.status)
		}
	}
}

// An OAuth server without an imported grant is refused before connecting
// with the details the service sends for the token import that follows:
// {oauthRequired, serverId, serverName (null), serverUrl}, a ?k= secret in
// the URL redacted.
func TestOAuthRequiredNamesTheServer(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	for url, shown := range map[string]string{
		"https://mcp.example.com/mcp":              "https://mcp.example.com/mcp",
		"https://mcp.example.com/mcp?k=s3cret&a=b": "https://mcp.example.com/mcp?k=REDACTED&a=b",
	} {
		id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "g" + shown[len(shown)-1:], URL: url, UseOAuth: true}))
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/export", ws.APIKey, `{}`)
		var b struct {
			Code    string
			Details map[string]any
		}
		_ = json.Unmarshal(r.body, &b)
		d := b.Details
		if r.status != 401 || b.Code != "OAUTH_REQUIRED" || d["oauthRequired"] != true || d["serverId"] != id ||
			d["serverUrl"] != shown || d["serverName"] != nil || strings.Contains(string(r.body), "s3cret") {
			t.Errorf("%s: %d %s", shown, r.status, r.body)
		}
		if _, ok := d["serverName"]; !ok {
			t.Errorf("%s: no serverName (null) in %s", shown, r.body)
		}
	}
}

// A STDIO server saved with useOAuth has no URL, so its OAUTH_REQUIRED
// details carry no serverUrl: the service sends the saved config's url,
// undefined for stdio, which JSON leaves out. An empty string would be a
// URL a caller passes to import-tokens, which refuses "".
//
// Source: routes/web/auth.ts createAuthorizedManager (the pre-connect
// OAUTH_REQUIRED, before any transport handling, details serverUrl:
// auth.serverConfig.url), routes/v1/envelope.ts (details passed through).
func TestOAuthRequiredStdioServerHasNoServerURL(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.ws.ProjectID
	id := must[string](t)(w.srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "local-oauth",
		Command: "definitely-not-started", UseOAuth: true}))
	r := inproc(w.srv).call(t, "POST", "/projects/"+p+"/servers/"+id+"/export", w.keys["owner"], map[string]any{})
	d := r.wantError(t, shared.CodeOAuthRequired).Details
	if v, ok := d["serverUrl"]; ok {
		t.Errorf("details.serverUrl = %#v for a stdio server, want it absent: %s", v, r.body)
	}
	if d["oauthRequired"] != true || d["serverId"] != id {
		t.Errorf("details = %v, want oauthRequired and serverId still named", d)
	}
}

// The doctor has no pre-connect OAuth check, unlike the other server
// operations: for a server saved with useOAuth and a caller with no
// imported grant it connects without a token, so a server that answers
// anyway is reported ready (one that demands OAuth is oauth_required, see
// servers.TestOAuth).
//
// Source: routes/web/servers.ts runHostedDoctor (authorizeServer,
// toHttpConfig with no token, runServerDoctor; no oauthRequired throw),
// routes/v1/servers.ts (the doctor route calls runHostedDoctor, not
// runV1ServerOp), sdk/src/server-doctor.ts (oauth_required only when the
// probe finds the server demanding OAuth).
func TestDoctorOAuthServerWithoutGrantConnects(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.ws.ProjectID
	ms := mcp.NewServer(&mcp.Implementation{Name: "open", Version: "1"}, nil)
	mcp.AddTool(ms, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	id := must[string](t)(w.srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "oauth-flag-open", UseOAuth: true, MCPServer: ms}))
	tg := inproc(w.srv)
	var rep struct {
		Status     string `json:"status"`
		Connection struct {
			Status string `json:"status"`
		} `json:"connection"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	tg.call(t, "POST", "/projects/"+p+"/servers/"+id+"/doctor", w.keys["owner"], map[string]any{}).decode(t, &rep)
	if rep.Status != "ready" || rep.Connection.Status != "connected" || len(rep.Tools) != 1 {
		t.Errorf("doctor status %q, connection %q, %d tools; want ready, connected, 1: the doctor connects without a token",
			rep.Status, rep.Connection.Status, len(rep.Tools))
	}
	// The other operations keep their pre-connect check.
	tg.call(t, "POST", "/projects/"+p+"/servers/"+id+"/validate", w.keys["owner"], map[string]any{}).wantError(t, shared.CodeOAuthRequired)
}

// An export's exportedAt and a doctor report's generatedAt are written as
// the service writes them, JavaScript's toISOString: UTC with exactly three
// fractional digits.
func TestExportedAtIsMillisecondISO(t *testing.T) {
	t.Parallel()
	for now, want := range map[time.Time]string{
		time.Date(2026, 7, 9, 12, 0, 0, 0, time.UTC):                            "2026-07-09T12:00:00.000Z",
		time.Date(2026, 7, 9, 14, 0, 0, 123456789, time.FixedZone("x", 2*3600)): "2026-07-09T12:00:00.123Z",
	} {
		srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(func() time.Time { return now }))
		ws := srv.Default()
		ms := mcp.NewServer(&mcp.Implementation{Name: "x", Version: "1"}, nil)
		id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "s", MCPServer: ms}))
		r := inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/export", ws.APIKey, `{}`)
		var snap struct{ ExportedAt string }
		if err := json.Unmarshal(r.body, &snap); err != nil || r.status != 200 || snap.ExportedAt != want {
			t.Errorf("export at %v: %d %s, want exportedAt %s", now, r.status, r.body, want)
		}
		r = inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/doctor", ws.APIKey, `{}`)
		var rep struct{ GeneratedAt string }
		if err := json.Unmarshal(r.body, &rep); err != nil || r.status != 200 || rep.GeneratedAt != want {
			t.Errorf("doctor at %v: %d generatedAt %q, want %s", now, r.status, rep.GeneratedAt, want)
		}
	}
}
