package mcpconn

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addEnvironTool adds "environ", which answers the server process's
// environment variable names, one per line.
func addEnvironTool(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "environ"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		var names []string
		for _, kv := range os.Environ() {
			k, _, _ := strings.Cut(kv, "=")
			names = append(names, k)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(names, "\n")}}}, nil, nil
	})
}

// TestStdioEnvironment: a stdio server gets its spec's environment plus
// PATH and HOME, never the rest of the double's environment (which may
// hold secrets a member could read through a tool).
func TestStdioEnvironment(t *testing.T) {
	t.Setenv("MCPCONN_TEST_SERVE_SECRET", "do-not-leak")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := testDialer().Dial(t.Context(), Target{Transport: TransportStdio, Command: exe,
		Env: []string{stdioEnv + "=1", "FROM_SPEC=yes"}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer CloseWithin(c, 5*time.Second)
	res, err := c.Session.CallTool(t.Context(), &mcp.CallToolParams{Name: "environ"})
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Split(res.Content[0].(*mcp.TextContent).Text, "\n")
	want := []string{stdioEnv, "FROM_SPEC"}
	for _, k := range stdioBaseEnv {
		if _, ok := os.LookupEnv(k); ok {
			want = append(want, k)
		}
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("stdio server environment = %v, want exactly %v", names, want)
	}
}
