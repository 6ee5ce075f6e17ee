package tunnels_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/tunnels"
)

// A public caller that goes away while its body is still being relayed
// (larger than the credit window) releases the handler's body read with an
// error; it waited for the whole session to end.
func TestCallerGoneMidBodyReleasesBodyRead(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	started, readDone := make(chan struct{}), make(chan error, 1)
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var one [1]byte
		if _, err := io.ReadFull(r.Body, one[:]); err != nil {
			readDone <- err
			return
		}
		close(started)
		<-r.Context().Done() // the caller went away: the host was told
		_, err := io.ReadAll(r.Body)
		readDone <- err
	}))
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-started; cancel() }()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, g.URL, strings.NewReader(strings.Repeat("x", 1<<20)))
	if resp, err := f.Srv.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("request succeeded")
	}
	select {
	case err := <-readDone:
		if err == nil {
			t.Error("the body of a cancelled request read to a clean end")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's body read still hangs after the caller went away")
	}
}

// ProxyTo forwards PublicPath to target's path as given, its trailing
// slash too (servers mounted at /mcp/ redirect /mcp to their own address).
func TestProxyToKeepsTrailingSlash(t *testing.T) {
	t.Parallel()
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.URL.RequestURI())
	}))
	defer local.Close()
	for target, want := range map[string]string{"/srv/mcp/": "/srv/mcp/", "/srv/mcp": "/srv/mcp"} {
		u, _ := url.Parse(local.URL + target)
		h, err := tunnels.ProxyTo(u)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, tunnels.PublicPath, nil))
		if rec.Code != http.StatusOK || rec.Body.String() != want {
			t.Errorf("target %s: %d %q, want %q", target, rec.Code, rec.Body.String(), want)
		}
	}
}

// Serve returns soon after its context ends even when the relay stopped
// answering (it waited out websocket's 5 s close handshake), and
// OnDisconnect hears of that last session's end with ctx's error.
func TestServeStopsWithSilentRelay(t *testing.T) {
	t.Parallel()
	f := setup(t)
	release := make(chan struct{})
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			return
		}
		_ = c.Write(r.Context(), websocket.MessageBinary, tunnelwire.Encode(tunnelwire.Ready, 0, nil))
		<-release // then silence
		_ = c.CloseNow()
	}))
	defer relay.Close()
	defer close(release)
	g := &tunnels.Grant{RelayWSURL: "ws" + strings.TrimPrefix(relay.URL, "http"), ConnectToken: "ct_x"}
	ctx, cancel := context.WithCancel(context.Background())
	conn, disc, done := make(chan struct{}, 1), make(chan error, 1), make(chan error, 1)
	go func() {
		done <- f.C.Tunnels.Serve(ctx, g, echo, tunnels.WithHTTPClient(http.DefaultClient),
			tunnels.OnConnect(func() { conn <- struct{}{} }), tunnels.OnDisconnect(func(err error) { disc <- err }))
	}()
	<-conn
	cancel()
	start := time.Now()
	select {
	case err := <-done:
		if d := time.Since(start); d > 3*time.Second || !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v, %v after its context ended", err, d)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return")
	}
	select {
	case err := <-disc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("OnDisconnect(%v), want the context's error", err)
		}
	default:
		t.Error("the live session ended but OnDisconnect was never called")
	}
}

// relayHead relays one request head, with an empty body, from a minimal
// relay of its own to Serve with h, as a relay other than the double's
// may send it, and returns the response head's status.
func relayHead(t *testing.T, f *fixture, h http.Handler, head *tunnelwire.Head) int {
	t.Helper()
	req, err := tunnelwire.EncodeHead(tunnelwire.Request, 1, head)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan int, 1)
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(tunnelwire.MaxMessage)
		ctx := r.Context()
		for _, m := range [][]byte{tunnelwire.Encode(tunnelwire.Ready, 0, nil), req, tunnelwire.Encode(tunnelwire.End, 1, nil)} {
			if err := c.Write(ctx, websocket.MessageBinary, m); err != nil {
				return
			}
		}
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			fr, err := tunnelwire.Decode(msg)
			if err != nil || fr.ID != 1 || fr.Kind != tunnelwire.Response && fr.Kind != tunnelwire.End {
				continue
			}
			status := 0 // an End before the head: the request failed
			if fr.Kind == tunnelwire.Response {
				if rh, err := tunnelwire.DecodeHead(fr.Payload); err == nil {
					status = rh.Status
				}
			}
			select {
			case got <- status:
			default: // a session after a reconnect
			}
		} // reads on until Serve ends the session
	}))
	defer relay.Close()
	g := &tunnels.Grant{RelayWSURL: "ws" + strings.TrimPrefix(relay.URL, "http"), ConnectToken: "ct_x"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.C.Tunnels.Serve(ctx, g, h, tunnels.WithHTTPClient(http.DefaultClient)) }()
	defer func() { cancel(); <-done }()
	select {
	case status := <-got:
		return status
	case <-time.After(10 * time.Second):
		t.Fatal("no response head")
		return 0
	}
}

