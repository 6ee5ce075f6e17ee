package mcpconn

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// vendorFields adds to every result what go-sdk's types do not model: a
// vendor field on the result and on each listed item and content part,
// and a tool's execution, as a newer server sends them.
func vendorFields(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil {
			return res, err
		}
		return &withVendor{res}, nil
	}
}

// withVendor is a result (go-sdk's Result, embedded) that encodes with
// the extra fields.
type withVendor struct{ mcp.Result }

func (w *withVendor) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(w.Result)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["x-vendor"] = "kept"
	for _, list := range []string{"tools", "prompts", "resources", "content", "contents"} {
		items, _ := m[list].([]any)
		for _, it := range items {
			if o, ok := it.(map[string]any); ok {
				o["x-item"] = list
				if list == "tools" {
					o["execution"] = map[string]any{"taskSupport": "optional"}
				}
			}
		}
	}
	return json.Marshal(m)
}

// TestRawResults: on every transport, a result reaches the double as the
// server sent it, fields go-sdk does not model included, for initialize,
// listings and calls alike.
func TestRawResults(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := testServer()
	jsonResp := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{JSONResponse: true}))
	t.Cleanup(jsonResp.Close)
	targets := map[string]Target{
		"inprocess":       inproc(),
		"streamable":      {Transport: TransportHTTP, URL: httpServer(t, false).URL},
		"streamable-json": {Transport: TransportHTTP, URL: jsonResp.URL},
		"sse":             {Transport: TransportSSE, URL: httpServer(t, true).URL},
		"stdio":           {Transport: TransportStdio, Command: exe, Env: []string{stdioEnv + "=1"}},
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			// Without initialize (go-sdk's newer handshake) there is no
			// initialize result to keep, never another request's.
			c, err := testDialer().Dial(t.Context(), target)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer c.Close()
			if c.InitRaw != nil && !strings.Contains(string(c.InitRaw), `"serverInfo"`) {
				t.Errorf("newer handshake: InitRaw = %s, want none or an initialize result", c.InitRaw)
			}
			target.ProtocolVersion = "2025-11-25"
			c, err = testDialer().Dial(t.Context(), target)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer c.Close()
			if !strings.Contains(string(c.InitRaw), `"x-vendor":"kept"`) || !strings.Contains(string(c.InitRaw), `"serverInfo"`) {
				t.Errorf("InitRaw = %s, want the initialize result with the vendor field", c.InitRaw)
			}
			ctx, raw := CaptureRaw(t.Context())
			if _, err := c.Session.ListTools(ctx, nil); err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			if got := string(raw.Result()); !strings.Contains(got, `"execution":{"taskSupport":"optional"}`) || !strings.Contains(got, `"x-vendor":"kept"`) {
				t.Errorf("tools/list raw = %s, want execution and the vendor field", got)
			}
			ctx, raw = CaptureRaw(t.Context())
			if _, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}); err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if got := string(raw.Result()); !strings.Contains(got, `"x-item":"content"`) || !strings.Contains(got, `"text":"hi"`) {
				t.Errorf("tools/call raw = %s, want the part's vendor field", got)
			}
			// A call without a Raw in its context captures nothing and
			// leaves the last one as it was.
			before := string(raw.Result())
			if _, err := c.Session.ListTools(t.Context(), nil); err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			if string(raw.Result()) != before {
				t.Error("a call without capture overwrote another's result")
			}
		})
	}
}

// TestSSETap: the stream is parsed as SSE whatever its line endings and
// however the reads split it; only a response's result is kept.
func TestSSETap(t *testing.T) {
	stream := ": comment\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\r\n\r\n" +
		"id: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\n" +
		"data: \"result\":{\"a\":1}}\n\n"
	for _, size := range []int{1, 2, 7, len(stream)} {
		raw := &Raw{}
		tap := &sseTap{raw: raw}
		for b := []byte(stream); len(b) > 0; {
			n := min(size, len(b))
			tap.feed(b[:n])
			b = b[n:]
		}
		if got := string(raw.Result()); got != `{"a":1}` {
			t.Errorf("reads of %d bytes: result %q, want {\"a\":1}", size, got)
		}
	}
	// An error answer keeps nothing.
	raw := &Raw{}
	(&sseTap{raw: raw}).feed([]byte("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"no\"}}\n\n"))
	if raw.Result() != nil {
		t.Errorf("error response kept %s", raw.Result())
	}
}
