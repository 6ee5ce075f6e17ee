package mcpconn

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestClassifyErrors(t *testing.T) {
	t.Parallel()
	live := context.Background()
	canceled, cancel := context.WithCancel(live)
	cancel()
	expired, cancel2 := context.WithDeadline(live, time.Unix(0, 0))
	defer cancel2()
	rejected := &Conn{}
	rejected.rejected.Store(401)
	own := &Failure{Kind: NotFound, Message: "mine"}
	tests := []struct {
		name       string
		err        error
		op, caller context.Context
		conn       *Conn
		want       Kind
		code       int64
	}{
		{"own failure kept", fmt.Errorf("wrapped: %w", own), nil, canceled, nil, NotFound, 0},
		{"caller left beats deadline", context.DeadlineExceeded, expired, canceled, nil, Canceled, 0},
		{"caller left", context.Canceled, canceled, canceled, nil, Canceled, 0},
		{"op deadline", context.DeadlineExceeded, expired, live, nil, Timeout, 0},
		{"op deadline, other error text", errors.New("connection closed"), expired, live, nil, Timeout, 0},
		{"connect timeout", fmt.Errorf("x: %w", ErrConnectTimeout), nil, live, nil, Timeout, 0},
		{"auth refused", errors.New("bad status 401"), live, live, rejected, AuthRequired, 0},
		{"method not found", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no prompts"}, live, live, nil, Unsupported, jsonrpc.CodeMethodNotFound},
		{"invalid params", fmt.Errorf("call: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}), live, live, nil, InvalidParams, jsonrpc.CodeInvalidParams},
		{"other rpc error", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "boom"}, live, live, nil, ServerError, jsonrpc.CodeInternalError},
		// go-sdk's streamable client wraps HTTP failures in its
		// "rejected by transport" error (-32005); a JSON-RPC error body
		// of a non-2xx answer is wrapped inside it.
		{"transport rejection", fmt.Errorf("x: %w: %w", &jsonrpc.Error{Code: -32005, Message: "rejected by transport"}, errors.New("connection refused")), live, live, nil, Unreachable, 0},
		{"server error under rejection", fmt.Errorf("x: %w: %w", &jsonrpc.Error{Code: -32005}, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "boom"}), live, live, nil, ServerError, jsonrpc.CodeInternalError},
		{"broken connection", mcp.ErrConnectionClosed, live, live, nil, Unreachable, 0},
		{"nil contexts", errors.New("dial tcp: refused"), nil, nil, nil, Unreachable, 0},
	}
	for _, tt := range tests {
		f := Classify(tt.err, tt.op, tt.caller, tt.conn)
		if f.Kind != tt.want || f.Code != tt.code {
			t.Errorf("%s: kind %d code %d, want %d %d", tt.name, f.Kind, f.Code, tt.want, tt.code)
		}
		if f.Kind == ServerError && f.Message != "boom" {
			t.Errorf("%s: message %q, want the server's own", tt.name, f.Message)
		}
		if !errors.Is(f, tt.err) && f != own {
			t.Errorf("%s: Failure does not wrap the error", tt.name)
		}
	}
}

// TestClassifyLiveCalls classifies what go-sdk really returns.
func TestClassifyLiveCalls(t *testing.T) {
	t.Parallel()
	c, err := testDialer().Dial(t.Context(), inproc())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := t.Context()
	classify := func(err error, op, caller context.Context) Kind {
		t.Helper()
		if err == nil {
			t.Fatal("call succeeded")
		}
		return Classify(err, op, caller, c).Kind
	}
	_, err = c.Session.Complete(ctx, &mcp.CompleteParams{
		Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "x"}, Argument: mcp.CompleteParamsArgument{Name: "a"}})
	if k := classify(err, ctx, ctx); k != Unsupported {
		t.Errorf("completion on a server without it: kind %d, want Unsupported", k)
	}
	// go-sdk answers a missing resource with -32602, the invalid-params
	// code (mcp.CodeResourceNotFound has that value): the double's read
	// route maps it to 404.
	_, err = c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://missing"})
	if k := classify(err, ctx, ctx); k != InvalidParams {
		t.Errorf("missing resource: kind %d, want InvalidParams", k)
	}
	_, err = c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "no-such-tool"})
	if k := classify(err, ctx, ctx); k != InvalidParams {
		t.Errorf("unknown tool: kind %d, want InvalidParams", k)
	}

	// The operation's deadline passes while the caller still waits.
	op, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	_, err = c.Session.CallTool(op, &mcp.CallToolParams{Name: "block"})
	cancel()
	if k := classify(err, op, ctx); k != Timeout {
		t.Errorf("deadline: kind %d, want Timeout", k)
	}

	// The caller leaves before the operation's deadline.
	caller, leave := context.WithCancel(ctx)
	op, cancel = context.WithTimeout(caller, time.Minute)
	stop := time.AfterFunc(20*time.Millisecond, leave)
	_, err = c.Session.CallTool(op, &mcp.CallToolParams{Name: "block"})
	stop.Stop()
	leave()
	cancel()
	if k := classify(err, op, caller); k != Canceled {
		t.Errorf("caller left: kind %d, want Canceled", k)
	}

	// The session still works after both.
	echo(t, c)
}
