package projectopstest_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/projectopstest"
)

// The relay's agent side as the service's CLI agent speaks it: messages
// written and read by hand here, not with the SDK's codec, so that the
// double's edge is held to the wire format itself.

// edgeMsg is a message the edge sent to the agent.
type edgeMsg struct {
	T      string `json:"t"`
	ID     uint32 `json:"id"`
	Proto  int    `json:"proto"`
	Slug   string `json:"slug"`
	Limits *struct {
		MaxReqBody, Chunk, MaxInflight int64
	} `json:"limits"`
	Method  string      `json:"method"`
	URL     string      `json:"url"`
	Headers [][2]string `json:"headers"`
	HasBody *bool       `json:"hasBody"`
	Code    string      `json:"code"`

	binary  bool // a chunk: kind, ID and payload
	kind    byte
	payload []byte
}

// header is the value of the first header pair named name, exactly.
func (m edgeMsg) header(name string) string {
	for _, kv := range m.Headers {
		if kv[0] == name {
			return kv[1]
		}
	}
	return ""
}

// agent is a hand-written tunnel agent on a relay WebSocket.
type agent struct {
	t      *testing.T
	conn   *websocket.Conn
	hello  edgeMsg
	in     chan edgeMsg
	closed chan struct{} // closed when reads end; err says why
	err    error
}

// relayWait bounds the relay tests' waits: a hang fails, while a CI
// machine whose two cores are busy still has time to answer.
const relayWait = 30 * time.Second

// dialAgent dials the grant's relay as an agent with token; it does not
// read the hello.
func dialAgent(t *testing.T, client *http.Client, relayURL, token string) *agent {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), relayWait)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, relayURL, &websocket.DialOptions{HTTPClient: client,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}, Subprotocols: []string{"mcpjam-tunnel.v1"}})
	if err != nil {
		t.Fatalf("dial the relay: %v", err)
	}
	if conn.Subprotocol() != "mcpjam-tunnel.v1" {
		t.Errorf("subprotocol %q", conn.Subprotocol())
	}
	conn.SetReadLimit(2 << 20)
	a := &agent{t: t, conn: conn, in: make(chan edgeMsg, 256), closed: make(chan struct{})}
	go a.read()
	t.Cleanup(func() {
		_ = conn.CloseNow()
		<-a.closed
	})
	return a
}

func (a *agent) read() {
	defer close(a.closed)
	defer close(a.in)
	for {
		typ, msg, err := a.conn.Read(context.Background())
		if err != nil {
			a.err = err
			return
		}
		var m edgeMsg
		if typ == websocket.MessageBinary {
			if len(msg) < 5 {
				a.t.Errorf("binary message of %d bytes", len(msg))
				continue
			}
			m = edgeMsg{binary: true, kind: msg[0], ID: binary.BigEndian.Uint32(msg[1:5]), payload: msg[5:]}
		} else if err := json.Unmarshal(msg, &m); err != nil {
			a.t.Errorf("text message %q: %v", msg, err)
			continue
		}
		a.in <- m
	}
}

// next is the next message from the edge, waiting up to relayWait.
func (a *agent) next() edgeMsg {
	a.t.Helper()
	select {
	case m, ok := <-a.in:
		if !ok {
			a.t.Fatalf("the relay closed the session: %v", a.err)
		}
		return m
	case <-time.After(relayWait):
		a.t.Fatal("no message from the relay")
	}
	return edgeMsg{}
}

// closeCode waits for the edge to close the session and returns its code.
func (a *agent) closeCode() websocket.StatusCode {
	a.t.Helper()
	timeout := time.After(relayWait)
	for {
		select {
		case _, ok := <-a.in:
			if !ok {
				return websocket.CloseStatus(a.err)
			}
		case <-timeout:
			a.t.Fatal("the relay did not close the session")
		}
	}
}

// sendText and sendChunk write messages as the agent does.
func (a *agent) sendText(format string, args ...any) {
	a.t.Helper()
	if err := a.conn.Write(context.Background(), websocket.MessageText, fmt.Appendf(nil, format, args...)); err != nil {
		a.t.Fatal(err)
	}
}

