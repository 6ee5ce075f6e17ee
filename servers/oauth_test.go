package servers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// oauthPeer is an MCP server behind bearer-token auth with its own token
// endpoint, which trades refresh token "rt-1" from client "cid" for access
// token "at-2".
type oauthPeer struct {
	url     string
	mu      sync.Mutex
	valid   map[string]bool
	bearers []string // Authorization values of the JSON-RPC POSTs the MCP endpoint saw
	// others are those of its other requests (a dropped session's
	// DELETE or SSE GET), which may arrive late with an earlier grant.
	others   []string
	refreshs int
	down     int // token requests still to answer 503 (the endpoint briefly down)
}

func newOAuthPeer(t *testing.T) *oauthPeer {
	t.Helper()
	p := &oauthPeer{valid: map[string]bool{"at-good": true, "at-2": true}}
	// Stateless: a session the double cannot close (its token expired on
	// the clock, so the DELETE is refused) leaves nothing running here.
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return toolsOnlyServer() },
		&mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		p.mu.Lock()
		if r.Method == http.MethodPost {
			p.bearers = append(p.bearers, h)
		} else {
			p.others = append(p.others, h)
		}
		ok := p.valid[strings.TrimPrefix(h, "Bearer ")]
		p.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		id, secret, _ := r.BasicAuth()
		p.mu.Lock()
		p.refreshs++
		down := p.down > 0
		if down {
			p.down--
		}
		p.mu.Unlock()
		if down {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		if r.Form.Get("grant_type") != "refresh_token" || r.Form.Get("refresh_token") != "rt-1" || id != "cid" || secret != "csecret" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1b"}`))
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	p.url = ts.URL
	return p
}

func (p *oauthPeer) seen() ([]string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.bearers...), p.refreshs
}

// all is every Authorization value the MCP endpoint saw.
func (p *oauthPeer) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append(append([]string(nil), p.bearers...), p.others...)
}

