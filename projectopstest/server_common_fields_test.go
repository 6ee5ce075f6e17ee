package projectopstest_test

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// Every server operation that reads a body parses the shared per-server
// fields of the service's schema: serverName must be a non-empty string,
// accessScope one of project_member or chat_v2, mcpProtocolVersion a known
// MCP version, clientCapabilities an object. A body breaking one of them is
// 400 VALIDATION_ERROR, never a silent success.
//
// Source: routes/web/auth.ts projectServerSchema (serverName min(1),
// accessScope enum, mcpProtocolVersion enum, clientCapabilities record),
// which routes/v1/adapter.ts runV1ServerOp (tools, tools/call, prompts,
// resources, validate, export), runHostedDoctor and check-oauth parse the
// body with; parse failures are 400 VALIDATION_ERROR
// (routes/v1/__tests__/routes.test.ts "maps a missing required field to a
// 400 VALIDATION_ERROR envelope").
func TestServerOpCommonFieldsChecked(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	for _, op := range serverOps {
		for _, bad := range []struct{ field, value string }{
			{"serverName", `""`}, {"serverName", `null`}, {"accessScope", `"bogus"`},
			{"mcpProtocolVersion", `"1999-01-01"`}, {"clientCapabilities", `[]`}, {"clientCapabilities", `null`},
			{"oauthAccessToken", `7`}, {"scenarioId", `""`}, {"accessVersion", `-1`}, {"accessVersion", `1.5`},
			{"clientInfo", `"x"`}, {"clientInfo.name", `{"name":""}`}, {"supportedProtocolVersions[1]", `["2025-06-18",""]`},
			{"mirrorToolParamHeaders", `"false"`}, {"firstPageOnly", `1`}, {"supportsMrtr", `null`},
		} {
			key, _, _ := strings.Cut(bad.field, ".")
			key, _, _ = strings.Cut(key, "[")
			body := "{" + op.base + `"` + key + `":` + bad.value + "}"
			// A project that does not exist: the body is checked first.
			for _, project := range []string{ws.ProjectID, "prj_missing"} {
				r := tg.call(t, "POST", "/projects/"+project+"/servers/"+id+"/"+op.path, ws.APIKey, body)
				if r.status != 400 {
					t.Errorf("POST %s/%s %s: %d %.200s, want 400 VALIDATION_ERROR", project, op.path, body, r.status, r.body)
					continue
				}
				if e := r.wantError(t, shared.CodeValidation); e.Details["field"] != bad.field {
					t.Errorf("POST /%s %s: details %v, want field %s", op.path, body, e.Details, bad.field)
				}
			}
		}
	}
}

// serverOps are the operations whose body carries the common fields, with
// a valid body's own fields.
var serverOps = []struct{ path, base string }{
	{"tools/call", `"toolName":"t0",`},
	{"tools", ``},
	{"prompts", ``},
	{"prompts/get", `"promptName":"p0",`},
	{"resources", ``},
	{"resources/read", `"uri":"file:///r0",`},
	{"validate", ``},
	{"doctor", ``},
	{"check-oauth", ``},
	{"export", ``},
}

// Valid common fields, every one of them, are accepted on every server
// operation, which then runs as without them.
func TestServerOpCommonFieldsAccepted(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	const common = `"serverName":"Paged","clientCapabilities":{"sampling":{}},"oauthAccessToken":"tok-unused",` +
		`"accessScope":"chat_v2","scenarioId":"scn_1","accessVersion":2.0,"clientInfo":{"name":"ci","version":"1","title":"T"},` +
		`"supportedProtocolVersions":["2025-06-18"],"mcpProtocolVersion":"2025-11-25","mirrorToolParamHeaders":false,` +
		`"firstPageOnly":false,"supportsMrtr":true,"xaaPolicy":{"idp":"mcpjam"}`
	for _, op := range serverOps {
		for _, scope := range []string{"project_member", "chat_v2"} {
			body := "{" + op.base + strings.Replace(common, "chat_v2", scope, 1) + "}"
			if r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/"+op.path, ws.APIKey, body); r.status != 200 {
				t.Errorf("POST /%s %s: %d %.300s, want 200", op.path, body, r.status, r.body)
			}
		}
	}
}

