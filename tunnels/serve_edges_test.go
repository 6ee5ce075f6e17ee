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
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/tunnels"
)

// A public caller that goes away while its body is still being relayed
// releases the handler's body read with an error; it waited for the whole
// session to end.
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
		_ = c.Write(r.Context(), websocket.MessageText, tunnelwire.AppendHello(nil, "slug", tunnelwire.DefaultLimits))
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

// The edge forwards the public path and query as the caller sent them,
// secret included: the handler sees PublicPath and the sub-path after the
// tunnel's prefix, the query without k (however it is spelled), and a
// path outside the prefix, or another server's, never reaches it.
func TestEdgeURLMapsToPublicPath(t *testing.T) {
	t.Parallel()
	f := setup(t)
	seen := make(chan string, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.RequestURI
		_, _ = io.WriteString(w, r.URL.Path)
	})
	for url, want := range map[string]string{
		"/api/mcp/adapter-http/srv_1?k=s3cret":                  "/mcp",
		"/api/mcp/adapter-http/srv_1?k=s3cret&sessionId=a%20b":  "/mcp?sessionId=a%20b",
		"/api/mcp/adapter-http/srv_1/sse?a=1&%6B=s3cret&k=x&b=": "/mcp/sse?a=1&b=",
		"/api/mcp/adapter-http/srv_1/":                          "/mcp/",
		"/api/mcp/adapter-http/srv%5F1/x//y?k=s":                "/mcp/x//y",
		"/api/mcp/adapter-http/srv_2?k=s":                       "",
		"/api/mcp/adapter-http/?k=s":                            "",
		"/mcp?k=s":                                              "",
		"/api/mcp/adapter-http":                                 "",
	} {
		r := relayOnce(t, f, h, http.MethodGet, url, nil, nil)
		if want == "" {
			if r.status != http.StatusNotFound {
				t.Errorf("%s: %d, want 404", url, r.status)
			}
			select {
			case got := <-seen:
				t.Errorf("%s reached the handler as %s", url, got)
			default:
			}
			continue
		}
		if r.status != http.StatusOK {
			t.Errorf("%s: %d %+v", url, r.status, r)
			continue
		}
		if got := <-seen; got != want {
			t.Errorf("%s reached the handler as %s, want %s", url, got, want)
		}
	}
}

// Header names the edge sends in lower case reach the handler canonical,
// as net/http's server gives them; the forwarded host is the request's
// Host, a Referer naming the public URL has its secret redacted, and a
// request without a body (hasBody false) has none.
func TestEdgeHeadersReachTheHandler(t *testing.T) {
	t.Parallel()
	f := setup(t)
	seen := make(chan string, 2)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		seen <- fmt.Sprintf("%s|%d|%s|%s|%s|%q|%v|%v", r.Header.Get("Content-Type"), r.ContentLength, r.Host,
			r.Header.Get("X-Forwarded-For"), r.Header.Get("Referer"), b, err, r.Body == http.NoBody)
		w.Header().Set("X-Answer", "42")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, "made")
	})
	hdr := http.Header{"Content-Type": {"application/json"}, "Content-Length": {"2"},
		"X-Forwarded-Host": {"slug0001.tunnels.example"}, "X-Forwarded-For": {"203.0.113.9"},
		"Referer": {"https://slug0001.tunnels.example/api/mcp/adapter-http/srv_1?k=s3cret&x=1"}}
	r := relayOnce(t, f, h, http.MethodPost, "/api/mcp/adapter-http/srv_1?k=s3cret", hdr, []byte("{}"))
	if r.status != http.StatusCreated || r.header.Get("X-Answer") != "42" || r.body != "made" || r.abort != "" {
		t.Errorf("reply %+v", r)
	}
	want := `application/json|2|slug0001.tunnels.example|203.0.113.9|https://slug0001.tunnels.example/api/mcp/adapter-http/srv_1?k=REDACTED&x=1|"{}"|<nil>|false`
	if got := <-seen; got != want {
		t.Errorf("handler saw\n%s\nwant\n%s", got, want)
	}
	r = relayOnce(t, f, h, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	if got := <-seen; r.status != http.StatusCreated || !strings.HasSuffix(got, `|0||||""|<nil>|true`) {
		t.Errorf("a request without a body: %d, handler saw %s", r.status, got)
	}
}

