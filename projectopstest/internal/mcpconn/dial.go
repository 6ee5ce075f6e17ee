// Package mcpconn is the double's MCP client layer: it reaches a saved
// server's real MCP endpoint through go-sdk (an in-process *mcp.Server over
// in-memory transports, streamable HTTP, SSE or a stdio command), hands
// out sessions (one per operation, kept ones for stdio servers, eval runs
// and WithPooledMCPSessions: see Pool) and classifies failures into the
// API's error kinds. It knows
// nothing about projects or users; the double passes it Targets.
package mcpconn

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transports a Target may use.
const (
	TransportInProcess = "inprocess"
	TransportHTTP      = "http"
	TransportSSE       = "sse"
	TransportStdio     = "stdio"
)

// Target is one MCP server to connect to.
type Target struct {
	Transport string
	// Server is the in-process server (TransportInProcess).
	Server *mcp.Server
	// URL is the endpoint of an HTTP or SSE server.
	URL string
	// HTTPClient sends the HTTP and SSE requests; it carries any injected
	// credentials (an OAuth bearer), which are for URL's origin only: a
	// request that a redirect took to another origin goes through the
	// dialer's default client instead (see watch). Nil uses the dialer's
	// default client.
	HTTPClient *http.Client
	// Headers are added to every HTTP request (saved raw headers), less
	// Authorization, Proxy-Authorization and Cookie once a redirect has
	// left URL's origin (see watch).
	Headers map[string]string
	// Command, Args and Env start a stdio server; Env entries are
	// "NAME=value", added to a minimal base (PATH, HOME), never to the
	// double's whole environment.
	Command string
	Args    []string
	Env     []string
	// ConnectTimeout, when positive, bounds connect + initialize instead
	// of the Dialer's ConnectTimeout (validate and doctor wait less than
	// the other operations).
	ConnectTimeout time.Duration
	// ProtocolVersion is the version to offer first. Empty offers go-sdk's
	// latest, which costs a wasted round trip against peers that predate
	// the 2026-07-28 discover handshake.
	ProtocolVersion string
	// NoSSEAfter401, for a doctor without credentials: when the
	// Streamable HTTP attempt's first answer is 401, the SSE fallback is
	// not tried. The service's doctor probe reads that 401 and never
	// connects, so no SSE stream should be opened on its behalf.
	NoSSEAfter401 bool
}

// Conn is one initialized MCP session. Its methods are safe for concurrent
// use.
type Conn struct {
	Session *mcp.ClientSession
	// InitRaw is the server's initialize result as it sent it (nil when
	// it could not be captured): go-sdk's InitializeResult keeps only the
	// capabilities and fields it models.
	InitRaw json.RawMessage
	server  *mcp.ServerSession // in-process peer, closed with the session
	cancel  context.CancelFunc
	// abort ends every HTTP exchange of the session, go-sdk's own session
	// DELETE included (it runs on a context of go-sdk's, for up to 5 s):
	// a close that outlived its bound is cut, not left to finish.
	abort    context.Context
	abortNow context.CancelFunc
	// rejected is the status of an HTTP response that said 401 or 403
	// (the last one): the server wants credentials the double does not
	// have, or refuses the ones it has.
	rejected atomic.Int32
	// scopeRefused: a 403 said insufficient_scope, which no other
	// transport can repair (no SSE fallback).
	scopeRefused atomic.Bool
	// firstStatus is the status of the first answer (redirects aside) to
	// the Streamable HTTP attempt, streamableTried whether that attempt
	// ran, and sseFirstStatus the first answer to the SSE one: what the
	// service's doctor probe reads (ProbeRefusal).
	firstStatus     atomic.Int32
	sseFirstStatus  atomic.Int32
	streamableTried atomic.Bool
	transport       string // the transport that connected (Transport)
	// readErr is the error reading the session's messages failed with
	// (stdio, SSE, in process): the session is dead, and go-sdk fails the
	// calls still waiting with this error.
	readErr atomic.Pointer[error]
	once    sync.Once
	onClose func()      // extra cleanup, run after the session closes
	proc    *procGroup  // a stdio peer's process, the leader of its own process group
	started atomic.Bool // proc has started, for Dial's timer to kill it
	// reapWaiting, when set (a test seam), runs as CloseWithin starts
	// waiting for a stdio peer's close to reap it.
	reapWaiting func()
}

