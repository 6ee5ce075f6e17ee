//go:build integration

package projectopstest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// STDIO env values are secrets (spec §4.2: "STDIO command, args, env and raw
// headers are never included"; README: STDIO env never appears in errors).
// A real TypeScript-SDK stdio server that quotes its configuration in a
// JSON-RPC error reaches the caller through the double's error envelope,
// with a short env value (a 6-byte PIN) taken out as a whole token.
func TestShortStdioEnvSecretNotInErrorEnvelope(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node not on PATH: %v", err)
	}
	sdk, err := filepath.Abs("../internal/testdata/mcpservers/node_modules/@modelcontextprotocol/sdk/dist/esm")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sdk); err != nil {
		t.Fatalf("npm ci --prefix internal/testdata/mcpservers first: %v", err)
	}
	script := filepath.Join(t.TempDir(), "quote-env.mjs")
	src := `import { Server } from "` + sdk + `/server/index.js";
import { StdioServerTransport } from "` + sdk + `/server/stdio.js";
import { ListToolsRequestSchema, CallToolRequestSchema, McpError } from "` + sdk + `/types.js";
const s = new Server({ name: "quote-env", version: "1.0.0" }, { capabilities: { tools: {} } });
s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "t", inputSchema: { type: "object" } }] }));
s.setRequestHandler(CallToolRequestSchema, async () => { throw new McpError(-32603, "upstream refused PIN " + process.env.UPSTREAM_PIN); });
await s.connect(new StdioServerTransport());
`
	if err := os.WriteFile(script, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	const secret = "730451" // 6 bytes
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "quote-env",
		Command: node, Args: []string{script}, Env: map[string]projectopstest.Secret{"UPSTREAM_PIN": secret},
		ProtocolVersion: "2025-11-25"}))
	r := inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/tools/call", ws.APIKey, `{"toolName":"t"}`)
	if r.status < 400 {
		t.Fatalf("status %d %s, want an error", r.status, r.body)
	}
	if strings.Contains(string(r.body), secret) {
		t.Errorf("error envelope reveals the STDIO env value %q: %d %s", secret, r.status, r.body)
	}
}