// A relayed uri is origin-form: "//evil.example/mcp" is a path, not an
// authority and the path /mcp, so ProxyTo answers 404 (it served /mcp).
func TestProxyToDoubleSlashURI(t *testing.T) {
	t.Parallel()
	f := setup(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer local.Close()
	tu, _ := url.Parse(local.URL + "/mcp")
	ph, err := tunnels.ProxyTo(tu)
	if err != nil {
		t.Fatal(err)
	}
	// The bare root ("" or a query alone) is "/".
	for uri, want := range map[string]int{"//evil.example/mcp": http.StatusNotFound, "/mcp": http.StatusOK,
		"": http.StatusNotFound, "?a=b": http.StatusNotFound} {
		if status := relayHead(t, f, ph, &tunnelwire.Head{Method: http.MethodGet, URI: uri}); status != want {
			t.Errorf("uri %s: %d, want %d", uri, status, want)
		}
	}
}

// Header names a relay sends in lower case (Node's relays do) reach the
// handler canonical, as net/http's server gives them: Content-Type and
// Content-Length are found.
func TestLowercaseRequestHeaderNames(t *testing.T) {
	t.Parallel()
	f := setup(t)
	seen := make(chan string, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- fmt.Sprintf("%s %d", r.Header.Get("Content-Type"), r.ContentLength)
	})
	head := &tunnelwire.Head{Method: http.MethodPost, URI: "/mcp",
		Header: http.Header{"content-type": {"application/json"}, "content-length": {"0"}}}
	if status := relayHead(t, f, h, head); status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	if got := <-seen; got != "application/json 0" {
		t.Errorf("handler saw Content-Type and length %q, want %q", got, "application/json 0")
	}
}

// A relay that keeps to no window (it did not offer credit) may send a
// request's head and more of its body than a stream queues in one
// message: the handler runs while the host waits for room, and reads the
// body whole.
func TestNonCreditRelayBodyLongerThanTheQueue(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const chunks = 3 * tunnelwire.QueueLen
	chunk := bytes.Repeat([]byte("b"), 1024)
	var g tunnelwire.Group
	g, err := g.AppendHead(tunnelwire.Request, 1, &tunnelwire.Head{Method: http.MethodPost, URI: "/mcp",
		Header: http.Header{"Content-Length": {strconv.Itoa(chunks * len(chunk))}}})
	if err != nil {
		t.Fatal(err)
	}
	for range chunks {
		g = g.Append(tunnelwire.Data, 1, chunk)
	}
	g = g.AppendEnd(1, nil)
	got := make(chan string, 1)
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(tunnelwire.MaxMessage)
		ctx := r.Context()
		if c.Write(ctx, websocket.MessageBinary, tunnelwire.Encode(tunnelwire.Ready, 0, []byte(tunnelwire.FeatureBatch))) != nil ||
			tunnelwire.NewWriter(c, true).Send(g) != nil { // one message: head, every chunk, end
			return
		}
		var body []byte
		rd := tunnelwire.NewReader(c)
		for {
			_, msg, err := rd.Read()
			if err != nil {
				return
			}
			var take func(fr tunnelwire.Frame) error
			take = func(fr tunnelwire.Frame) error {
				switch {
				case fr.Kind == tunnelwire.Batch:
					return tunnelwire.SplitBatch(fr.Payload, take)
				case fr.ID == 1 && fr.Kind == tunnelwire.Data:
					body = append(body, fr.Payload...)
				case fr.ID == 1 && fr.Kind == tunnelwire.End:
					select {
					case got <- string(body):
					default:
					}
				}
				return nil
			}
			if fr, err := tunnelwire.Decode(msg); err == nil {
				_ = take(fr)
			}
		}
	}))
	defer relay.Close()
	grant := &tunnels.Grant{RelayWSURL: "ws" + strings.TrimPrefix(relay.URL, "http"), ConnectToken: "ct_x"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_, _ = io.WriteString(w, strconv.Itoa(len(b)))
	})
	go func() { done <- f.C.Tunnels.Serve(ctx, grant, h, tunnels.WithHTTPClient(http.DefaultClient)) }()
	defer func() { cancel(); <-done }()
	select {
	case n := <-got:
		if n != strconv.Itoa(chunks*len(chunk)) {
			t.Errorf("the handler read %s bytes, want %d", n, chunks*len(chunk))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no response: the host waited for room no handler made")
	}
}