// AuthRejected reports whether the server answered an HTTP request with
// 401 or 403.
func (c *Conn) AuthRejected() bool { return c.rejected.Load() != 0 }

// authFailure is the Failure for a server that refused the double's
// credentials, with the status it refused them with.
func (c *Conn) authFailure(err error) *Failure {
	return &Failure{Kind: AuthRequired, Status: int(c.rejected.Load()), ProbeStatus: c.ProbeRefusal(),
		Message: "The server requires authorization", Err: err}
}

// ProbeRefusal is the refusal (401 or 403; 0 for none) the service's
// doctor probe would read from this connection's answers. The probe POSTs
// initialize and decides on that answer, trying an SSE GET only when it
// was 404, 405, 406, 415 or 501 (server-probe.ts): so the Streamable
// attempt's first answer decides, the SSE attempt's only after one of
// those or when no Streamable attempt ran (an SSE server, a URL ending in
// /sse). With go-sdk v1.8.0 that first answer is to server/discover, not
// initialize, unless the target pins a ProtocolVersion older than
// 2026-07-28 (go-sdk then sends initialize first): a refusal does not
// hang on the method.
func (c *Conn) ProbeRefusal() int {
	status := int(c.firstStatus.Load())
	if c.streamableTried.Load() && !probeTriesSSE(status) {
		return refusal(status)
	}
	return refusal(int(c.sseFirstStatus.Load()))
}

// probeTriesSSE reports whether the service's probe follows an initialize
// answered status with an SSE GET.
func probeTriesSSE(status int) bool {
	switch status {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotAcceptable,
		http.StatusUnsupportedMediaType, http.StatusNotImplemented:
		return true
	}
	return false
}

// refusal is status when it refuses authorization (401 or 403), else 0.
func refusal(status int) int {
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return status
	}
	return 0
}

// Dialer opens sessions. Its zero value is not usable; use NewDialer.
type Dialer struct {
	client *mcp.Client
	http   *http.Client
	// ConnectTimeout bounds connect + initialize.
	ConnectTimeout time.Duration
	// TerminateDuration is how long a stdio server gets to exit after its
	// stdin closes before it is signalled.
	TerminateDuration time.Duration
	// Log receives a debug record for each line a stdio server wrote to
	// stdout that is not a JSON-RPC message and was dropped: its length,
	// never its content. Nil discards them.
	Log *slog.Logger
	// wrap, when set, wraps every client transport (a test seam for
	// misbehaving connections).
	wrap func(mcp.Transport) mcp.Transport
}

// NewDialer returns a dialer whose sessions advertise no client
// capabilities (the double serves no roots, sampling or elicitation, and a
// server asking for them would stall teardown), using hc for HTTP.
func NewDialer(name, version string, hc *http.Client) *Dialer {
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: version}, &mcp.ClientOptions{
		Capabilities: ClientCapabilities(),
		Logger:       slog.New(slog.DiscardHandler),
	})
	return &Dialer{client: c, http: hc, ConnectTimeout: 10 * time.Second, TerminateDuration: time.Second}
}

// ClientCapabilities are the capabilities every dialer's sessions declare:
// none. A fresh value each call, so no caller can change another's.
func ClientCapabilities() *mcp.ClientCapabilities { return &mcp.ClientCapabilities{} }

// ClientCapabilitiesJSON is ClientCapabilities as go-sdk sends them: in
// their V2 form, whose roots is a pointer left out when RootsV2 is unset.
// Encoding the struct itself would claim "roots":{}, as its deprecated
// non-pointer Roots always encodes.
func ClientCapabilitiesJSON() json.RawMessage {
	c := ClientCapabilities()
	//lint:ignore SA1019 roots is deprecated, yet go-sdk still sends it when set
	v2 := capabilitiesV2{c, c.RootsV2}
	b, err := json.Marshal(v2)
	if err != nil { // cannot happen: the capabilities are plain data
		return json.RawMessage("{}")
	}
	return b
}

// capabilitiesV2 is go-sdk's wire form of client capabilities.
type capabilitiesV2 struct {
	*mcp.ClientCapabilities
	//lint:ignore SA1019 roots is deprecated, yet go-sdk still sends it when set
	Roots *mcp.RootCapabilities `json:"roots,omitempty"` // shadows the v1 Roots
}

// ErrConnectTimeout marks a connect that did not finish in time.
var ErrConnectTimeout = errors.New("mcpconn: connect timed out")

