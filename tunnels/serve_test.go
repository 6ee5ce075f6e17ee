package tunnels_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// dropper is a RoundTripper that remembers upgraded connections so a test
// can cut them, as a network drop would.
type dropper struct {
	rt    http.RoundTripper
	mu    sync.Mutex
	conns []io.Closer
}

func (d *dropper) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := d.rt.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		d.mu.Lock()
		d.conns = append(d.conns, resp.Body)
		d.mu.Unlock()
	}
	return resp, err
}

func (d *dropper) drop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		_ = c.Close()
	}
	d.conns = nil
}

func TestReconnectsAfterDrop(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	drops := make(chan error, 4)
	h := serve(t, f, g, echo, tunnels.WithHTTPClient(&http.Client{Transport: d}),
		tunnels.OnDisconnect(func(err error) { drops <- err }))
	for range 2 {
		d.drop()
		h.waitConnected(t)
		if err := <-drops; err == nil || errors.Is(err, tunnels.ErrRevoked) {
			t.Errorf("disconnect cause %v", err)
		}
		if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusAccepted {
			t.Fatalf("after reconnecting: %d", status)
		}
	}
}

func TestReplacedByAnotherHost(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	first := serve(t, f, g, echo)
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "second") }))
	if err := first.wait(t); !errors.Is(err, tunnels.ErrReplaced) {
		t.Fatalf("first host = %v", err)
	}
	if _, body := get(t, f, http.MethodGet, g.URL, ""); body != "second" {
		t.Errorf("served by %q", body)
	}
}

func TestServeArguments(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	for _, tt := range []struct {
		g *tunnels.Grant
		h http.Handler
	}{{nil, echo}, {&tunnels.Grant{}, echo}, {g, nil}} {
		if err := f.C.Tunnels.Serve(t.Context(), tt.g, tt.h); err == nil {
			t.Errorf("Serve(%v, %v) succeeded", tt.g, tt.h)
		}
	}
	// A relay that cannot be reached is retried until the give-up time.
	bad := *g
	bad.RelayWSURL = "ws://127.0.0.1:1/tunnels/agent"
	err := f.C.Tunnels.Serve(t.Context(), &bad, echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithReconnect(time.Millisecond, 2*time.Millisecond, 20*time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), "gave up") || strings.Contains(err.Error(), g.ConnectToken) {
		t.Errorf("unreachable relay: %v", err)
	}
}

// A caller's own HTTP client keeps the SDK's redirect rules: a relay that
// redirects the dial to another port never sees the connect token there.
func TestServeOwnClientKeepsTokenOnOrigin(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization"))
		mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer other.Close()
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer relay.Close()
	g := &tunnels.Grant{RelayWSURL: "ws" + strings.TrimPrefix(relay.URL, "http") + "/agent", ConnectToken: "tok-CONNECT"}
	err := f.C.Tunnels.Serve(t.Context(), g, echo, tunnels.WithHTTPClient(&http.Client{}),
		tunnels.WithReconnect(time.Millisecond, 2*time.Millisecond, 20*time.Millisecond))
	if err == nil {
		t.Fatal("Serve succeeded against a redirecting relay")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) == 0 {
		t.Fatal("the redirect was not followed at all: the test proves nothing")
	}
	for _, a := range leaked {
		if a != "" {
			t.Fatalf("the other origin got Authorization %q", a)
		}
	}
}

// The relay endpoint checks the subprotocol before upgrading; a missing,
// wrong or foreign token is accepted and then closed with 4000, as the
// service's edge does (its agent reads 4000 as a bad or expired token).
func TestRelayHandshakeChecks(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	for _, tt := range []struct {
		name, proto, auth string
		status            int
	}{
		{"no subprotocol", "", "Bearer " + g.ConnectToken, http.StatusBadRequest},
		{"other subprotocol", "chat", "Bearer " + g.ConnectToken, http.StatusBadRequest},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.RelayWSURL, nil)
		req.URL.Scheme = "http"
		for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket",
			"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
			"Sec-WebSocket-Protocol": tt.proto, "Authorization": tt.auth} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		resp, err := f.Srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !bytes.Contains(b, []byte(`"code"`)) {
			t.Errorf("%s: %d %s", tt.name, resp.StatusCode, b)
		}
	}
	for name, auth := range map[string]string{"no token": "", "wrong token": "Bearer ct_nope",
		"API key instead": "Bearer " + f.WS.APIKey} {
		hdr := http.Header{}
		if auth != "" {
			hdr.Set("Authorization", auth)
		}
		conn, _, err := websocket.Dial(t.Context(), g.RelayWSURL, &websocket.DialOptions{HTTPClient: f.Srv.Client(),
			HTTPHeader: hdr, Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			t.Errorf("%s: dial: %v", name, err)
			continue
		}
		_, msg, err := conn.Read(t.Context())
		if websocket.CloseStatus(err) != tunnelwire.CloseBadToken {
			t.Errorf("%s: read %q, %v; want close 4000", name, msg, err)
		}
		_ = conn.CloseNow()
	}
	// Serve reads that close as a rejected token, and stops.
	bad := *g
	bad.ConnectToken = "ct_nope"
	if err := f.C.Tunnels.Serve(t.Context(), &bad, echo); !errors.Is(err, tunnels.ErrTokenRejected) {
		t.Errorf("Serve with a wrong token = %v, want ErrTokenRejected", err)
	}
}