// An edge sends a body's chunks as fast as it reads them, whatever the
// handler does: all of them are queued for the handler (within the
// hello's maxReqBody), so the session reads on and serves other streams
// while the handler has read nothing, and the handler then reads the body
// whole.
func TestEdgeBodyLongerThanAQueue(t *testing.T) {
	t.Parallel()
	f := setup(t)
	body := bytes.Repeat([]byte("b"), 3*tunnelwire.QueueLen*64<<10+5)
	sent := make(chan struct{})
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			_, _ = io.WriteString(w, "quick")
			return
		}
		<-sent
		b, _ := io.ReadAll(r.Body)
		_, _ = io.WriteString(w, strconv.Itoa(len(b)))
	}))
	c := e.next(t)
	c.req(1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, body)
	c.req(2, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	if r := c.response(2); r.body != "quick" {
		t.Fatalf("another stream while the first holds its whole body unread: %+v", r)
	}
	close(sent)
	if r := c.response(1); r.status != http.StatusOK || r.body != strconv.Itoa(len(body)) {
		t.Errorf("reply %+v, want %d bytes read", r, len(body))
	}
}

// A request body past the hello's maxReqBody aborts its stream with
// too_large, and the handler's read fails instead of seeing a clean end.
func TestEdgeBodyPastMaxReqBody(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 100 << 10, Chunk: 16 << 10, MaxInflight: 32})
	read := make(chan error, 1)
	started := make(chan struct{})
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
		_, err := io.ReadAll(r.Body)
		read <- err
	}))
	c := e.next(t)
	c.send(tunnelwire.AppendReq(nil, 1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, true, true))
	<-started
	for range 8 {
		c.send(tunnelwire.AppendChunk(nil, tunnelwire.ReqChunk, 1, make([]byte, 16<<10)))
	}
	if r := c.response(1); r.abort != tunnelwire.AbortTooLarge {
		t.Errorf("reply %+v, want an abort too_large", r)
	}
	if err := <-read; err == nil {
		t.Error("the handler read a body past the limit to a clean end")
	}
}

// An edge's abort (the public caller went away) cancels the handler's
// request; a handler that panics, or whose response head is too large,
// ends its stream with abort upstream_error, before or after its head.
func TestEdgeAborts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	cancelled := make(chan error, 1)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/mcp/wait":
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			cancelled <- r.Context().Err()
		case "/mcp/panic-late":
			_, _ = io.WriteString(w, "part")
			w.(http.Flusher).Flush()
			panic("late")
		case "/mcp/big-head":
			w.Header().Set("X-Big", strings.Repeat("x", tunnelwire.MaxControl))
		default:
			panic("early")
		}
	}))
	c := e.next(t)
	c.req(1, http.MethodGet, "/api/mcp/adapter-http/srv_1/wait", nil, nil)
	for {
		_, msg, err := c.r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if m, err := tunnelwire.DecodeControl(msg); err == nil && m.T == tunnelwire.Res && m.ID == 1 {
			break
		}
	}
	c.send(tunnelwire.AppendAbort(nil, 1, tunnelwire.AbortClientGone, ""))
	select {
	case err := <-cancelled:
		if err == nil {
			t.Error("the handler's context ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("an edge abort did not cancel the handler")
	}
	for id, path := range map[uint32]string{2: "/early", 3: "/panic-late", 4: "/big-head"} {
		c.req(id, http.MethodGet, "/api/mcp/adapter-http/srv_1"+path, nil, nil)
		r := c.response(id)
		if r.abort != tunnelwire.AbortUpstreamError {
			t.Errorf("%s: %+v, want an abort upstream_error", path, r)
		}
		if path == "/panic-late" && (r.status != http.StatusOK || r.body != "part") {
			t.Errorf("%s: the part written before the panic did not come first: %+v", path, r)
		}
	}
}

// The edge's close codes end Serve with the package's errors; 1012 (the
// edge restarting) after a session of a second or more makes Serve
// reconnect at once, whatever its backoff.
func TestEdgeCloseCodes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for code, want := range map[websocket.StatusCode]error{tunnelwire.CloseBadToken: tunnels.ErrTokenRejected,
		tunnelwire.CloseReplaced: tunnels.ErrReplaced, tunnelwire.CloseRevoked: tunnels.ErrRevoked} {
		e := newFakeEdge(t, tunnelwire.DefaultLimits)
		e.close = code
		err := f.C.Tunnels.Serve(t.Context(), e.grant(), echo, tunnels.WithHTTPClient(http.DefaultClient))
		if !errors.Is(err, want) {
			t.Errorf("close %d: Serve = %v, want %v", code, err, want)
		}
	}
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	connected := make(chan struct{}, 4)
	serveOn(t, f, e.grant(), echo, tunnels.WithReconnect(time.Hour, time.Hour, 0),
		tunnels.OnConnect(func() { connected <- struct{}{} }))
	first := e.next(t)
	<-connected
	time.Sleep(1100 * time.Millisecond) // a session that lasted a second: an edge that keeps restarting takes the backoff
	_ = first.c.Close(tunnelwire.CloseEdgeRestart, "restarting")
	second := e.next(t) // within next's 10 s, far below the hour of backoff
	if second.auth != "Bearer ct_x" {
		t.Errorf("reconnect sent Authorization %q", second.auth)
	}
}