// Dial connects to t and initializes a session. parent bounds the session's
// whole life: cancelling it breaks the session.
func (d *Dialer) Dial(parent context.Context, t Target) (*Conn, error) {
	// The connection's context lives as long as the session (the SSE
	// transport streams on it); a timer cancels it if connecting is slow.
	ctx, cancel := context.WithCancel(parent)
	c := &Conn{cancel: cancel}
	c.abort, c.abortNow = context.WithCancel(context.Background())
	// One outcome, decided once: the connect finished (1) or the timer
	// fired first (2). A timer that loses never touches the session Dial
	// returns (its callback may run after Stop failed to stop it).
	var outcome atomic.Int32
	timer := time.AfterFunc(d.connectTimeout(t), func() {
		if !outcome.CompareAndSwap(0, 2) {
			return
		}
		cancel()
		// go-sdk's error path would then wait on the peer (a session
		// DELETE for up to 5 s, a stdio process's terminate durations):
		// cut it now, or the 504 comes seconds after the timeout.
		c.abortNow()
		if c.started.Load() {
			c.proc.kill()
		}
	})
	ctx, initRaw := captureRaw(ctx, "initialize") // connect sends it with ctx
	cs, err := d.connect(ctx, c, t)
	timer.Stop()
	if !outcome.CompareAndSwap(0, 1) {
		if err == nil {
			_ = cs.Close()
		}
		c.Close()
		if c.AuthRejected() {
			// An http server's Streamable attempt was refused (401/403)
			// and its SSE fallback then ran out the time: the service's
			// manager reports an auth failure from either attempt.
			return nil, c.authFailure(ErrConnectTimeout)
		}
		return nil, ErrConnectTimeout
	}
	if err != nil {
		c.Close()
		if c.AuthRejected() {
			return nil, c.authFailure(err)
		}
		return nil, err
	}
	c.Session, c.InitRaw = cs, initRaw.Result()
	return c, nil
}

// connectTimeout is the bound of connecting to t: its own, else d's.
func (d *Dialer) connectTimeout(t Target) time.Duration {
	if t.ConnectTimeout > 0 {
		return t.ConnectTimeout
	}
	return d.ConnectTimeout
}

func (d *Dialer) connect(ctx context.Context, c *Conn, t Target) (*mcp.ClientSession, error) {
	var opts *mcp.ClientSessionOptions
	if t.ProtocolVersion != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: t.ProtocolVersion}
	}
	var tr mcp.Transport
	switch t.Transport {
	case TransportInProcess:
		st, ct := mcp.NewInMemoryTransports()
		ss, err := t.Server.Connect(ctx, st, nil) // the server side first
		if err != nil {
			return nil, err
		}
		c.server = ss
		tr = ct
	case TransportHTTP:
		return d.connectHTTP(ctx, c, t, opts)
	case TransportSSE:
		tr = d.sseTransport(c, t)
	case TransportStdio:
		cmd := exec.Command(t.Command, t.Args...)
		cmd.Env = stdioEnviron(t.Env)
		ownGroup(cmd)
		c.proc = &procGroup{cmd: cmd}
		tr = &stdioTransport{proc: c.proc, terminate: d.TerminateDuration, log: d.Log}
	default:
		return nil, errors.New("mcpconn: unknown transport " + t.Transport)
	}
	c.transport = t.Transport
	return d.client.Connect(ctx, d.wrapped(rawTransport{tr, c}), opts)
}

// streamableAttempt bounds the Streamable HTTP attempt of an http server
// that may fall back to SSE, as the service's client manager bounds it
// (HTTP_CONNECT_TIMEOUT, 3 s, when its connect timeout is longer).
const streamableAttempt = 3 * time.Second