func (a *agent) sendChunk(id uint32, payload string) {
	a.t.Helper()
	msg := binary.BigEndian.AppendUint32([]byte{0x02}, id)
	if err := a.conn.Write(context.Background(), websocket.MessageBinary, append(msg, payload...)); err != nil {
		a.t.Fatal(err)
	}
}

// relayFixture is a double on loopback with one tunnel.
type relayFixture struct {
	srv      *projectopstest.Server
	tg       target
	grant    map[string]any
	publicU  *url.URL // the grant's public URL
	relayURL string
	token    string
	serverID string
}

func newRelayFixture(t *testing.T, loopback bool, opts ...projectopstest.Option) *relayFixture {
	t.Helper()
	srv := projectopstest.NewTestServer(t, append([]projectopstest.Option{noLimit}, opts...)...)
	tg := inproc(srv)
	if loopback {
		tg = targets(t, srv)[1]
	}
	ws := srv.Default()
	f := &relayFixture{srv: srv, tg: tg, grant: createTunnelRaw(t, tg, ws.ProjectID, ws.APIKey, "local")}
	f.relayURL, _ = f.grant["relayWsUrl"].(string)
	f.token, _ = f.grant["connectToken"].(string)
	f.serverID, _ = f.grant["serverId"].(string)
	raw, _ := f.grant["url"].(string)
	var err error
	if f.publicU, err = url.Parse(raw); err != nil {
		t.Fatal(err)
	}
	return f
}

// dial connects an agent with the grant's token and checks its hello.
func (f *relayFixture) dial(t *testing.T) *agent {
	t.Helper()
	a := dialAgent(t, f.tg.client, f.relayURL, f.token)
	a.hello = a.next()
	if h := a.hello; h.T != "hello" || h.Proto != 1 || h.Slug != f.grant["slug"] || h.Limits == nil ||
		h.Limits.MaxReqBody != 10<<20 || h.Limits.Chunk != 64<<10 || h.Limits.MaxInflight != 32 {
		t.Fatalf("hello %+v (limits %+v), want proto 1, slug %v and the service's limits", h, h.Limits, f.grant["slug"])
	}
	return a
}

// public sends a request to the tunnel's public URL with extra path and
// query, on its own goroutine.
func (f *relayFixture) public(ctx context.Context, method, extraPath, extraQuery string, body io.Reader) <-chan *http.Response {
	u := *f.publicU
	u.Path += extraPath
	u.RawPath = ""
	if extraQuery != "" {
		u.RawQuery += "&" + extraQuery
	}
	req, _ := http.NewRequestWithContext(ctx, method, u.String(), body)
	req.Header.Set("X-Custom", "Value")
	return f.do(req)
}

// do sends req on its own goroutine. A failed request comes back as
// status -1 with the error in Status, without the URL (and its secret).
func (f *relayFixture) do(req *http.Request) <-chan *http.Response {
	out := make(chan *http.Response, 1)
	go func() {
		resp, err := f.tg.client.Do(req)
		if err != nil {
			if ue, ok := err.(*url.Error); ok {
				err = ue.Err
			}
			out <- &http.Response{StatusCode: -1, Status: err.Error(), Body: http.NoBody}
			return
		}
		out <- resp
	}()
	return out
}

func recvResp(t *testing.T, ch <-chan *http.Response) (*http.Response, string) {
	t.Helper()
	select {
	case resp := <-ch:
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	case <-time.After(relayWait):
		t.Fatal("no public response")
	}
	return nil, ""
}