// Nothing prints or logs a grant's secrets: not fmt, not slog, not the
// double's logs and request log, not Serve's errors and logs.
func TestSecretsNeverShown(t *testing.T) {
	t.Parallel()
	logs := &syncWriter{w: &bytes.Buffer{}}
	lh := slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})
	f := setup(t, projectopstest.WithLogger(slog.New(lh)))
	g := create(t, f, "local")
	k := secretOf(t, g)
	h := serve(t, f, g, echo, tunnels.WithLogger(slog.New(lh)))
	get(t, f, http.MethodGet, g.URL, "")
	get(t, f, http.MethodGet, g.URL+"x", "")
	if _, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID); err != nil {
		t.Fatal(err)
	}
	serveErr := h.wait(t)
	slog.New(lh).Info("grant", "grant", g, "value", *g)

	var shown bytes.Buffer
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		fmtf(&shown, verb, g)
		fmtf(&shown, verb, *g)
		fmtf(&shown, verb, struct{ G tunnels.Grant }{*g})
	}
	shown.WriteString(g.String() + g.PublicURL() + serveErr.Error())
	for _, r := range f.Srv.Requests() {
		fmtf(&shown, "%+v", r)
	}
	for name, text := range map[string]string{"printed": shown.String(), "logged": logs.String()} {
		for _, secret := range []string{k, g.ConnectToken} {
			if strings.Contains(text, secret) {
				t.Errorf("%s text contains a secret:\n%s", name, text)
			}
		}
	}
	if !strings.Contains(shown.String(), g.Slug) || !strings.Contains(logs.String(), "tunnel connected") {
		t.Errorf("the redacted output lost the useful parts:\n%s\n%s", shown.String(), logs.String())
	}
}

// A handler that ignores its context does not hold up reconnecting after
// a network drop (the session waited for every handler), and what it
// writes once its stream is gone goes nowhere: its writes fail.
func TestHungHandlerDoesNotHoldUpReconnect(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	d := &dropper{rt: f.Srv.Transport()}
	release, entered, wrote := make(chan struct{}), make(chan struct{}, 1), make(chan error, 1)
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	h := serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("hang") {
			entered <- struct{}{}
			<-release
			_, err := io.WriteString(w, "late")
			wrote <- err
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}), tunnels.WithHTTPClient(&http.Client{Transport: d}))
	called := make(chan struct{})
	go func() {
		defer close(called)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL+"&hang=1", nil)
		if resp, err := f.Srv.Client().Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-entered
	d.drop()
	select {
	case <-h.connected:
	case <-time.After(10 * time.Second):
		t.Fatal("no reconnect after a drop while a handler ignores its context")
	}
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusAccepted {
		t.Errorf("after reconnecting: %d", status)
	}
	free()
	if err := <-wrote; err == nil {
		t.Error("a handler's write after its session ended succeeded")
	}
	<-called
}

// Serve returns when its context ends even while a handler ignores its
// context (it waited for every handler).
func TestServeReturnsDespiteHungHandler(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	release, entered, connected := make(chan struct{}), make(chan struct{}, 1), make(chan struct{}, 1)
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- f.C.Tunnels.Serve(ctx, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			entered <- struct{}{}
			<-release
		}), fastReconnect, tunnels.OnConnect(func() { connected <- struct{}{} }))
	}()
	<-connected
	called := make(chan struct{})
	go func() {
		defer close(called)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
		if resp, err := f.Srv.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v, want the context's error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended while a handler ignores its context")
	}
	<-called
}