// connectHTTP reaches an http server the way the service's client manager
// does: a URL whose path ends in /sse is taken for a legacy SSE endpoint;
// any other is tried over Streamable HTTP first and, when that fails for
// any reason but an insufficient_scope refusal or the caller's deadline,
// over SSE on the same URL. Both attempts share Dial's connect deadline:
// the Streamable one gets at most streamableAttempt of it, SSE the rest.
func (d *Dialer) connectHTTP(ctx context.Context, c *Conn, t Target, opts *mcp.ClientSessionOptions) (*mcp.ClientSession, error) {
	if !preferSSE(t.URL) {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if d.connectTimeout(t) > streamableAttempt {
			actx, cancel = context.WithTimeout(ctx, streamableAttempt)
		}
		// No reconnects: a dead server must fail the call now, not after
		// five backoffs. No standalone stream: the double consumes no
		// server-initiated messages.
		c.streamableTried.Store(true)
		tr := &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: d.httpClient(c, t, true),
			MaxRetries: -1, DisableStandaloneSSE: true}
		cs, err := d.client.Connect(actx, d.wrapped(tr), opts)
		cancel()
		if err == nil {
			c.transport = TransportHTTP
			return cs, nil
		}
		if ctx.Err() != nil || c.scopeRefused.Load() ||
			(t.NoSSEAfter401 && c.firstStatus.Load() == http.StatusUnauthorized) {
			return nil, err
		}
	}
	cs, err := d.client.Connect(ctx, d.wrapped(rawTransport{d.sseTransport(c, t), c}), opts)
	if err != nil {
		return nil, err
	}
	// A refusal of the Streamable attempt says nothing of the session SSE
	// opened.
	c.rejected.Store(0)
	c.transport = TransportSSE
	return cs, nil
}

// preferSSE reports whether an http server's URL names a legacy SSE
// endpoint: its path, escapes kept, ends in /sse, the service's own
// heuristic.
func preferSSE(rawURL string) bool {
	u, err := url.Parse(rawURL)
	// The service tests the WHATWG pathname, which keeps percent-escapes
	// as written: "/a%2Fsse" or "/%73se" does not end in /sse there. (It
	// reads a raw backslash as '/', which Go's parser does not: such a URL
	// is requested differently anyway.)
	return err == nil && strings.HasSuffix(u.EscapedPath(), "/sse")
}

func (d *Dialer) sseTransport(c *Conn, t Target) mcp.Transport {
	return &mcp.SSEClientTransport{Endpoint: t.URL, HTTPClient: d.httpClient(c, t, false)}
}

// httpClient is the client of one HTTP or SSE attempt: t's own (or the
// dialer's) under watch, tapping results on streamable HTTP (tap).
func (d *Dialer) httpClient(c *Conn, t Target, tap bool) *http.Client {
	hc := t.HTTPClient
	if hc == nil {
		hc = d.http
	}
	var plain http.RoundTripper
	if d.http != nil {
		plain = d.http.Transport
	}
	first := &c.sseFirstStatus
	if tap {
		first = &c.firstStatus
	}
	return &http.Client{Transport: &watch{base: hc.Transport, plain: plain, origin: originOf(t.URL),
		headers: t.Headers, conn: c, tap: tap, first: first}, Timeout: hc.Timeout}
}

func (d *Dialer) wrapped(tr mcp.Transport) mcp.Transport {
	if d.wrap != nil {
		return d.wrap(tr)
	}
	return tr
}

// Transport is the transport the session connected over: an http
// server's is TransportSSE when it was reached through the SSE fallback.
func (c *Conn) Transport() string { return c.transport }

// Close ends the session and its peer. It may block (go-sdk's Close can
// hang on a misbehaving peer): callers bound it with CloseWithin.
func (c *Conn) Close() {
	c.once.Do(func() {
		if c.Session != nil {
			_ = c.Session.Close() // "signal: terminated" from a stdio peer is benign
		}
		if c.proc != nil {
			// The session's close ends the process it started; one
			// started through a wrapper (sh -c, npx) leaves the real
			// server behind unless its whole group goes (on Linux it went
			// as the process was reaped: this then does nothing).
			c.proc.kill()
		}
		if c.server != nil {
			_ = c.server.Close()
		}
		c.cancel()
		if c.abortNow != nil {
			c.abortNow() // releases the exchanges' watchers
		}
		if c.onClose != nil {
			c.onClose()
		}
	})
}

// kill ends a stdio peer's process group at once (SIGKILL): the last step
// of a teardown that ran out of time. It reports whether there was a
// process to end (false for the other transports, and once the process
// was reaped with its group ended).
func (c *Conn) kill() bool {
	return c.proc != nil && c.proc.kill()
}

