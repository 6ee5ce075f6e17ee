package mcpconn

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sentTransport records the params of the initialize request its
// connection writes.
type sentTransport struct {
	mcp.Transport
	mu   sync.Mutex
	init json.RawMessage
}

func (s *sentTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := s.Transport.Connect(ctx)
	return &sentConn{c, s}, err
}

type sentConn struct {
	mcp.Connection
	s *sentTransport
}

func (c *sentConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "initialize" {
		c.s.mu.Lock()
		c.s.init = append(json.RawMessage(nil), r.Params...)
		c.s.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// ClientCapabilitiesJSON is what the dialer's client sends on the wire:
// go-sdk's V2 form, without the "roots":{} the v1 struct encodes.
func TestClientCapabilitiesJSONAsSent(t *testing.T) {
	t.Parallel()
	d := testDialer()
	st := &sentTransport{}
	d.wrap = func(tr mcp.Transport) mcp.Transport { st.Transport = tr; return st }
	c, err := d.Dial(t.Context(), Target{Transport: TransportInProcess, Server: testServer(), ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st.mu.Lock()
	var params struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	err = json.Unmarshal(st.init, &params)
	st.mu.Unlock()
	if err != nil || params.Capabilities == nil {
		t.Fatalf("initialize params %s: %v", st.init, err)
	}
	if got := string(ClientCapabilitiesJSON()); got != string(params.Capabilities) {
		t.Errorf("ClientCapabilitiesJSON = %s; the client sent %s", got, params.Capabilities)
	}
}
