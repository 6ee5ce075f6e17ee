package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/shared"
)

func TestAuthentication(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tests := []struct {
		name       string
		authz      string // raw Authorization header
		wantStatus int
		wantCode   shared.Code
		wantReason string
	}{
		{"no header", "", 401, shared.CodeUnauthorized, ""},
		{"basic scheme", "Basic " + w.keys["owner"], 401, shared.CodeUnauthorized, ""},
		{"empty bearer", "Bearer ", 401, shared.CodeUnauthorized, ""},
		{"session token", "Bearer eyJhbGciOiJIUzI1NiJ9.session", 401, shared.CodeUnauthorized, ""},
		{"legacy key", "Bearer mcpjam_abc", 401, shared.CodeUnauthorized, ""},
		{"unknown key", "Bearer sk_not_a_real_key", 401, shared.CodeUnauthorized, ""},
		{"revoked", "Bearer " + w.keys["revoked"], 401, shared.CodeUnauthorized, ""},
		{"orphaned", "Bearer " + w.keys["orphaned"], 401, shared.CodeUnauthorized, "ORPHANED_KEY"},
		{"org guest", "Bearer " + w.keys["orgguest"], 403, shared.CodeForbidden, ""},
		{"owner", "Bearer " + w.keys["owner"], 200, "", ""},
		// The gateway reads the scheme exactly as "Bearer ".
		{"lowercase scheme", "bearer " + w.keys["member"], 401, shared.CodeUnauthorized, ""},
		{"upper-case scheme", "BEARER " + w.keys["member"], 401, shared.CodeUnauthorized, ""},
		{"two spaces", "Bearer  " + w.keys["member"], 401, shared.CodeUnauthorized, ""},
	}
	for _, tg := range targets(t, w.srv) {
		for _, tt := range tests {
			t.Run(tg.name+"/"+tt.name, func(t *testing.T) {
				req, err := http.NewRequestWithContext(t.Context(), "GET", tg.base+"/me", nil)
				if err != nil {
					t.Fatal(err)
				}
				if tt.authz != "" {
					req.Header.Set("Authorization", tt.authz)
				}
				resp, err := tg.client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				r := readResult(t, resp)
				if tt.wantCode == "" {
					if r.status != tt.wantStatus {
						t.Fatalf("status %d, body %s", r.status, r.body)
					}
					return
				}
				b := r.wantError(t, tt.wantCode)
				if got, _ := b.Details["reason"].(string); got != tt.wantReason {
					t.Errorf("details.reason = %q, want %q", got, tt.wantReason)
				}
			})
		}
	}
}

func TestRevocationIsImmediate(t *testing.T) {
	t.Parallel()
	srv := newWorld(t).srv
	ws := srv.Default()
	secret, id, err := srv.AddAPIKey(ws.UserID, "short-lived")
	if err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	if r := tg.call(t, "GET", "/me", secret, nil); r.status != 200 {
		t.Fatalf("before revoke: %d %s", r.status, r.body)
	}
	if err := srv.RevokeAPIKey(id); err != nil {
		t.Fatal(err)
	}
	tg.call(t, "GET", "/me", secret, nil).wantError(t, shared.CodeUnauthorized)
	if err := srv.RevokeAPIKey("key_nope"); err == nil {
		t.Error("RevokeAPIKey of an unknown key: want error")
	}
}

func TestProjectAccess(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.ws.ProjectID
	hostBody := map[string]any{"name": "New", "template": "claude"}
	tests := []struct {
		name, key, method, path string
		body                    any
		want                    shared.Code // "" = success
	}{
		{"owner reads", "owner", "GET", "/projects/" + p + "/hosts", nil, ""},
		{"admin implicit", "admin", "GET", "/projects/" + w.otherProject + "/hosts", nil, ""},
		{"member reads", "member", "GET", "/projects/" + p + "/servers", nil, ""},
		{"member writes", "member", "POST", "/projects/" + p + "/hosts", hostBody, ""},
		{"project guest reads", "pguest", "GET", "/projects/" + p + "/hosts", nil, ""},
		{"project guest reads chatboxes", "pguest", "GET", "/projects/" + p + "/chatboxes", nil, ""},
		{"project guest create", "pguest", "POST", "/projects/" + p + "/hosts", hostBody, shared.CodeForbidden},
		// The service checks a body before its backend checks access.
		{"project guest bad body", "pguest", "POST", "/projects/" + p + "/hosts", `{"bogus":1}`, shared.CodeValidation},
		{"public project member", "outsider", "GET", "/projects/" + w.publicProject + "/hosts", nil, ""},
		{"no access", "outsider", "GET", "/projects/" + p + "/hosts", nil, shared.CodeForbidden},
		{"no access servers", "member", "GET", "/projects/" + w.otherProject + "/servers", nil, shared.CodeForbidden},
		{"other org project", "owner", "GET", "/projects/" + w.foreignProject + "/hosts", nil, shared.CodeNotFound},
		{"other org project write", "owner", "POST", "/projects/" + w.foreignProject + "/hosts", hostBody, shared.CodeNotFound},
		{"unknown project", "owner", "GET", "/projects/prj_nope/chatboxes", nil, shared.CodeNotFound},
		{"host of other project", "owner", "GET", "/projects/" + p + "/hosts/" + w.hostOther, nil, shared.CodeNotFound},
		{"patch host of other project", "owner", "PATCH", "/projects/" + p + "/hosts/" + w.hostOther, map[string]any{"name": "x"}, shared.CodeNotFound},
		{"delete host of other project", "owner", "DELETE", "/projects/" + p + "/hosts/" + w.hostOther, nil, shared.CodeNotFound},
		{"chatbox of other project", "owner", "GET", "/projects/" + p + "/chatboxes/" + w.cbxOther, nil, shared.CodeNotFound},
		{"foreign key cannot see our project", "foreign", "GET", "/projects/" + p + "/hosts", nil, shared.CodeNotFound},
		{"org guest everywhere", "orgguest", "GET", "/projects/" + w.publicProject + "/hosts", nil, shared.CodeForbidden},
		{"org guest chat sessions", "orgguest", "GET", "/chat-sessions", nil, shared.CodeForbidden},
		{"chat sessions other org filter", "owner", "GET", "/chat-sessions?projectId=" + w.foreignProject, nil, shared.CodeNotFound},
		{"chat sessions no access filter", "member", "GET", "/chat-sessions?projectId=" + w.otherProject, nil, shared.CodeForbidden},
	}
	tg := inproc(w.srv)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := tg.call(t, tt.method, tt.path, w.keys[tt.key], tt.body)
			if tt.want == "" {
				if r.status/100 != 2 {
					t.Fatalf("status %d, body %s", r.status, r.body)
				}
				return
			}
			r.wantError(t, tt.want)
		})
	}
}

