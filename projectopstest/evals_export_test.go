package projectopstest

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddMCPServerForTest saves an in-process MCP server in the default
// project and routes the eval engine's tool calls for it to m through
// go-sdk in-memory transports. It stands in for the servers layer until
// that is wired in.
func (s *Server) AddMCPServerForTest(name string, m *mcp.Server) (string, error) {
	id, err := s.AddServer(ServerSpec{ProjectID: s.Default().ProjectID, Name: name,
		TransportType: "http", URL: "http://inprocess.invalid/" + name})
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	r, ok := s.ev.runner.(*memRunner)
	if !ok {
		r = &memRunner{servers: map[string]*mcp.Server{}}
		s.ev.runner = r
	}
	s.mu.Unlock()
	r.mu.Lock()
	r.servers[id] = m
	r.mu.Unlock()
	return id, nil
}

// memRunner connects a fresh go-sdk client session per operation.
type memRunner struct {
	mu      sync.Mutex
	servers map[string]*mcp.Server
}

func (r *memRunner) session(ctx context.Context, serverID string) (*mcp.ClientSession, func(), error) {
	r.mu.Lock()
	m := r.servers[serverID]
	r.mu.Unlock()
	if m == nil {
		return nil, nil, noMCPRunner{}.unreachable()
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := m.Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, err
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "evals-test", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		_ = ss.Close()
		return nil, nil, err
	}
	return cs, func() { _ = cs.Close(); _ = ss.Wait() }, nil
}

func (r *memRunner) Tools(ctx context.Context, _, _, serverID string) ([]*mcp.Tool, error) {
	cs, done, err := r.session(ctx, serverID)
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := cs.ListTools(ctx, &mcp.ListToolsParams{})
	if err != nil {
		return nil, err
	}
	return res.Tools, nil
}

func (r *memRunner) Call(ctx context.Context, _, _, serverID, name string, args map[string]any) (*mcp.CallToolResult, error) {
	cs, done, err := r.session(ctx, serverID)
	if err != nil {
		return nil, err
	}
	defer done()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}
