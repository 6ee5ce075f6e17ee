package servers_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// newerServer answers with what go-sdk's types do not model, as a server
// on a newer MCP revision does: a tool's execution, and vendor fields on
// results, items and content parts.
func newerServer() *mcp.Server {
	s := fullServer()
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil || res == nil {
				return res, err
			}
			return &vendorResult{res}, nil
		}
	})
	return s
}

// vendorResult is a go-sdk result that encodes with extra fields.
type vendorResult struct{ mcp.Result }

func (v *vendorResult) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(v.Result)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["x-vendor"] = "kept"
	if caps, ok := m["capabilities"].(map[string]any); ok {
		caps["tasks"] = map[string]any{"list": map[string]any{}}
	}
	for _, list := range []string{"tools", "prompts", "resources", "resourceTemplates", "content", "contents", "messages"} {
		items, _ := m[list].([]any)
		for _, it := range items {
			if o, ok := it.(map[string]any); ok {
				o["x-item"] = list
				if list == "tools" {
					o["execution"] = map[string]any{"taskSupport": "optional"}
				}
			}
		}
	}
	return json.Marshal(m)
}

// TestResultsVerbatim: the double passes on what the MCP server answered
// as it came, as the service does (tools "as returned by the server",
// call results "verbatim"), and a program reads the fields the SDK's types
// do not model from option.Response.Body, while the typed result decodes
// as before.
func TestResultsVerbatim(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// Protocol 2025-11-25: an initialize result to keep (go-sdk's newer
	// handshake has none).
	p := f.WS.ProjectID
	id, err := f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "newer", MCPServer: newerServer(),
		ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	var meta option.Response
	var page *shared.Page[*mcp.Tool]
	body := func(what string, err error, want ...string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, w := range want {
			if !strings.Contains(string(meta.Body), w) {
				t.Errorf("%s: body %s lacks %s", what, meta.Body, w)
			}
		}
	}
	page, err = f.C.Servers.ListTools(ctx, p, id, nil, option.WithResponseInto(&meta))
	body("ListTools", err, `"execution":{"taskSupport":"optional"}`, `"x-item":"tools"`)
	if len(page.Items) == 0 || page.Items[0].Name == "" {
		t.Errorf("typed tools = %+v", page.Items)
	}
	var raw struct {
		Items []struct {
			Name      string `json:"name"`
			Execution struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"items"`
	}
	if err := json.Unmarshal(meta.Body, &raw); err != nil || raw.Items[0].Execution.TaskSupport != "optional" {
		t.Errorf("decoding Body: %+v, %v", raw, err)
	}
	res, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"query": "q"}},
		option.WithResponseInto(&meta))
	body("CallTool", err, `"x-vendor":"kept"`, `"x-item":"content"`)
	if text(t, res.Content) != "echo: q" {
		t.Errorf("typed result = %+v", res)
	}
	_, err = f.C.Servers.ListPrompts(ctx, p, id, nil, option.WithResponseInto(&meta))
	body("ListPrompts", err, `"x-item":"prompts"`)
	_, err = f.C.Servers.ListResources(ctx, p, id, nil, option.WithResponseInto(&meta))
	body("ListResources", err, `"x-item":"resources"`)
	// Export keeps, as the service does, only some fields of each item
	// (a tool's name, description and schemas): execution and vendor
	// fields are not exported.
	snap, err := f.C.Servers.Export(ctx, p, id, option.WithResponseInto(&meta))
	body("Export", err, `"inputSchema":{`, `"mimeType":"text/plain"`, `"arguments":[`)
	for _, no := range []string{`"execution"`, `"x-item"`} {
		if strings.Contains(string(meta.Body), no) {
			t.Errorf("Export: body %s has %s; the service keeps a few fields of each item", meta.Body, no)
		}
	}
	// The snapshot keeps the document as served, so Diff sees those fields.
	if string(snap.Raw) != string(meta.Body) || len(snap.Tools) == 0 {
		t.Errorf("snapshot Raw = %s, want the body %s", snap.Raw, meta.Body)
	}
	// Raw is a copy of the caller's Body, and kept without one too.
	meta.Body[0] = ' '
	if snap.Raw[0] != '{' {
		t.Error("snapshot Raw shares the caller's Body")
	}
	plain, err := f.C.Servers.Export(ctx, p, id)
	if err != nil || string(plain.Raw) != string(snap.Raw) || len(plain.Tools) == 0 {
		t.Errorf("Export without WithResponseInto: Raw %s, %v", plain.Raw, err)
	}
	_, err = f.C.Servers.Validate(ctx, p, id, option.WithResponseInto(&meta))
	// initInfo is the service's summary, not the initialize result: the
	// result's own vendor field is not in it, its capabilities are as sent.
	body("Validate", err, `"tasks":{"list":{}}`)
	rep, err := f.C.Servers.Doctor(ctx, p, id, option.WithResponseInto(&meta))
	body("Doctor", err, `"tasks":{"list":{}}`, `"execution":{"taskSupport":"optional"}`, `"x-item":"resourceTemplates"`)
	if rep.Status != servers.DoctorReady || len(rep.Tools) == 0 {
		t.Errorf("typed doctor report = %s, %d tools", rep.Status, len(rep.Tools))
	}
}