// logBuffer is a concurrency-safe log sink.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestOAuth(t *testing.T) {
	t.Parallel()
	var logs logBuffer
	peer := newOAuthPeer(t)
	f := setup(t, projectopstest.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	p := f.WS.ProjectID
	mcpURL := peer.url + "/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL,
		UseOAuth: true, OAuthTokenURL: peer.url + "/token"}))
	rec := &recorder{RT: f.Srv.Transport()}
	c := f.Client(t, option.WithTransport(rec), option.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ctx := t.Context()

	co, err := c.Servers.CheckOAuth(ctx, p, id)
	if err != nil || !co.UseOAuth || !co.RequiresAuthorization || co.EffectiveAuthMethod != "oauth" ||
		co.ServerURL == nil || *co.ServerURL != mcpURL {
		t.Fatalf("CheckOAuth = %+v, %v", co, err)
	}
	// No grant yet: 401 OAUTH_REQUIRED without contacting the server.
	_, err = c.Servers.ListTools(ctx, p, id, nil)
	wantError(t, err, projectops.CodeOAuthRequired, true)
	if b := peer.all(); len(b) != 0 {
		t.Fatalf("server contacted without a grant: %v", b)
	}
	// The doctor has no such check: it asks without a token, and the
	// server's 401 makes the report oauth_required.
	rep, err := c.Servers.Doctor(ctx, p, id)
	if err != nil || rep.Status != servers.DoctorOAuthRequired || rep.Connection.Status != servers.ConnectionSkipped ||
		rep.Error == nil || rep.Error.Code != projectops.CodeOAuthRequired ||
		rep.Connection.Detail != "Server requires OAuth before a connection can be established." {
		t.Fatalf("Doctor = %+v, %v", rep, err)
	}
	tokenless, _ := peer.seen()
	if len(tokenless) == 0 || slices.ContainsFunc(tokenless, func(h string) bool { return h != "" }) {
		t.Fatalf("doctor without a grant sent %q, want tokenless requests", tokenless)
	}

	// A valid access token is injected as the bearer.
	res, err := c.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		Tokens: servers.Tokens{AccessToken: "at-good", ExpiresIn: 3600, TokenType: "Bearer"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Imported || res.ExpiresAt == nil || !res.ExpiresAt.Time().Equal(t0.Add(time.Hour)) {
		t.Errorf("ImportTokens = %+v", res)
	}
	if _, err := collect(c.Servers.AllTools(ctx, p, id, nil)); err != nil {
		t.Fatal(err)
	}
	if rep, err := c.Servers.Doctor(ctx, p, id); err != nil || rep.Status != servers.DoctorReady {
		t.Fatalf("Doctor with a grant = %+v, %v", rep, err)
	}
	if b, _ := peer.seen(); len(b) <= len(tokenless) || b[len(tokenless)] != "Bearer at-good" {
		t.Errorf("bearers = %v", b)
	}

	// An expiring token with a refresh token is refreshed server-side.
	_, err = c.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
		Tokens:            servers.Tokens{AccessToken: "at-stale", RefreshToken: "rt-1", ExpiresIn: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "ping"}); err != nil {
			t.Fatal(err)
		}
	}
	b, refreshes := peer.seen()
	if refreshes != 1 || b[len(b)-1] != "Bearer at-2" {
		t.Errorf("refreshes = %d, last bearer %q", refreshes, b[len(b)-1])
	}
	for _, h := range peer.all() {
		if h == "Bearer at-stale" {
			t.Error("the expired access token was sent")
		}
	}

	// A refresh the token endpoint refuses ends in OAUTH_REQUIRED.
	_, err = c.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
		Tokens:            servers.Tokens{AccessToken: "at-stale", RefreshToken: "rt-revoked", ExpiresIn: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Servers.ListTools(ctx, p, id, nil)
	wantError(t, err, projectops.CodeOAuthRequired, true)

	// No token or client secret appears in any response, log or error.
	secretsSeen := []string{"at-good", "at-stale", "at-2", "rt-1", "rt-revoked", "csecret"}
	for _, x := range rec.Exchanges() {
		for _, s := range secretsSeen {
			if strings.Contains(string(x.Body), s) {
				t.Errorf("%s %s: body contains %q", x.Method, x.Path, s)
			}
		}
	}
	for _, s := range secretsSeen {
		if strings.Contains(logs.String(), s) {
			t.Errorf("logs contain %q", s)
		}
		if strings.Contains(err.Error(), s) {
			t.Errorf("error contains %q", s)
		}
	}
}

// An imported token expires on the double's clock (WithClock), as the
// expiresAt it reports does: advancing the clock past it ends a grant
// that cannot be refreshed, and refreshes one that can.
func TestImportedTokenExpiresOnTheDoublesClock(t *testing.T) {
	t.Parallel()
	peer := newOAuthPeer(t)
	f := setup(t)
	p := f.WS.ProjectID
	mcpURL := peer.url + "/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL,
		UseOAuth: true, OAuthTokenURL: peer.url + "/token"}))
	ctx := t.Context()
	res, err := f.C.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		Tokens: servers.Tokens{AccessToken: "at-good", ExpiresIn: 3600}})
	if err != nil || res.ExpiresAt == nil {
		t.Fatalf("ImportTokens = %+v, %v", res, err)
	}
	if _, err := f.C.Servers.ListTools(ctx, p, id, nil); err != nil {
		t.Fatal(err)
	}
	f.Clock.Advance(2 * time.Hour)
	_, err = f.C.Servers.ListTools(ctx, p, id, nil)
	wantError(t, err, projectops.CodeOAuthRequired, true)

	// With a refresh token, the expired token is refreshed instead.
	_, err = f.C.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
		Tokens:            servers.Tokens{AccessToken: "at-good", RefreshToken: "rt-1", ExpiresIn: 3600}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.C.Servers.ListTools(ctx, p, id, nil); err != nil {
		t.Fatal(err)
	}
	if _, refreshes := peer.seen(); refreshes != 0 {
		t.Fatalf("refreshed a token that had not expired on the clock: %d", refreshes)
	}
	f.Clock.Advance(2 * time.Hour)
	if _, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "ping"}); err != nil {
		t.Fatal(err)
	}
	if b, refreshes := peer.seen(); refreshes != 1 || b[len(b)-1] != "Bearer at-2" {
		t.Errorf("refreshes = %d, last bearer %q", refreshes, b[len(b)-1])
	}
}

