package proctest

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStubborn makes the calling process (a test binary re-run as a
// child) a stdio MCP server stuck in its shutdown, serving s: it ignores
// SIGTERM, starts a helper process in its process group (whose pid goes to
// the file pidfile names, unless it is empty), and lingers once its stdin
// closes. It never returns.
func ServeStubborn(s *mcp.Server, pidfile string) {
	signal.Ignore(syscall.SIGTERM)
	helper := exec.Command("sleep", "300")
	if helper.Start() != nil {
		os.Exit(1)
	}
	if pidfile != "" && os.WriteFile(pidfile, []byte(strconv.Itoa(helper.Process.Pid)), 0o600) != nil {
		os.Exit(1)
	}
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
	time.Sleep(time.Hour)
	os.Exit(0)
}