// The operations the service runs on an ephemeral connection (all but
// doctor and check-oauth) refuse an xaaPolicy other than {idp: mcpjam}
// with 400 VALIDATION_ERROR, details.reason xaa_policy_invalid, before the
// project is looked up, unless the body names a scenario; doctor and
// check-oauth do not read it.
//
// Source: routes/web/auth.ts createManualHostedConnection (reached from
// routes/v1/adapter.ts runV1ServerOp) calls utils/effective-auth.ts
// parseXaaPolicyValue on the raw body's xaaPolicy when scenarioId is not a
// non-blank string, after the schema parse and before
// createAuthorizedManager; it throws WebRouteError(409, VALIDATION_ERROR,
// {reason: "xaa_policy_invalid"}) for anything but an object whose idp is
// one of XAA_ENTERPRISE_POLICY_IDPS (sdk/src/xaa/enterprise-policy.ts:
// "mcpjam"). routes/v1/envelope.ts v1OnError answers with
// V1_ERROR_STATUS[code], which is 400 for VALIDATION_ERROR (the spec's
// table pairs them too), not the thrown 409.
func TestServerOpXaaPolicyChecked(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	unread := map[string]bool{"doctor": true, "check-oauth": true}
	for _, op := range serverOps {
		for _, bad := range []string{`{"any":"thing"}`, `null`, `[]`, `"mcpjam"`, `{"idp":"okta"}`, `{"idp":null}`, `{"idp":["mcpjam"]}`} {
			for _, extra := range []string{``, `"scenarioId":" ",`} {
				body := "{" + op.base + extra + `"xaaPolicy":` + bad + "}"
				for _, project := range []string{ws.ProjectID, "prj_missing"} {
					r := tg.call(t, "POST", "/projects/"+project+"/servers/"+id+"/"+op.path, ws.APIKey, body)
					switch {
					case unread[op.path] && project == ws.ProjectID:
						if r.status != 200 {
							t.Errorf("POST /%s %s: %d %.200s, want 200 (not read there)", op.path, body, r.status, r.body)
						}
					case unread[op.path]:
					case r.status != 400:
						t.Errorf("POST %s/%s %s: %d %.200s, want 400 VALIDATION_ERROR", project, op.path, body, r.status, r.body)
					default:
						if e := r.wantError(t, shared.CodeValidation); e.Details["reason"] != "xaa_policy_invalid" || e.Details["field"] != "xaaPolicy" {
							t.Errorf("POST /%s %s: details %v, want reason xaa_policy_invalid, field xaaPolicy", op.path, body, e.Details)
						}
					}
				}
			}
		}
		// A scenario's stored host config decides its policy, which the
		// double does not model: the body's is not read.
		body := "{" + op.base + `"scenarioId":"scn_1","xaaPolicy":{"any":"thing"}}`
		if r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/"+op.path, ws.APIKey, body); r.status != 200 {
			t.Errorf("POST /%s %s: %d %.200s, want 200", op.path, body, r.status, r.body)
		}
	}
}

// The tools listing's own fields are the service's toolsListSchema's:
// cursor and modelId optional strings (null refused); the prompts and
// resources listings' schemas have no modelId, which they drop.
func TestToolsListingOwnFieldsChecked(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	path := "/projects/" + ws.ProjectID + "/servers/" + id + "/"
	for _, body := range []string{`{"cursor":null}`, `{"cursor":7}`, `{"modelId":5}`, `{"modelId":null}`, `{"modelId":{}}`} {
		r := tg.call(t, "POST", path+"tools", ws.APIKey, body)
		if r.status != 400 {
			t.Errorf("tools %s: %d %.200s, want 400", body, r.status, r.body)
			continue
		}
		r.wantError(t, shared.CodeValidation)
	}
	for _, c := range []struct{ op, body string }{{"tools", `{"modelId":"m"}`}, {"prompts", `{"modelId":5}`}, {"resources", `{"modelId":5}`}} {
		if r := tg.call(t, "POST", path+c.op, ws.APIKey, c.body); r.status != 200 {
			t.Errorf("%s %s: %d %.200s, want 200", c.op, c.body, r.status, r.body)
		}
	}
}

// The token import's authorizationServerUrl is an optional string in the
// service's importTokensSchema (z.string().optional()): null and other
// types are 400.
func TestImportAuthorizationServerURLMustBeString(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	for _, v := range []string{`null`, `5`, `{}`} {
		body := `{"serverUrl":"http://x.example/mcp","tokens":{"access_token":"at"},"authorizationServerUrl":` + v + `}`
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/oauth/import-tokens", ws.APIKey, body)
		if r.status != 400 {
			t.Errorf("authorizationServerUrl %s: %d %.200s, want 400", v, r.status, r.body)
			continue
		}
		r.wantError(t, shared.CodeValidation)
	}
}