func TestOAuthGrantIsPerUser(t *testing.T) {
	t.Parallel()
	peer := newOAuthPeer(t)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: peer.url + "/mcp", UseOAuth: true}))
	if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: peer.url + "/mcp",
		Tokens: servers.Tokens{AccessToken: "at-good"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.C.Servers.ListTools(t.Context(), p, id, nil); err != nil {
		t.Fatal(err)
	}
	member := addUser(t, f, projectopstest.RoleMember)
	_, err := member.Servers.ListTools(t.Context(), p, id, nil)
	wantError(t, err, projectops.CodeOAuthRequired, true)
}

func TestServerRefusingCredentialsIsOAuthRequired(t *testing.T) {
	t.Parallel()
	peer := newOAuthPeer(t)
	f := setup(t)
	// Saved without useOAuth, but the endpoint answers 401.
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "surprise", URL: peer.url + "/mcp"}))
	_, err := f.C.Servers.Validate(t.Context(), f.WS.ProjectID, id)
	wantError(t, err, projectops.CodeOAuthRequired, true)
	// The doctor reports it as the service's does when its probe finds a
	// server demanding OAuth of a caller with no token: not connected.
	rep, err := f.C.Servers.Doctor(t.Context(), f.WS.ProjectID, id)
	if err != nil || rep.Status != servers.DoctorOAuthRequired || rep.Connection.Status != servers.ConnectionSkipped {
		t.Fatalf("Doctor = %+v, %v", rep, err)
	}
	// Its error is the service's, word for word (the service's also
	// carries its OAuth discovery's findings in the details).
	const want = "Server requires OAuth before it can be connected. Run an OAuth login flow first."
	if rep.Error == nil || rep.Error.Code != projectops.CodeOAuthRequired || rep.Error.Message != want {
		t.Errorf("oauth_required report's error %+v, want OAUTH_REQUIRED %q", rep.Error, want)
	}
}

// A server saved without OAuth that answers 403 refuses the double outright:
// no grant to import would help, so the answer is 403 FORBIDDEN (the
// service's code for an upstream auth refusal), not OAUTH_REQUIRED.
func TestServerForbiddingIsForbidden(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "forbidden", http.StatusForbidden)
	}))
	t.Cleanup(hs.Close)
	f := setup(t)
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "walled", URL: hs.URL}))
	_, err := f.C.Servers.Validate(t.Context(), f.WS.ProjectID, id)
	wantError(t, err, projectops.CodeForbidden, true)
	// The doctor's report carries the service's MCP client's code for a
	// refused connection instead.
	rep, err := f.C.Servers.Doctor(t.Context(), f.WS.ProjectID, id)
	if err != nil || rep.Status != servers.DoctorError || rep.Error == nil || rep.Error.Code != servers.ReportCodeAuthError {
		t.Fatalf("Doctor = %+v, %v; want status error with an AUTH_ERROR error", rep, err)
	}
	_, err = f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
	wantError(t, err, projectops.CodeForbidden, true)
}

// wantDoctorRefused checks a report of a server that refused the doctor's
// connection with status: the service's doctor reports oauth_required
// only when its probe's 401 made it skip connecting, which credentials
// prevent; a connection that failed is status error, whatever the
// failure. Its AUTH_ERROR is the service's MCPAuthError as it serialises,
// without a message (the text is the connection's detail), with the
// status in statusCode and no details, whatever the path to it.
func wantDoctorRefused(t *testing.T, rep *servers.DoctorReport, status int) {
	t.Helper()
	if rep.Status != servers.DoctorError || rep.Connection.Status != servers.ConnectionError ||
		rep.Checks.Connection == nil || rep.Checks.Connection.Status != servers.CheckError ||
		rep.Error == nil || rep.Error.Code != servers.ReportCodeAuthError {
		t.Errorf("doctor of a server refusing the connection: status %q, connection %+v, error %+v; want error, connection error, AUTH_ERROR",
			rep.Status, rep.Connection, rep.Error)
		return
	}
	if rep.Error.Message != "" || rep.Connection.Detail == "" {
		t.Errorf("AUTH_ERROR message %q, connection detail %q; want no message, the text in the detail", rep.Error.Message, rep.Connection.Detail)
	}
	if rep.Error.StatusCode != status || rep.Error.Details != nil {
		t.Errorf("AUTH_ERROR statusCode %d, details %#v; want %d and no details", rep.Error.StatusCode, rep.Error.Details, status)
	}
}

