package projectopstest_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// guard bounds a raw connection's reads so a broken server fails the test
// instead of hanging it; it is not what the tests measure.
const guard = 20 * time.Second

// dialRaw opens a TCP connection to a started server and returns it with
// the /api/v1 path prefix.
func dialRaw(t *testing.T, srv *projectopstest.Server) (net.Conn, string) {
	t.Helper()
	u := listening(t, srv)
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(guard))
	return c, u.Path
}

// TestStalledBodyTimesOut: a client that stops sending its body gets a
// 400 VALIDATION_ERROR envelope once the body read timeout passes.
func TestStalledBodyTimesOut(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithConnTimeouts(100*time.Millisecond, time.Minute))
	ws := srv.Default()
	c, prefix := dialRaw(t, srv)
	_, err := io.WriteString(c, "POST "+prefix+"/projects/"+ws.ProjectID+"/hosts HTTP/1.1\r\nHost: x\r\n"+
		"Authorization: Bearer "+ws.APIKey+"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no response to a stalled body: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := result{status: resp.StatusCode, header: resp.Header, body: b}
	r.wantError(t, shared.CodeValidation)
}

// TestIdleConnectionClosed: an idle keep-alive connection is closed once
// the idle timeout passes.
func TestIdleConnectionClosed(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithConnTimeouts(time.Minute, 100*time.Millisecond))
	ws := srv.Default()
	c, prefix := dialRaw(t, srv)
	if _, err := io.WriteString(c, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /me: %v %v", resp, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("idle connection: read = %v, want EOF (closed by the server)", err)
	}
}

// TestCloseWithStalledClient: Close does not wait on a client stalled in
// the middle of its body, nor on an idle one, and reports no error (so
// projectops serve exits 0 on Ctrl-C).
func TestCloseWithStalledClient(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	c, prefix := dialRaw(t, srv)
	idle, _ := dialRaw(t, srv)
	_, err := io.WriteString(c, "POST "+prefix+"/projects/"+ws.ProjectID+"/hosts HTTP/1.1\r\nHost: x\r\n"+
		"Authorization: Bearer "+ws.APIKey+"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	if err != nil {
		t.Fatal(err)
	}
	// The stalled request is in its handler once a second request on
	// another connection has been answered (one goroutine per connection).
	if _, err := io.WriteString(idle, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(idle), nil); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- srv.Close() }()
	defer func() { t.Logf("Close took %v", time.Since(start)) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close = %v, want nil", err)
		}
	case <-time.After(guard):
		t.Fatal("Close waits on a stalled client")
	}
	if _, err := c.Read(make([]byte, 1)); err == nil || strings.Contains(err.Error(), "timeout") {
		t.Errorf("stalled connection after Close: %v, want closed", err)
	}
}

// TestCloseLetsInFlightFinish: a loopback request in flight when Close
// starts (a tool call waiting on its MCP server) finishes with its answer;
// Close cancelled it at once, and the call answered 504 TIMEOUT although
// the server was about to answer.
func TestCloseLetsInFlightFinish(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	started, release := make(chan struct{}), make(chan struct{})
	slow := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(slow, &mcp.Tool{Name: "slow"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		close(started)
		<-release
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "slow", MCPServer: slow})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(base), option.WithAPIKey(ws.APIKey))
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := c.Servers.CallTool(context.Background(), ws.ProjectID, id, servers.CallToolParams{ToolName: "slow"})
		got <- answer{res, err}
	}()
	<-started
	closed := make(chan error, 1)
	go func() { closed <- srv.Close() }()
	time.Sleep(100 * time.Millisecond) // Close is under way (it cancelled everything at once)
	close(release)
	a := <-got
	if a.err != nil || len(a.res.Content) != 1 || a.res.Content[0].(*mcp.TextContent).Text != "done" {
		t.Errorf("tool call in flight during Close = %+v, %v; want its answer", a.res, a.err)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close = %v", err)
	}
}

// TestCloseLetsSlowRequestFinish: a plain request still being answered
// when Close starts (a fault's latency) gets its answer, not a dropped
// connection.
func TestCloseLetsSlowRequestFinish(t *testing.T) {
	t.Parallel()
	served := make(chan struct{}, 1)
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithLogger(slog.New(servedSignal{served})))
	ws := srv.Default()
	srv.SetFault("GET /me", projectopstest.Fault{Latency: 300 * time.Millisecond})
	c, prefix := dialRaw(t, srv)
	if _, err := io.WriteString(c, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// Closed before the double has read it, the request is not in flight
	// and its connection may be dropped: wait until it is being served.
	<-served
	closed := make(chan error, 1)
	go func() { closed <- srv.Close() }()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("request in flight during Close: %v, want its answer", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d, want 200", resp.StatusCode)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close = %v", err)
	}
}

// An Upgrade header on a request with a body does not lift the body's
// deadline (any client could otherwise hold a connection forever).
func TestStalledBodyWithUpgradeHeaderTimesOut(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithConnTimeouts(100*time.Millisecond, time.Minute))
	ws := srv.Default()
	c, prefix := dialRaw(t, srv)
	_ = c.SetReadDeadline(time.Now().Add(3 * time.Second)) // 30x the body timeout
	_, err := io.WriteString(c, "POST "+prefix+"/projects/"+ws.ProjectID+"/hosts HTTP/1.1\r\nHost: x\r\n"+
		"Authorization: Bearer "+ws.APIKey+"\r\nUpgrade: slowloris\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("stalled body with an Upgrade header: no answer 3s after a 100ms body timeout: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d, want 400 VALIDATION_ERROR", resp.StatusCode)
	}
}

// servedSignal is a slog handler that logs nothing and signals once a
// request is being served: the double asks it whether to log a request as
// the request arrives (the context it asks with is a served request's).
type servedSignal struct{ served chan<- struct{} }

func (h servedSignal) Enabled(ctx context.Context, _ slog.Level) bool {
	if ctx.Value(http.ServerContextKey) != nil {
		select {
		case h.served <- struct{}{}:
		default:
		}
	}
	return false
}

func (servedSignal) Handle(context.Context, slog.Record) error { return nil }
func (h servedSignal) WithAttrs([]slog.Attr) slog.Handler      { return h }
func (h servedSignal) WithGroup(string) slog.Handler           { return h }