func TestRelayAgentProtocol(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	a := f.dial(t)
	scope := "/api/mcp/adapter-http/" + url.PathEscape(f.serverID)
	if f.publicU.Path != "/tunnels/"+a.hello.Slug+scope || f.publicU.Query().Get("k") == "" {
		t.Errorf("public URL %s, want /tunnels/{slug}%s?k=…", f.publicU.Redacted(), scope)
	}
	secretQuery := f.publicU.RawQuery

	// A POST: req (url verbatim, ?k= included; names in lower case), its
	// body as a ReqChunk, req_end; the agent's res, ResChunk and res_end
	// reach the caller.
	respc := f.public(t.Context(), "POST", "", "x=1", strings.NewReader(`{"jsonrpc":"2.0"}`))
	req := a.next()
	if req.T != "req" || req.Method != "POST" || req.URL != scope+"?"+secretQuery+"&x=1" ||
		req.HasBody == nil || !*req.HasBody || req.header("x-custom") != "Value" ||
		req.header("x-forwarded-host") != f.publicU.Host || req.header("x-forwarded-for") == "" {
		t.Errorf("req %+v", req)
	}
	for _, kv := range req.Headers {
		if kv[0] != strings.ToLower(kv[0]) {
			t.Errorf("header name %q is not in lower case", kv[0])
		}
	}
	if c := a.next(); !c.binary || c.kind != 0x01 || c.ID != req.ID || string(c.payload) != `{"jsonrpc":"2.0"}` {
		t.Errorf("body chunk %+v %q", c, c.payload)
	}
	if e := a.next(); e.T != "req_end" || e.ID != req.ID {
		t.Errorf("after the body: %+v, want req_end", e)
	}
	a.sendText(`{"t":"res","id":%d,"status":201,"headers":[["content-type","application/json"],["x-reply","yes"],["connection","keep-alive"]]}`, req.ID)
	a.sendChunk(req.ID, `{"ok":`)
	a.sendChunk(req.ID, `true}`)
	a.sendText(`{"t":"res_end","id":%d}`, req.ID)
	resp, body := recvResp(t, respc)
	if resp.StatusCode != 201 || body != `{"ok":true}` || resp.Header.Get("X-Reply") != "yes" ||
		resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("public response %d %v %q", resp.StatusCode, resp.Header, body)
	}

	// A GET: req with hasBody false, and nothing else for it (the next
	// message is the next request's req). Under the scope is in scope.
	respc = f.public(t.Context(), "GET", "/sse", "", nil)
	get := a.next()
	if get.T != "req" || get.HasBody == nil || *get.HasBody || get.ID <= req.ID || get.URL != scope+"/sse?"+secretQuery {
		t.Errorf("GET req %+v", get)
	}
	// The agent fails it before answering: 502 SERVER_UNREACHABLE.
	a.sendText(`{"t":"abort","id":%d,"code":"upstream_error","msg":"connect ECONNREFUSED"}`, get.ID)
	resp, body = recvResp(t, respc)
	if resp.StatusCode != 502 || !strings.Contains(body, `"SERVER_UNREACHABLE"`) {
		t.Errorf("abort before res: %d %s, want 502 SERVER_UNREACHABLE", resp.StatusCode, body)
	}

	// A caller that goes away mid-response: abort client_gone.
	ctx, cancel := context.WithCancel(t.Context())
	respc = f.public(ctx, "GET", "", "", nil)
	sse := a.next()
	if sse.T != "req" || sse.ID <= get.ID {
		t.Fatalf("req %+v after the aborted GET (nothing else may come for a GET)", sse)
	}
	a.sendText(`{"t":"res","id":%d,"status":200,"headers":[["content-type","text/event-stream"]]}`, sse.ID)
	a.sendChunk(sse.ID, "data: one\n\n")
	select {
	case resp := <-respc:
		buf := make([]byte, len("data: one\n\n"))
		if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "data: one\n\n" {
			t.Errorf("the first event did not stream: %q %v", buf, err)
		}
		cancel()
		resp.Body.Close()
	case <-time.After(relayWait):
		t.Fatal("the response head did not stream")
	}
	if m := a.next(); m.T != "abort" || m.ID != sse.ID || m.Code != "client_gone" {
		t.Errorf("after the caller left: %+v, want abort client_gone", m)
	}

	// Outside the scope, or with a wrong secret: 404 as an unknown tunnel,
	// and the agent hears nothing.
	base := f.publicU.Scheme + "://" + f.publicU.Host + "/tunnels/" + a.hello.Slug
	for _, u := range []string{base + "/mcp?" + secretQuery, base + "?" + secretQuery, base + scope + "x?" + secretQuery,
		base + "/api/mcp/adapter-http/other?" + secretQuery, base + scope + "?k=wrong"} {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second) // a relayed one would wait for the agent
		r, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
		resp, err := f.tg.client.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		if resp.StatusCode != 404 || !strings.Contains(string(b), `"NOT_FOUND"`) {
			t.Errorf("GET %s: %d %s, want 404", u, resp.StatusCode, b)
		}
	}
	respc = f.public(t.Context(), "GET", "", "", nil)
	m := a.next()
	if m.T != "req" || m.ID <= sse.ID || m.HasBody == nil || *m.HasBody {
		t.Errorf("after the 404s: %+v, want the next request", m)
	}
	a.sendText(`{"t":"res","id":%d,"status":204,"headers":[]}`, m.ID)
	a.sendText(`{"t":"res_end","id":%d}`, m.ID)
	if resp, _ := recvResp(t, respc); resp.StatusCode != 204 {
		t.Errorf("status %d, want 204", resp.StatusCode)
	}
}