// A saved "Authorization: Bearer ..." header is credentials to the
// service's doctor: a 401 does not skip the connection, which is then
// tried and fails. A header of another scheme is not.
func TestDoctorSavedBearerHeaderRefusedIsError(t *testing.T) {
	t.Parallel()
	peer := newOAuthPeer(t)
	f := setup(t)
	p := f.WS.ProjectID
	for i, h := range []map[string]projectopstest.Secret{
		{"Authorization": "Bearer static-refused-1234"},
		{"authorization": "bearer\tstatic-refused-1234"},
	} {
		id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: fmt.Sprint("static-bearer-", i), URL: peer.url + "/mcp", Headers: h}))
		rep, err := f.C.Servers.Doctor(t.Context(), p, id)
		if err != nil {
			t.Fatal(err)
		}
		wantDoctorRefused(t, rep, http.StatusUnauthorized)
	}
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "basic", URL: peer.url + "/mcp",
		Headers: map[string]projectopstest.Secret{"Authorization": "Basic dXNlcjpwYXNz"}}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil || rep.Status != servers.DoctorOAuthRequired || rep.Connection.Status != servers.ConnectionSkipped {
		t.Errorf("doctor with a saved Basic header the server refuses = %+v, %v; want oauth_required, connection skipped", rep, err)
	}
}

// With the caller's grant, the service's doctor goes on past its probe's
// 401 and connects; the server refusing the grant fails the connection.
func TestDoctorRefusedGrantIsError(t *testing.T) {
	t.Parallel()
	peer := newOAuthPeer(t)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: peer.url + "/mcp", UseOAuth: true}))
	if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: peer.url + "/mcp",
		Tokens: servers.Tokens{AccessToken: "at-refused"}}); err != nil {
		t.Fatal(err)
	}
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorRefused(t, rep, http.StatusUnauthorized)
}

// The service's probe reads only a 401 as a demand for OAuth: a 403 is a
// server reached, so the doctor connects, and fails, even for a server
// saved with useOAuth and no grant.
func TestDoctorOAuthServer403WithoutGrantIsError(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "forbidden", http.StatusForbidden)
	}))
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "forbids", URL: hs.URL + "/mcp", UseOAuth: true}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorRefused(t, rep, http.StatusForbidden)
}

func TestImportTokensPrintsNoSecret(t *testing.T) {
	t.Parallel()
	p := servers.ImportTokensParams{ServerURL: "https://x.test/mcp?k=tunnelsecret",
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
		Tokens:            servers.Tokens{AccessToken: "at-x", RefreshToken: "rt-x", IDToken: "id-x"}}
	b, _ := json.Marshal(p)
	for _, s := range []string{"%v", "%+v", "%#v", "%s"} {
		out := sprintf(s, p) + sprintf(s, &p) + sprintf(s, p.Tokens) + sprintf(s, *p.ClientInformation)
		for _, secret := range []string{"tunnelsecret", "csecret", "at-x", "rt-x", "id-x"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s shows %q: %s", s, secret, out)
			}
		}
	}
	// encoding/json (slog's JSON handler on a nested value) shows none of
	// them either; the request body alone carries them (the import tests above connect with them).
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "nested", []servers.ImportTokensParams{p}, "tokens", map[string]any{"t": p.Tokens})
	for _, secret := range []string{"tunnelsecret", "csecret", "at-x", "rt-x", "id-x"} {
		if strings.Contains(string(b), secret) || strings.Contains(logs.String(), secret) {
			t.Errorf("JSON shows %q: %s %s", secret, b, logs.String())
		}
	}
	if !strings.Contains(string(b), `"access_token":"[REDACTED]"`) {
		t.Errorf("JSON lost the tokens' shape: %s", b)
	}
}
