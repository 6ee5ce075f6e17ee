package hosts_test

import (
	"net/http"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

// Bodies the typed SDK cannot produce (unknown fields, wrong JSON types,
// non-objects), sent raw to the host routes: each is a 400
// VALIDATION_ERROR naming the offending field where there is one, and
// changes nothing.
func TestRawHostBodies(t *testing.T) {
	t.Parallel()
	const (
		list = "/projects/{p}/hosts"
		one  = "/projects/{p}/hosts/{h}"
	)
	tests := []struct {
		name, method, path, body string
		field                    string // "" when the error names no field
	}{
		{"create: unknown field", http.MethodPost, list, `{"name":"x","template":"claude","colour":"red"}`, "colour"},
		{"create: field name in another case", http.MethodPost, list, `{"Name":"x","template":"claude"}`, "Name"},
		{"create: field repeated in another case", http.MethodPost, list, `{"name":"a","NAME":"b","template":"claude"}`, "NAME"},
		{"update: field name in another case", http.MethodPatch, one, `{"Config":{"modelId":"m"}}`, "Config"},
		{"delete: field name in another case", http.MethodDelete, one, `{"Force":true}`, "Force"},
		{"create: name is a number", http.MethodPost, list, `{"name":5,"template":"claude"}`, "name"},
		{"create: name is null", http.MethodPost, list, `{"name":null,"template":"claude"}`, "name"},
		{"create: template is a number", http.MethodPost, list, `{"name":"x","template":5}`, "template"},
		{"create: theme is a boolean", http.MethodPost, list, `{"name":"x","template":"claude","theme":true}`, "theme"},
		{"create: config is an array", http.MethodPost, list, `{"name":"x","config":[]}`, "config"},
		{"create: config is a string", http.MethodPost, list, `{"name":"x","config":"{}"}`, "config"},
		{"create: empty config", http.MethodPost, list, `{"name":"x","config":{}}`, ""},
		{"create: empty name", http.MethodPost, list, `{"name":"","template":"claude"}`, "name"},
		{"create: body is an array", http.MethodPost, list, `[]`, ""},
		{"create: body is a string", http.MethodPost, list, `"x"`, ""},
		{"create: malformed JSON", http.MethodPost, list, `{"name":`, ""},
		{"update: unknown field", http.MethodPatch, one, `{"nam":"x"}`, "nam"},
		{"update: name is a number", http.MethodPatch, one, `{"name":5}`, "name"},
		{"update: empty name", http.MethodPatch, one, `{"name":""}`, "name"},
		{"update: empty config", http.MethodPatch, one, `{"config":{}}`, "config"},
		{"update: config is an array", http.MethodPatch, one, `{"config":[1]}`, "config"},
		{"update: only nulls", http.MethodPatch, one, `{"name":null,"config":null}`, "config"}, // ties name the smallest path
		{"update: theme is not an update field", http.MethodPatch, one, `{"theme":"dark"}`, "theme"},
		{"delete: force is a string", http.MethodDelete, one, `{"force":"yes"}`, "force"},
		{"delete: unknown field", http.MethodDelete, one, `{"forse":true}`, "forse"},
		{"delete: body is an array", http.MethodDelete, one, `[true]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			host := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: f.WS.ProjectID, Name: "H",
				Template: hosts.TemplateClaude}))
			// The host is referenced, so a delete that got through would
			// answer 409, not 400.
			must(t)(f.Srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: f.WS.ProjectID, Name: "s", HostID: host}))
			before, err := f.C.Hosts.Get(t.Context(), f.WS.ProjectID, host)
			if err != nil {
				t.Fatal(err)
			}
			path := strings.NewReplacer("{p}", f.WS.ProjectID, "{h}", host).Replace(tt.path)
			status, body := f.Raw(t, tt.method, path, f.WS.APIKey, tt.body)
			if status != http.StatusBadRequest || body.Code != projectops.CodeValidation {
				t.Fatalf("%s %s %s: %d %s %q, want 400 VALIDATION_ERROR", tt.method, path, tt.body, status, body.Code, body.Message)
			}
			if body.Message == "" {
				t.Error("empty message")
			}
			if got, _ := body.Details["field"].(string); got != tt.field {
				t.Errorf("details.field = %q, want %q (details %v)", got, tt.field, body.Details)
			}
			page, err := f.C.Hosts.List(t.Context(), f.WS.ProjectID, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) != 1 {
				t.Errorf("hosts = %v, want just %s", hostIDs(page.Items), host)
			}
			after, err := f.C.Hosts.Get(t.Context(), f.WS.ProjectID, host)
			if err != nil {
				t.Fatal(err)
			}
			if after.Name != before.Name || !after.Config.Equal(before.Config) {
				t.Errorf("a rejected request changed the host: %+v", after)
			}
		})
	}
}

// A bad key is a 401 whatever the body; a project guest's bad body is the
// validation error, as the service's route checks a body before its
// backend checks access.
func TestRawBodyBeforeAccess(t *testing.T) {
	t.Parallel()
	f := setup(t)
	guest := must(t)(f.Srv.AddUser(projectopstest.UserSpec{OrganizationID: f.WS.OrganizationID, Role: projectopstest.RoleMember}))
	if err := f.Srv.AddMember(f.WS.ProjectID, guest, projectopstest.RoleGuest); err != nil {
		t.Fatal(err)
	}
	guestKey, _, err := f.Srv.AddAPIKey(guest, "guest")
	if err != nil {
		t.Fatal(err)
	}
	path := "/projects/" + f.WS.ProjectID + "/hosts"
	tests := []struct {
		name, key string
		status    int
		code      projectops.Code
	}{
		{"project guest", guestKey, http.StatusBadRequest, projectops.CodeValidation},
		{"no key", "", http.StatusUnauthorized, projectops.CodeUnauthorized},
		{"unknown key", "sk_unknown", http.StatusUnauthorized, projectops.CodeUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, body := f.Raw(t, http.MethodPost, path, tt.key, `{"colour":"red"}`)
			if status != tt.status || body.Code != tt.code {
				t.Errorf("got %d %s, want %d %s", status, body.Code, tt.status, tt.code)
			}
		})
	}
}
