package mcpconn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text string `json:"text"`
}

// testServer is an MCP server with an echo tool, a tool that blocks until
// its call is cancelled, and one resource; it has no prompts.
func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	addEnvironTool(s)
	s.AddReceivingMiddleware(vendorFields)
	s.AddResource(&mcp.Resource{URI: "test://a", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://a", Text: "a"}}}, nil
	})
	return s
}

// inproc targets a fresh in-process test server.
func inproc() Target { return Target{Transport: TransportInProcess, Server: testServer()} }

func testDialer() *Dialer {
	d := NewDialer("mcpconn-test", "1.0.0", &http.Client{})
	d.ConnectTimeout = 5 * time.Second
	return d
}

// echo calls the echo tool on c and fails the test unless it answers.
func echo(t *testing.T, c *Conn) {
	t.Helper()
	res, err := c.Session.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "hi" {
		t.Fatalf("echo = %q, want hi", got)
	}
}

// httpServer serves the test server over go-sdk's streamable HTTP (sse
// false) or SSE handler on a loopback listener closed at test end.
func httpServer(t *testing.T, sse bool) *httptest.Server {
	t.Helper()
	s := testServer()
	get := func(*http.Request) *mcp.Server { return s }
	var h http.Handler = mcp.NewStreamableHTTPHandler(get, nil)
	if sse {
		h = mcp.NewSSEHandler(get, nil)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// hangTransport wraps a client transport whose connection's Close blocks
// until release is closed once armed: a peer whose teardown hangs.
type hangTransport struct {
	mcp.Transport
	h *hang
}

type hang struct {
	armed   chan struct{} // closed to make Close block
	release chan struct{} // closed to let blocked Closes finish
	once    sync.Once
	mu      sync.Mutex
	blocked int // Closes currently blocked
}

func newHang(t *testing.T) *hang {
	h := &hang{armed: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(h.unblock) // before goleak looks: the abandoned Close finishes
	return h
}

func (h *hang) arm()     { close(h.armed) }
func (h *hang) unblock() { h.once.Do(func() { close(h.release) }) }

func (h *hang) blockedN() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.blocked
}

func (h *hang) wrap(tr mcp.Transport) mcp.Transport { return &hangTransport{tr, h} }

func (t *hangTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &hangConn{c, t.h}, nil
}

type hangConn struct {
	mcp.Connection
	h *hang
}

func (c *hangConn) Close() error {
	select {
	case <-c.h.armed:
		c.h.mu.Lock()
		c.h.blocked++
		c.h.mu.Unlock()
		<-c.h.release
	default:
	}
	return c.Connection.Close()
}
