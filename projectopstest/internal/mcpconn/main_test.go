package mcpconn

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
		serveStubborn()
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

// serveStubborn is a stdio server stuck in its shutdown: it ignores
// SIGTERM, has started a helper process (in its process group; its pid
// goes to the file named by pidfileEnv), and lingers once its stdin
// closes.
func serveStubborn() {
	signal.Ignore(syscall.SIGTERM)
	helper := exec.Command("sleep", "300")
	if helper.Start() != nil {
		os.Exit(1)
	}
	if os.WriteFile(os.Getenv(pidfileEnv), []byte(strconv.Itoa(helper.Process.Pid)), 0o600) != nil {
		os.Exit(1)
	}
	_ = testServer().Run(context.Background(), &mcp.StdioTransport{})
	time.Sleep(time.Hour)
	os.Exit(0)
}
