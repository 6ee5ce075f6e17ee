package mcpconn

import (
	"context"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/projectops/projectops-go/internal/proctest"
	"go.uber.org/goleak"
)

// stdioEnv switches the test binary into a stdio MCP server, so the stdio
// transport is tested against a real child process without a toolchain or
// npm at run time.
const stdioEnv = "MCPCONN_TEST_STDIO_SERVER"

// pidfileEnv names the file a "stubborn" server writes its helper
// process's pid to.
const pidfileEnv = "MCPCONN_TEST_PIDFILE"

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
	case "stubborn":
		proctest.ServeStubborn(testServer(), os.Getenv(pidfileEnv))
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