// watch is the HTTP layer under an MCP session, below net/http's redirect
// following, so it sees every hop: it adds the saved headers, remembers an
// authorization refusal and its attempt's first answer (first) and, on streamable HTTP (tap), captures results as
// the server sent them.
//
// Credentials go to the saved server's origin only, as the service's fetch
// (undici) sends them: a redirect that leaves the origin drops
// Authorization, Proxy-Authorization and Cookie (other headers are kept),
// and they are not added again on a later hop, even one back to the
// origin. So a hop whose chain has left the origin gets the saved headers
// but those three, loses those three whoever set them (net/http compares
// host names only: it keeps them on a redirect to another port or scheme of
// the same host, or to a subdomain), and goes through plain, the transport
// without the target's injected credentials (the OAuth bearer). A
// redirected hop also loses the Referer net/http gives it, the previous
// hop's URL, query and all (a saved URL's ?k= or ?api_key=): fetch sends
// none.
type watch struct {
	base    http.RoundTripper // the target's, with its credentials
	plain   http.RoundTripper // the dialer's, without them
	origin  string            // the target URL's origin (originOf); "" matches nothing
	headers map[string]string
	conn    *Conn
	tap     bool
	first   *atomic.Int32 // the attempt's first answer's status, redirects aside
}

// credentialHeaders are the headers fetch drops on a redirect to another
// origin.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

func (w *watch) RoundTrip(r *http.Request) (*http.Response, error) {
	if a := w.conn.abort; a != nil {
		ctx, cancel := context.WithCancel(r.Context())
		stop := context.AfterFunc(a, cancel)
		resp, err := w.roundTrip(r.WithContext(ctx))
		if err != nil || resp.Body == nil {
			stop()
			cancel()
			return resp, err
		}
		resp.Body = &releasingBody{ReadCloser: resp.Body, release: func() { stop(); cancel() }}
		return resp, nil
	}
	return w.roundTrip(r)
}

// releasingBody calls release once the body is closed.
type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

func (w *watch) roundTrip(r *http.Request) (*http.Response, error) {
	base, onOrigin := w.base, w.origin != "" && chainOnOrigin(r, w.origin)
	redirected := r.Response != nil && r.Header.Get("Referer") != ""
	if len(w.headers) > 0 || redirected || (!onOrigin && hasAny(r.Header, credentialHeaders)) {
		r = r.Clone(r.Context())
		if redirected {
			r.Header.Del("Referer") // before the saved headers: a saved Referer still goes
		}
		for k, v := range w.headers {
			r.Header.Set(k, v)
		}
		if !onOrigin {
			for _, k := range credentialHeaders {
				r.Header.Del(k)
			}
		}
	}
	if !onOrigin {
		base = w.plain
	}
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if resp.Request == nil {
		// The next hop finds this one through it (chainOnOrigin).
		resp.Request = r
	}
	// Load first: after the first answer a plain read, where a
	// CompareAndSwap on every response would write-contend the line.
	if w.first != nil && (resp.StatusCode < 300 || resp.StatusCode >= 400) && w.first.Load() == 0 {
		w.first.CompareAndSwap(0, int32(resp.StatusCode))
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		w.conn.rejected.Store(int32(resp.StatusCode))
		if resp.StatusCode == http.StatusForbidden &&
			strings.Contains(resp.Header.Get("WWW-Authenticate"), "insufficient_scope") {
			w.conn.scopeRefused.Store(true)
		}
	}
	noteSessionGone(r, resp)
	if w.tap {
		tapRaw(r, resp)
	}
	return resp, err
}

// originOf is rawURL's origin as fetch compares them: scheme, host and
// port, lower-cased, with the scheme's default port made explicit. It is
// "" for a URL without a host or one that does not parse.
func originOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return URLOrigin(u)
}

// URLOrigin is originOf for a parsed URL: "" for one without a host.
func URLOrigin(u *url.URL) string {
	if u == nil || u.Host == "" {
		return ""
	}
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// chainOnOrigin reports whether r and every request of the redirect chain
// that led to it (net/http links a hop to the previous one through
// r.Response.Request) are for origin. A hop whose predecessor cannot be
// found counts as having left it.
func chainOnOrigin(r *http.Request, origin string) bool {
	for r != nil {
		if URLOrigin(r.URL) != origin {
			return false
		}
		if r.Response == nil {
			return true // the first request of the chain
		}
		r = r.Response.Request
	}
	return false
}

func hasAny(h http.Header, keys []string) bool {
	for _, k := range keys {
		if _, ok := h[k]; ok {
			return true
		}
	}
	return false
}
