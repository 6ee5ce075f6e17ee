package mcpconn

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Raw is the result of one MCP request as the server sent it. go-sdk
// decodes results into its own types, which keep only the fields they
// model (a tool's execution, a server's vendor fields and anything newer
// than go-sdk are dropped); the service returns MCP results verbatim, so
// the double answers from these bytes when it has them.
type Raw struct {
	method string // when set, only a request of this method is captured
	mu     sync.Mutex
	result json.RawMessage
}

type rawKey struct{}

// CaptureRaw returns ctx carrying a new Raw, which receives the result of
// the MCP request sent with ctx.
func CaptureRaw(ctx context.Context) (context.Context, *Raw) {
	return captureRaw(ctx, "")
}

// captureRaw is CaptureRaw for requests of one method only, for a context
// that carries several (connecting sends initialize and, on newer
// revisions, other requests with the same context).
func captureRaw(ctx context.Context, method string) (context.Context, *Raw) {
	r := &Raw{method: method}
	return context.WithValue(ctx, rawKey{}, r), r
}

// wants reports whether r captures the result of a request of method.
func (r *Raw) wants(method string) bool { return r != nil && (r.method == "" || r.method == method) }

func rawFrom(ctx context.Context) *Raw {
	r, _ := ctx.Value(rawKey{}).(*Raw)
	return r
}

// Result is the captured result, nil when none was seen (an error answer,
// or a response the transport delivered where it could not be observed,
// such as a resumed stream).
func (r *Raw) Result() json.RawMessage {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.result
}

func (r *Raw) set(b json.RawMessage) {
	r.mu.Lock()
	r.result = append(json.RawMessage(nil), b...) // the message may alias a reused buffer
	r.mu.Unlock()
}

// keep stores msg's result in r when msg is a successful response.
func (r *Raw) keep(msg jsonrpc.Message) {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error == nil && r != nil {
		r.set(resp.Result)
	}
}

// rawTransport captures results on connections whose messages go-sdk reads
// through the Connection interface alone (stdio, legacy SSE, in process).
// The streamable HTTP connection must not be wrapped: go-sdk tells it
// about the session through a method a wrapper cannot forward, so its
// results are captured from the HTTP responses instead (watch).
// It also tells its Conn the error reading failed with: the session is
// dead then, and the calls that get that very error were not answered,
// even if it looks like a JSON-RPC answer (a message go-sdk could not
// decode fails them with "invalid request").
type rawTransport struct {
	mcp.Transport
	conn *Conn
}

func (t rawTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if g := t.conn.proc; g != nil && g.cmd.Process != nil {
		t.conn.started.Store(true) // for a connect timer, on another goroutine
		if t.conn.abort.Err() != nil {
			g.kill() // the timer fired before the process was there to kill
		}
	}
	return &rawConn{Connection: c, pending: map[jsonrpc.ID]*Raw{}, owner: t.conn}, nil
}

// maxPendingRaw bounds the requests awaiting a captured result on one
// connection: a call abandoned without an answer leaves its entry behind.
const maxPendingRaw = 1024

type rawConn struct {
	mcp.Connection
	owner   *Conn
	mu      sync.Mutex
	pending map[jsonrpc.ID]*Raw
}

func (c *rawConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	req, ok := msg.(*jsonrpc.Request)
	r := rawFrom(ctx)
	if !ok || !req.IsCall() || !r.wants(req.Method) {
		return c.Connection.Write(ctx, msg)
	}
	c.mu.Lock()
	if len(c.pending) >= maxPendingRaw {
		clear(c.pending)
	}
	c.pending[req.ID] = r
	c.mu.Unlock()
	err := c.Connection.Write(ctx, msg)
	if err != nil {
		c.mu.Lock()
		delete(c.pending, req.ID)
		c.mu.Unlock()
	}
	return err
}

func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil && c.owner != nil {
		c.owner.readErr.CompareAndSwap(nil, &err) // before go-sdk fails the pending calls with it
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		r := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		r.keep(resp) // before go-sdk sees the response, so before the call returns
	}
	return msg, err
}
