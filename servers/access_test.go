package servers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

func sprintf(format string, v any) string { return fmt.Sprintf(format, v) }

// addUser adds a user of the default organization with an org role and, for
// members, the same project role; it returns a client acting as them.
func addUser(t *testing.T, f *fixture, role projectopstest.Role) *projectops.Client {
	t.Helper()
	orgRole, projectRole := role, role
	if role == projectopstest.RoleGuest {
		orgRole = projectopstest.RoleMember // a project guest, not an organization guest
	}
	u := must(t)(f.Srv.AddUser(projectopstest.UserSpec{OrganizationID: f.WS.OrganizationID, Role: orgRole}))
	if err := f.Srv.AddMember(f.WS.ProjectID, u, projectRole); err != nil {
		t.Fatal(err)
	}
	key, _, err := f.Srv.AddAPIKey(u, "k")
	if err != nil {
		t.Fatal(err)
	}
	return f.Client(t, option.WithAPIKey(key))
}

func TestAccessRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "Other"}))
	theirs := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: other, Name: "theirs", MCPServer: fullServer()}))
	ctx := t.Context()

	// A server of another project, or none, is 404 — even through the
	// project that owns it in the path of the wrong one.
	for _, sid := range []string{theirs, "srv_nope"} {
		_, err := f.C.Servers.ListTools(ctx, p, sid, nil)
		wantError(t, err, projectops.CodeNotFound, true)
		_, err = f.C.Servers.CallTool(ctx, p, sid, servers.CallToolParams{ToolName: "echo"})
		wantError(t, err, projectops.CodeNotFound, true)
	}
	_, err := f.C.Servers.Validate(ctx, "prj_nope", id)
	wantError(t, err, projectops.CodeNotFound, true)

	// A project guest may read and diagnose but not run tools or store
	// tokens; a member may do both.
	guest := addUser(t, f, projectopstest.RoleGuest)
	if _, err := guest.Servers.ListTools(ctx, p, id, nil); err != nil {
		t.Errorf("guest ListTools: %v", err)
	}
	if _, err := guest.Servers.Export(ctx, p, id); err != nil {
		t.Errorf("guest Export: %v", err)
	}
	_, err = guest.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "echo"})
	wantError(t, err, projectops.CodeForbidden, true)
	_, err = guest.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: "x", Tokens: servers.Tokens{AccessToken: "a"}})
	wantError(t, err, projectops.CodeForbidden, true)
	member := addUser(t, f, projectopstest.RoleMember)
	if _, err := member.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "echo"}); err != nil {
		t.Errorf("member CallTool: %v", err)
	}
	// No user's session outlives their request.
	if n := f.Srv.MCPSessions(); n != 0 {
		t.Errorf("MCPSessions = %d, want 0", n)
	}
	// Missing path parameters never leave the SDK.
	_, err = f.C.Servers.CallTool(ctx, p, "", servers.CallToolParams{ToolName: "echo"})
	wantError(t, err, projectops.CodeValidation, false)
}

func TestBadInputs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	ctx := t.Context()
	url := projectopstest.InProcessServerURL("full")
	tests := []struct {
		name  string
		call  func() error
		field string
	}{
		{"empty toolName", func() error {
			_, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{})
			return err
		}, "toolName"},
		{"empty promptName", func() error {
			_, err := f.C.Servers.GetPrompt(ctx, p, id, servers.GetPromptParams{})
			return err
		}, "promptName"},
		{"prompt argument not a scalar", func() error {
			_, err := f.C.Servers.GetPrompt(ctx, p, id, servers.GetPromptParams{PromptName: "greet",
				Arguments: map[string]any{"name": []string{"a"}}})
			return err
		}, "arguments.name"},
		{"empty uri", func() error {
			_, err := f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{})
			return err
		}, "uri"},
		{"import without access token", func() error {
			_, err := f.C.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: url})
			return err
		}, "tokens.access_token"},
		{"import without serverUrl", func() error {
			_, err := f.C.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{Tokens: servers.Tokens{AccessToken: "a"}})
			return err
		}, "serverUrl"},
		{"import for another URL", func() error {
			_, err := f.C.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: "https://elsewhere.test/mcp",
				Tokens: servers.Tokens{AccessToken: "a"}})
			return err
		}, "serverUrl"},
		{"import with an empty client id", func() error {
			_, err := f.C.Servers.ImportTokens(ctx, p, id, servers.ImportTokensParams{ServerURL: url,
				ClientInformation: &servers.ClientInformation{}, Tokens: servers.Tokens{AccessToken: "a"}})
			return err
		}, "clientInformation.clientId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := wantError(t, tt.call(), projectops.CodeValidation, true)
			if e.Details["field"] != tt.field {
				t.Errorf("details.field = %v, want %s", e.Details["field"], tt.field)
			}
		})
	}
}

// Raw bodies: what the reference types is checked, naming the bad field;
// a body both reference versions leave open (the diagnostics' and export's
// emptyBody, the cursor body, tools/call) takes unknown fields and ignores
// them, as the service does.
func TestRawBodies(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := addMCP(t, f, "full", fullServer())
	base := f.Srv.URL() + "/projects/" + f.WS.ProjectID + "/servers/" + id
	tests := []struct{ path, body, field string }{
		{"/tools/call", `{"toolName":"echo","parameters":[1]}`, "parameters"},
		{"/prompts/get", `{"promptName":7}`, "promptName"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, base+tt.path, strings.NewReader(tt.body))
		req.Header.Set("Authorization", "Bearer "+f.WS.APIKey)
		resp, err := f.Srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var env struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&env)
		_ = resp.Body.Close()
		if resp.StatusCode != 400 || env.Code != "VALIDATION_ERROR" || env.Details["field"] != tt.field {
			t.Errorf("%s %s: %d %+v, want 400 naming %s", tt.path, tt.body, resp.StatusCode, env, tt.field)
		}
	}
	for path, body := range map[string]string{"/validate": `{"deep":true}`, "/doctor": `{}`, "/check-oauth": `{}`, "/export": `{"cursor":"x"}`,
		"/tools": `{"limit":5}`, "/tools/call": `{"toolName":"echo","parameters":{"message":"m"},"arguments":{}}`} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+f.WS.APIKey)
		resp, err := f.Srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s with %s: %d", path, body, resp.StatusCode)
		}
	}
}
