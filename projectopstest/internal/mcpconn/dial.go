// Package mcpconn is the double's MCP client layer: it reaches a saved
// server's real MCP endpoint through go-sdk (an in-process *mcp.Server over
// in-memory transports, streamable HTTP, SSE or a stdio command), pools the
// sessions and classifies failures into the API's error kinds. It knows
// nothing about projects or users; the double passes it Targets.
package mcpconn

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os/exec"
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
	// credentials. Nil uses the dialer's default client.
	HTTPClient *http.Client
	// Headers are added to every HTTP request (saved raw headers).
	Headers map[string]string
	// Command, Args and Env start a stdio server; Env entries are
	// "NAME=value", added to a minimal base (PATH, HOME), never to the
	// double's whole environment.
	Command string
	Args    []string
	Env     []string
	// ProtocolVersion is the version to offer first. Empty offers go-sdk's
	// latest, which costs a wasted round trip against peers that predate
	// the 2026-07-28 discover handshake.
	ProtocolVersion string
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
	// rejected is the status of an HTTP response that said 401 or 403
	// (the last one): the server wants credentials the double does not
	// have, or refuses the ones it has.
	rejected atomic.Int32
	// readErr is the error reading the session's messages failed with
	// (stdio, SSE, in process): the session is dead, and go-sdk fails the
	// calls still waiting with this error.
	readErr atomic.Pointer[error]
	once    sync.Once
	onClose func()    // extra cleanup, run after the session closes
	cmd     *exec.Cmd // a stdio peer's process, the leader of its own process group
}

// AuthRejected reports whether the server answered an HTTP request with
// 401 or 403.
func (c *Conn) AuthRejected() bool { return c.rejected.Load() != 0 }

// authFailure is the Failure for a server that refused the double's
// credentials, with the status it refused them with.
func (c *Conn) authFailure(err error) *Failure {
	return &Failure{Kind: AuthRequired, Status: int(c.rejected.Load()), Message: "The server requires authorization", Err: err}
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
	// wrap, when set, wraps every client transport (a test seam for
	// misbehaving connections).
	wrap func(mcp.Transport) mcp.Transport
}

// NewDialer returns a dialer whose sessions advertise no client
// capabilities (the double serves no roots, sampling or elicitation, and a
// server asking for them would stall teardown), using hc for HTTP.
func NewDialer(name, version string, hc *http.Client) *Dialer {
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: version}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		Logger:       slog.New(slog.DiscardHandler),
	})
	return &Dialer{client: c, http: hc, ConnectTimeout: 10 * time.Second, TerminateDuration: time.Second}
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
	var timedOut atomic.Bool
	timer := time.AfterFunc(d.ConnectTimeout, func() { timedOut.Store(true); cancel() })
	ctx, initRaw := captureRaw(ctx, "initialize") // connect sends it with ctx
	cs, err := d.connect(ctx, c, t)
	if !timer.Stop() && timedOut.Load() {
		if err == nil {
			_ = cs.Close()
		}
		c.Close()
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
	case TransportHTTP, TransportSSE:
		hc := t.HTTPClient
		if hc == nil {
			hc = d.http
		}
		hc = &http.Client{Transport: &watch{base: hc.Transport, headers: t.Headers, conn: c,
			tap: t.Transport == TransportHTTP}, Timeout: hc.Timeout}
		if t.Transport == TransportSSE {
			tr = &mcp.SSEClientTransport{Endpoint: t.URL, HTTPClient: hc}
		} else {
			// No reconnects: a dead server must fail the call now, not
			// after five backoffs. No standalone stream: the double
			// consumes no server-initiated messages.
			tr = &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}
		}
	case TransportStdio:
		cmd := exec.Command(t.Command, t.Args...)
		cmd.Env = stdioEnviron(t.Env)
		ownGroup(cmd)
		c.cmd = cmd
		tr = &mcp.CommandTransport{Command: cmd, TerminateDuration: d.TerminateDuration}
	default:
		return nil, errors.New("mcpconn: unknown transport " + t.Transport)
	}
	if t.Transport != TransportHTTP {
		tr = rawTransport{tr, c}
	}
	if d.wrap != nil {
		tr = d.wrap(tr)
	}
	return d.client.Connect(ctx, tr, opts)
}

// Close ends the session and its peer. It may block (go-sdk's Close can
// hang on a misbehaving peer): callers bound it with CloseWithin.
func (c *Conn) Close() {
	c.once.Do(func() {
		if c.Session != nil {
			_ = c.Session.Close() // "signal: terminated" from a stdio peer is benign
		}
		if c.cmd != nil {
			// go-sdk ends the process it started; one started through a
			// wrapper (sh -c, npx) leaves the real server behind unless
			// its whole group goes.
			killGroup(c.cmd)
		}
		if c.server != nil {
			_ = c.server.Close()
		}
		c.cancel()
		if c.onClose != nil {
			c.onClose()
		}
	})
}

// watch is the HTTP layer under an MCP session: it adds the saved headers,
// remembers an authorization refusal and, on streamable HTTP (tap),
// captures results as the server sent them.
type watch struct {
	base    http.RoundTripper
	headers map[string]string
	conn    *Conn
	tap     bool
}

func (w *watch) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(w.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range w.headers {
			r.Header.Set(k, v)
		}
	}
	base := w.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		w.conn.rejected.Store(int32(resp.StatusCode))
	}
	noteSessionGone(r, resp)
	if w.tap {
		tapRaw(r, resp)
	}
	return resp, err
}
