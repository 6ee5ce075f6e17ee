//go:build integration

package projectopstest_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// nodeSDK returns node and the TypeScript MCP SDK's ESM directory
// (installed by `npm ci --prefix internal/testdata/mcpservers`).
func nodeSDK(t *testing.T) (node, sdk string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node not on PATH: %v", err)
	}
	sdk, err = filepath.Abs("../internal/testdata/mcpservers/node_modules/@modelcontextprotocol/sdk/dist/esm")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sdk); err != nil {
		t.Fatalf("npm ci --prefix internal/testdata/mcpservers first: %v", err)
	}
	return node, sdk
}

// writeScript writes src to a fresh .mjs file and returns its path.
func writeScript(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "server.mjs")
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// noisyTSServer writes a stdio MCP server on the TypeScript SDK that runs
// head before serving and has two tools: "ok" answers "done ok"; "noisy"
// first writes a line that is not JSON-RPC to stdout (a stray
// console.log, a common bug of real stdio servers), then answers "done
// noisy".
func noisyTSServer(t *testing.T, sdk, head string) string {
	t.Helper()
	return writeScript(t, `import { Server } from "`+sdk+`/server/index.js";
import { StdioServerTransport } from "`+sdk+`/server/stdio.js";
import * as T from "`+sdk+`/types.js";
`+head+`
const s = new Server({ name: "noisy", version: "1.0.0" }, { capabilities: { tools: {} } });
s.setRequestHandler(T.ListToolsRequestSchema, async () => ({ tools: [
  { name: "ok", inputSchema: { type: "object" } }, { name: "noisy", inputSchema: { type: "object" } }] }));
s.setRequestHandler(T.CallToolRequestSchema, async (req) => {
  if (req.params.name === "noisy") { process.stdout.write("debug: handling noisy\n"); }
  return { content: [{ type: "text", text: "done " + req.params.name }] };
});
await s.connect(new StdioServerTransport());
`)
}

// stdioWorld is a test server with one saved stdio server running
// node with args.
func stdioWorld(t *testing.T, node string, args []string, opts ...projectopstest.Option) (call func(suffix, body string) result, srv *projectopstest.Server, path string) {
	t.Helper()
	srv = projectopstest.NewTestServer(t, append([]projectopstest.Option{noLimit}, opts...)...)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "stdio",
		Command: node, Args: args, ProtocolVersion: "2025-11-25"}))
	path = "/projects/" + ws.ProjectID + "/servers/" + id
	return func(suffix, body string) result {
		return inproc(srv).call(t, "POST", path+suffix, ws.APIKey, body)
	}, srv, path
}

// A stdio server that prints a banner to stdout before it serves MCP
// works against the service: its stdio client (the TypeScript SDK's
// StdioClientTransport, under @mcpjam/sdk's MCPClientManager) skips a line
// that does not parse as a JSON-RPC message and reads on. So listing and
// calling answer 200.
func TestStdioBannerBeforeServing(t *testing.T) {
	t.Parallel()
	node, sdk := nodeSDK(t)
	call, _, _ := stdioWorld(t, node, []string{noisyTSServer(t, sdk, `process.stdout.write("banner: starting\n");`)})
	if r := call("/tools", `{}`); r.status != http.StatusOK {
		t.Errorf("tools of a server that printed a banner: %d %s, want 200", r.status, r.body)
	}
	if r := call("/tools/call", `{"toolName":"ok"}`); r.status != http.StatusOK || !strings.Contains(string(r.body), "done ok") {
		t.Errorf("tools/call of a server that printed a banner: %d %s, want 200 with the tool's result", r.status, r.body)
	}
}

// A tool that writes a stray line to stdout before it answers: the
// service's client skips the line and the call's answer arrives, so
// tools/call is 200 with the result.
func TestStdioNoiseDuringCall(t *testing.T) {
	t.Parallel()
	node, sdk := nodeSDK(t)
	call, _, _ := stdioWorld(t, node, []string{noisyTSServer(t, sdk, "")})
	if r := call("/tools/call", `{"toolName":"noisy"}`); r.status != http.StatusOK || !strings.Contains(string(r.body), "done noisy") {
		t.Errorf("tools/call of a tool that logs to stdout: %d %s, want 200 with the tool's result", r.status, r.body)
	}
}

// A process that starts but only ever writes lines that are not JSON-RPC
// never answers initialize: the service's client skips them all until its
// request times out, which it answers 504 TIMEOUT (api-spec.md section 7:
// "server connected but did not answer in time"), not 502.
func TestStdioOnlyNoiseIsTimeout(t *testing.T) {
	t.Parallel()
	node, _ := nodeSDK(t)
	junk := writeScript(t, `setInterval(() => process.stdout.write("not json-rpc\n"), 100); process.stdin.resume();`)
	call, _, _ := stdioWorld(t, node, []string{junk}, projectopstest.WithMCPTimeout(3*time.Second))
	call("/tools", `{}`).wantError(t, shared.CodeTimeout)
}
