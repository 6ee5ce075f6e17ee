package projectopstest_test

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// demoPeerEnv makes the test binary a well-behaved stdio MCP server, the
// demo one, for tests of kept stdio sessions: run os.Args[0] with
// -test.run=^$ and this variable set to 1.
const demoPeerEnv = "PROJECTOPSTEST_DEMO_PEER"

func init() {
	if os.Getenv(demoPeerEnv) != "1" {
		return
	}
	_ = projectopstest.DemoMCPServer().Run(context.Background(), &mcp.StdioTransport{})
	os.Exit(0)
}