func TestProjectGuestWritesDenied(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.ws.ProjectID
	tg := inproc(w.srv)
	var h struct{ ID string }
	tg.call(t, "POST", "/projects/"+p+"/hosts", w.keys["owner"], map[string]any{"name": "H", "template": "codex"}).decode(t, &h)
	for _, c := range []struct {
		method string
		body   any
	}{
		{"PATCH", map[string]any{"name": "renamed"}},
		{"DELETE", nil},
		{"DELETE", map[string]any{"force": true}},
	} {
		tg.call(t, c.method, "/projects/"+p+"/hosts/"+h.ID, w.keys["pguest"], c.body).wantError(t, shared.CodeForbidden)
	}
	// Nothing changed.
	var d struct{ Name string }
	tg.call(t, "GET", "/projects/"+p+"/hosts/"+h.ID, w.keys["pguest"], nil).decode(t, &d)
	if d.Name != "H" {
		t.Errorf("name = %q after denied writes", d.Name)
	}
}

// The literal project id "default" means the key's default project on the
// eval-ingest routes only (api-spec.md §4.1, §4.5): everywhere else it is
// an unknown project, 404 NOT_FOUND.
func TestDefaultProjectOnlyOnIngestRoutes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tg := inproc(w.srv)
	for _, path := range []string{"/projects/default/servers", "/projects/default/hosts", "/projects/default/chatboxes",
		"/projects/default/eval-suites", "/projects/default/computer-environments"} {
		tg.call(t, "GET", path, w.keys["owner"], nil).wantError(t, shared.CodeNotFound)
	}
	tg.call(t, "POST", "/projects/default/servers/"+w.server+"/validate", w.keys["owner"], `{}`).wantError(t, shared.CodeNotFound)
}

// Only /api/v1 is served (api-spec.md §9): another version segment is 404
// NOT_FOUND, even with a valid key.
func TestOtherAPIVersionNotFound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, tg := range targets(t, w.srv) {
		base := strings.TrimSuffix(tg.base, "/api/v1")
		for _, path := range []string{"/api/v2/me", "/api/v2/projects", "/api/v0/me"} {
			tg := target{name: tg.name, client: tg.client, base: base}
			tg.call(t, "GET", path, w.keys["owner"], nil).wantError(t, shared.CodeNotFound)
		}
	}
}

func TestProjectsListing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tg := inproc(w.srv)
	list := func(key, query string) map[string]string {
		var page shared.Page[catalog.Project]
		tg.call(t, "GET", "/projects"+query, key, nil).decode(t, &page)
		roles := map[string]string{}
		for _, p := range page.Items {
			if p.OrganizationID != w.ws.OrganizationID {
				t.Errorf("project %s of organization %s leaked", p.ID, p.OrganizationID)
			}
			roles[p.ID] = p.Role
		}
		return roles
	}
	ws := w.ws
	tests := []struct {
		key, query string
		want       map[string]string
	}{
		{w.keys["owner"], "", map[string]string{ws.ProjectID: "admin", w.otherProject: "admin", w.publicProject: "admin"}},
		{w.keys["member"], "", map[string]string{ws.ProjectID: "member", w.publicProject: "member"}},
		{w.keys["pguest"], "", map[string]string{ws.ProjectID: "guest", w.publicProject: "member"}},
		{w.keys["outsider"], "", map[string]string{w.publicProject: "member"}},
		{w.keys["member"], "?organizationId=" + ws.OrganizationID, map[string]string{ws.ProjectID: "member", w.publicProject: "member"}},
		{w.keys["owner"], "?organizationId=org_2", map[string]string{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, list(tt.key, tt.query)); diff != "" {
			t.Errorf("projects%s (-want +got):\n%s", tt.query, diff)
		}
	}
}

func readResult(t *testing.T, resp *http.Response) result {
	t.Helper()
	defer resp.Body.Close()
	var buf []byte
	buf, err := readAll(resp)
	if err != nil {
		t.Fatal(err)
	}
	return result{status: resp.StatusCode, header: resp.Header, body: buf}
}
