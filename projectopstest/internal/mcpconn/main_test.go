package mcpconn

import (
	"context"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// stdioEnv switches the test binary into a stdio MCP server, so the stdio
// transport is tested against a real child process without a toolchain or
// npm at run time.
const stdioEnv = "MCPCONN_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	switch os.Getenv(stdioEnv) {
	case "1":
		serveStdio(testServer())
	case "noisy":
		serveNoisy()
	case "junk":
		writeJunk()
	case "at-limit":
		serveAtLimit(false)
	case "at-limit-blank":
		serveAtLimit(true)
	}
	goleak.VerifyTestMain(m)
}

// serveStdio serves s on stdin and stdout, then exits.
func serveStdio(s *mcp.Server) {
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}
