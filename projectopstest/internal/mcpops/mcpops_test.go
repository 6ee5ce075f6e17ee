package mcpops

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

var t0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// newLayer is a layer whose operations wait 5 s, closed when the test ends.
func newLayer(t *testing.T) *Layer {
	t.Helper()
	return layerWith(t, Config{Timeout: 5 * time.Second})
}

// layerWith is a layer with cfg's timeouts, closed when the test ends;
// the other settings are newLayer's.
func layerWith(t *testing.T, cfg Config) *Layer {
	t.Helper()
	cfg.Idle, cfg.CloseTimeout = time.Minute, time.Second
	cfg.Now = func() time.Time { return t0 }
	cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	l := New(ctx, cfg)
	t.Cleanup(func() { l.Close(); cancel() })
	return l
}

// echoServer has one tool and nothing else.
func echoServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Text string `json:"text"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	return s
}

func open(l *Layer, oauth bool) *Call {
	return l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_1", UseOAuth: oauth,
		URL: "http://inprocess.invalid/echo", Transport: servers.TransportHTTP,
		Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: echoServer()}})
}

// openGuarded is a server saved with useOAuth that demands it: every
// request is answered 401 with a bearer challenge.
func openGuarded(t *testing.T, l *Layer) *Call {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(hs.Close)
	return l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_g", UseOAuth: true,
		URL: hs.URL, Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportHTTP, URL: hs.URL}})
}

func TestOperations(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	ctx := t.Context()
	sc := open(l, false)

	page, herr := ListTools(ctx, sc, &ListBody{})
	var tool mcp.Tool
	if herr != nil || len(page.Items) != 1 || json.Unmarshal(page.Items[0], &tool) != nil || tool.Name != "echo" {
		t.Fatalf("ListTools = %s, %v", page.Items, herr)
	}
	raw, herr := CallTool(ctx, sc, &CallToolBody{CallToolParams: servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"text": "hi"}}})
	var res mcp.CallToolResult
	if herr != nil || json.Unmarshal(raw, &res) != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "hi" {
		t.Fatalf("CallTool = %s, %v", raw, herr)
	}
	if l.Sessions() != 0 {
		t.Errorf("Sessions = %d after two calls, want 0: each operation's session ends with it", l.Sessions())
	}
	if _, herr := ListPrompts(ctx, sc, &ListBody{}); herr == nil || herr.Body.Code != shared.CodeFeatureNotSupported {
		t.Errorf("ListPrompts on a tools-only server = %v, want FEATURE_NOT_SUPPORTED", herr)
	}
	if _, herr := CallTool(ctx, sc, &CallToolBody{CallToolParams: servers.CallToolParams{}}); herr == nil || herr.Body.Code != shared.CodeValidation {
		t.Errorf("CallTool without a name = %v, want VALIDATION_ERROR", herr)
	}

	rep, herr := Doctor(ctx, sc, nil)
	if herr != nil || rep.Status != servers.DoctorReady || len(rep.Tools) != 1 || rep.Checks.Prompts.Status != servers.CheckOK {
		t.Errorf("Doctor = %+v, %v", rep, herr)
	}
	if rep.GeneratedAt != jsISO(t0) {
		t.Errorf("Doctor.GeneratedAt = %v, want the layer's clock %v", rep.GeneratedAt, jsISO(t0))
	}
	snap, herr := Export(ctx, sc, nil)
	if herr != nil || len(snap.Tools) != 1 || snap.Prompts == nil || len(snap.Prompts) != 0 {
		t.Errorf("Export = %+v, %v", snap, herr)
	}

	l.DropSessions("srv_1")
	if l.Sessions() != 0 {
		t.Errorf("Sessions = %d after DropSessions", l.Sessions())
	}
}

func TestOAuthGrant(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	ctx := t.Context()
	sc := open(l, true)
	if _, herr := ListTools(ctx, sc, &ListBody{}); herr == nil || herr.Body.Code != shared.CodeOAuthRequired {
		t.Fatalf("ListTools without a grant = %v, want OAUTH_REQUIRED", herr)
	}
	// The doctor has no pre-connect check: without a grant it connects
	// without a token, so a server that answers anyway is ready, and one
	// that demands OAuth is oauth_required, not connected.
	if rep, herr := Doctor(ctx, sc, nil); herr != nil || rep.Status != servers.DoctorReady {
		t.Errorf("Doctor of an open server without a grant = %+v, %v; want ready", rep.Status, herr)
	}
	guarded := openGuarded(t, l)
	rep, herr := Doctor(ctx, guarded, nil)
	if herr != nil || rep.Status != servers.DoctorOAuthRequired || rep.Connection.Status != servers.ConnectionSkipped ||
		rep.Error == nil || rep.Error.Code != shared.CodeOAuthRequired {
		t.Errorf("Doctor of a server demanding OAuth without a grant = %+v, %v; want oauth_required, connection skipped", rep, herr)
	}
	same := func(given, saved string) bool { return given == saved }
	p := &servers.ImportTokensParams{ServerURL: "http://elsewhere.invalid/"}
	p.Tokens.AccessToken, p.Tokens.ExpiresIn = "at-1", 60
	if _, herr := ImportTokens(sc, p, same); herr == nil || herr.Body.Details["field"] != "serverUrl" {
		t.Errorf("ImportTokens for another URL = %v, want serverUrl refused", herr)
	}
	p.ServerURL = sc.URL
	res, herr := ImportTokens(sc, p, same)
	if herr != nil || !res.Imported || res.ExpiresAt == nil {
		t.Fatalf("ImportTokens = %+v, %v", res, herr)
	}
	if _, herr := ListTools(ctx, open(l, true), &ListBody{}); herr != nil {
		t.Errorf("ListTools with a grant: %v", herr)
	}
	// A grant the server refuses: connected with it, and failed, which
	// is an error report (oauth_required is only a skipped connection).
	p.ServerURL = guarded.URL
	if _, herr := ImportTokens(guarded, p, same); herr != nil {
		t.Fatal(herr)
	}
	rep, herr = Doctor(ctx, openGuarded(t, l), nil)
	if herr != nil || rep.Status != servers.DoctorError || rep.Connection.Status != servers.ConnectionError ||
		rep.Error == nil || rep.Error.Code != servers.ReportCodeAuthError {
		t.Errorf("Doctor with a refused grant = %+v, %v; want error, connection error, AUTH_ERROR", rep, herr)
	}
	other := l.Open(Call{UserID: "usr_2", ProjectID: "prj_1", ServerID: "srv_1", UseOAuth: true})
	if herr := other.Authorize(); herr == nil || herr.Body.Code != shared.CodeOAuthRequired {
		t.Errorf("another user's call = %v, want OAUTH_REQUIRED: grants are per user", herr)
	}
	if got, _ := CheckOAuth(ctx, sc); !got.UseOAuth || got.ServerURL == nil || *got.ServerURL != sc.URL {
		t.Errorf("CheckOAuth = %+v", got)
	}
}
