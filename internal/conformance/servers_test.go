package conformance

import (
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/servers"
)

// checkOpen compares an open schema (additionalProperties allowed, as the
// MCP payloads are) with a Go type: every schema property has a Go field
// and required ones are never omitempty; the Go type may have more.
func checkOpen(t *testing.T, name string, s *schema, typ reflect.Type) {
	t.Helper()
	if s == nil {
		t.Fatalf("%s: no schema", name)
	}
	fields := jsonFields(typ)
	for prop := range s.Properties {
		if _, ok := fields[prop]; !ok {
			t.Errorf("%s: schema property %q has no Go field in %s", name, prop, typ)
		}
	}
	for _, req := range s.Required {
		if f, ok := fields[req]; !ok || f.omitempty {
			t.Errorf("%s: required property %q is missing or omitempty in %s", name, req, typ)
		}
	}
}

func TestServerSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	d := load(t)
	sc := d.Components.Schemas
	closed := map[string]reflect.Type{
		"ValidateResult":     reflect.TypeFor[servers.ValidateResult](),
		"DoctorCheck":        reflect.TypeFor[servers.DoctorCheck](),
		"ExportSnapshot":     reflect.TypeFor[servers.ExportSnapshot](),
		"ImportTokensResult": reflect.TypeFor[servers.ImportTokensResult](),
	}
	for name, typ := range closed {
		check(t, name, sc[name], typ)
	}
	// Fields the current service sends or accepts beyond the reference:
	// check-oauth's verdict (buildOAuthRequirementProjection) and the
	// import's refresh fallback (importTokensSchema).
	checkFields(t, "CheckOAuthResult", sc["CheckOAuthResult"], reflect.TypeFor[servers.CheckOAuthResult](),
		[]string{"requiresAuthorization", "effectiveAuthMethod"})
	checkFields(t, "ImportTokensRequest", sc["ImportTokensRequest"], reflect.TypeFor[servers.ImportTokensParams](),
		[]string{"authorizationServerUrl"})
	ir := sc["ImportTokensRequest"]
	check(t, "ImportTokensRequest.tokens", ir.Properties["tokens"], reflect.TypeFor[servers.Tokens]())
	check(t, "ImportTokensRequest.clientInformation", ir.Properties["clientInformation"], reflect.TypeFor[servers.ClientInformation]())

	// The doctor report allows more properties; its nested objects do not.
	dr := sc["DoctorReport"]
	checkOpen(t, "DoctorReport", dr, reflect.TypeFor[servers.DoctorReport]())
	// toolsMetadata and target are in every report of the service
	// (ServerDoctorResult) though the reference does not declare them.
	checkFields(t, "DoctorReport", dr, reflect.TypeFor[servers.DoctorReport](), []string{"toolsMetadata", "target"})
	check(t, "DoctorReport.connection", dr.Properties["connection"], reflect.TypeFor[servers.Connection]())
	check(t, "DoctorReport.checks", dr.Properties["checks"], reflect.TypeFor[servers.DoctorChecks]())
	if len(dr.Properties["error"].OneOf) != 2 {
		t.Fatal("DoctorReport.error: want oneOf null|object")
	}
	// statusCode is sent by the service with AUTH_ERROR (its client's
	// MCPAuthError, sent as the error itself), beyond the reference.
	checkFields(t, "DoctorReport.error", dr.Properties["error"].OneOf[1], reflect.TypeFor[servers.ReportError](), []string{"statusCode"})

	// MCP payloads are go-sdk types; the schemas are open.
	open := map[string]reflect.Type{
		"Tool":             reflect.TypeFor[mcp.Tool](),
		"Prompt":           reflect.TypeFor[mcp.Prompt](),
		"Resource":         reflect.TypeFor[mcp.Resource](),
		"CallToolResult":   reflect.TypeFor[mcp.CallToolResult](),
		"GetPromptResult":  reflect.TypeFor[mcp.GetPromptResult](),
		"ResourceContents": reflect.TypeFor[mcp.ReadResourceResult](),
	}
	for name, typ := range open {
		checkOpen(t, name, sc[name], typ)
	}
	checkOpen(t, "Prompt.arguments", sc["Prompt"].Properties["arguments"].Items, reflect.TypeFor[mcp.PromptArgument]())
	checkOpen(t, "ResourceContents.contents", sc["ResourceContents"].Properties["contents"].Items, reflect.TypeFor[mcp.ResourceContents]())
	checkOpen(t, "GetPromptResult.messages", sc["GetPromptResult"].Properties["messages"].Items, reflect.TypeFor[mcp.PromptMessage]())
}

// The request bodies of the server operations are inline schemas.
func TestServerRequestBodies(t *testing.T) {
	t.Parallel()
	d := load(t)
	body := func(path string) *schema {
		t.Helper()
		op := d.Paths["/projects/{projectId}/servers/{serverId}"+path]["post"]
		if op.RequestBody == nil {
			t.Fatalf("%s: no request body", path)
		}
		if ref := op.RequestBody.Ref; ref != "" {
			name := ref[len("#/components/requestBodies/"):]
			return d.Components.RequestBodies[name].Content["application/json"].Schema
		}
		return op.RequestBody.Content["application/json"].Schema
	}
	for _, p := range []string{"/tools", "/prompts", "/resources"} {
		check(t, p, body(p), reflect.TypeFor[servers.ListParams]())
	}
	check(t, "/tools/call", body("/tools/call"), reflect.TypeFor[servers.CallToolParams]())
	check(t, "/prompts/get", body("/prompts/get"), reflect.TypeFor[servers.GetPromptParams]())
	check(t, "/resources/read", body("/resources/read"), reflect.TypeFor[servers.ReadResourceParams]())
	for _, p := range []string{"/validate", "/doctor", "/check-oauth", "/export"} {
		if s := body(p); len(s.Properties) != 0 {
			t.Errorf("%s: body has properties %v, the SDK sends {}", p, s.Properties)
		}
	}

	// Every page of primitives is the collection envelope of a go-sdk type.
	for name, item := range map[string]string{"ToolPage": "Tool", "PromptPage": "Prompt", "ResourcePage": "Resource"} {
		s := d.Components.Schemas[name]
		if s == nil || s.Properties["items"] == nil || s.Properties["items"].Items.Ref != "#/components/schemas/"+item {
			t.Errorf("%s: items are not %s", name, item)
		}
	}
}