// The close codes: a bad token 4000 (after the upgrade, as the service's
// edge does), a newer session of the grant 4001 to the older one, a
// revoked grant 4002.
func TestRelayAgentCloseCodes(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	if got := dialAgent(t, f.tg.client, f.relayURL, "ct_wrong").closeCode(); got != 4000 {
		t.Errorf("bad token: close %d, want 4000", got)
	}
	first := f.dial(t)
	second := f.dial(t)
	if got := first.closeCode(); got != 4001 {
		t.Errorf("replaced session: close %d, want 4001", got)
	}
	ws := f.srv.Default()
	if r := f.tg.call(t, "POST", "/projects/"+ws.ProjectID+"/tunnels/"+f.serverID+"/close", ws.APIKey, nil); r.status != 200 {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	if got := second.closeCode(); got != 4002 {
		t.Errorf("revoked: close %d, want 4002", got)
	}
	if got := dialAgent(t, f.tg.client, f.relayURL, f.token).closeCode(); got != 4000 {
		t.Errorf("revoked token: close %d, want 4000", got)
	}
	// Without the subprotocol there is no upgrade.
	_, resp, err := websocket.Dial(t.Context(), f.relayURL, &websocket.DialOptions{HTTPClient: f.tg.client,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + f.token}}})
	if err == nil || resp == nil || resp.StatusCode != 400 {
		t.Errorf("no subprotocol: %v %v, want 400", resp, err)
	}
}

// A body past 10 MiB is refused with 413 and aborted as too_large; more
// than 32 requests in flight answer 503 to the extra one.
func TestRelayLimits(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, false)
	a := f.dial(t)
	respc := f.public(t.Context(), "POST", "", "", io.NopCloser(io.LimitReader(zeros{}, 10<<20+1)))
	req := a.next()
	if req.T != "req" || req.HasBody == nil || !*req.HasBody {
		t.Fatalf("req %+v", req)
	}
	n := 0
	for m := a.next(); m.T != "abort"; m = a.next() {
		if !m.binary || m.kind != 0x01 || m.ID != req.ID || len(m.payload) > 64<<10 {
			t.Fatalf("in the body: %+v", m)
		}
		n += len(m.payload)
	}
	resp, body := recvResp(t, respc)
	if resp.StatusCode != 413 || !strings.Contains(body, `"VALIDATION_ERROR"`) || n > 10<<20 {
		t.Errorf("too large: %d %s after %d bytes relayed; want 413 VALIDATION_ERROR", resp.StatusCode, body, n)
	}

	ctx, cancel := context.WithCancel(t.Context())
	var held []<-chan *http.Response
	for range 32 {
		held = append(held, f.public(ctx, "GET", "", "", nil))
		if m := a.next(); m.T != "req" {
			t.Fatalf("%+v, want a req", m)
		}
	}
	resp, body = recvResp(t, f.public(t.Context(), "GET", "", "", nil))
	if resp.StatusCode != 503 || !strings.Contains(body, `"SERVER_UNREACHABLE"`) {
		t.Errorf("33rd request: %d %s, want 503", resp.StatusCode, body)
	}
	cancel()
	var wg sync.WaitGroup
	for _, ch := range held {
		wg.Go(func() {
			if resp := <-ch; resp != nil {
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	for range 32 {
		if m := a.next(); m.T != "abort" || m.Code != "client_gone" {
			t.Errorf("%+v, want abort client_gone", m)
		}
	}
}

// zeros is an endless body.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