// A relay that stops answering pings is taken for gone: Serve drops the
// session and connects again.
func TestHeartbeatDropsASilentRelay(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, f, e.grant(), echo, tunnels.WithHeartbeat(20*time.Millisecond), tunnels.WithReconnect(time.Millisecond, time.Millisecond, 0))
	silent := e.next(t) // never reads: pings go unanswered
	_ = silent
	e.next(t)
}

// A handler whose body is still coming starts without waiting for its
// end: a request that streams its body (or is slow to send it) is served
// as it arrives.
func TestHandlerStartsBeforeItsBodyEnds(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var first [5]byte
		if _, err := io.ReadFull(r.Body, first[:]); err != nil {
			return
		}
		_, _ = w.Write(first[:])
		w.(http.Flusher).Flush()
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	c := e.next(t)
	c.send(tunnelwire.AppendReq(nil, 1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, true, true),
		tunnelwire.AppendChunk(nil, tunnelwire.ReqChunk, 1, []byte("hello")))
	for { // no req_end yet: the response starts all the same
		typ, msg, err := c.r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if typ == websocket.MessageBinary {
			if ch, err := tunnelwire.DecodeChunk(msg); err != nil || string(ch.Payload) != "hello" {
				t.Fatalf("chunk %q, %v", msg, err)
			}
			break
		}
	}
	c.send(tunnelwire.AppendEnd(nil, tunnelwire.ReqEnd, 1))
	if r := c.response(1); r.abort != "" {
		t.Errorf("the stream ended with abort %s", r.abort)
	}
}

// A req that reuses a live stream's id ends the old stream: its handler's
// body read is released (it waited with no context), and the new request
// is served.
func TestReusedStreamIDReleasesTheOldBody(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	readErr, first := make(chan error, 1), make(chan struct{})
	var n atomic.Int32
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			close(first)
			_, err := io.ReadAll(r.Body) // no chunk comes
			readErr <- err
			return
		}
		_, _ = io.WriteString(w, "second")
	}))
	c := e.next(t)
	c.send(tunnelwire.AppendReq(nil, 1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, true, true))
	<-first
	c.req(1, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	if r := c.response(1); r.body != "second" {
		t.Fatalf("the second stream: %+v", r)
	}
	select {
	case err := <-readErr:
		if err == nil {
			t.Error("the replaced stream's body read to a clean end")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the replaced stream's body read still blocks")
	}
}

// An edge that closes with 1012 right after its hello, every time, is
// redialled with the backoff, not in a loop.
func TestEdgeRestartLoopBacksOff(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	e.close = tunnelwire.CloseEdgeRestart
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	_ = f.C.Tunnels.Serve(ctx, e.grant(), echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithReconnect(250*time.Millisecond, time.Second, 0))
	if n := e.dials.Load(); n > 10 {
		t.Errorf("%d dials in a second with a 250ms backoff", n)
	}
}

// A message the host cannot read (a binary message shorter than its
// header, text that is not JSON, a header "pair" of one string) is
// dropped, as the service's agent drops text that is not JSON; the
// session and its other streams go on.
func TestUnreadableMessagesAreDropped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, f, e.grant(), echo)
	c := e.next(t)
	c.send([]byte{tunnelwire.ReqChunk, 0, 0}, []byte("{not json"),
		[]byte(`{"t":"req","id":9,"method":"GET","url":"/api/mcp/adapter-http/srv_1","headers":[["a"]],"hasBody":false}`))
	c.req(1, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	if r := c.response(1); r.status != http.StatusAccepted || r.abort != "" {
		t.Errorf("after unreadable messages: %+v", r)
	}
}
