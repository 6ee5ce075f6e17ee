package projectops_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

// The callers of an access world, by the name its keys are stored under.
const (
	asOwner     = "owner"     // organization owner: admin of every project
	asOrgAdmin  = "orgadmin"  // organization admin: admin of every project
	asProjAdmin = "projadmin" // organization member, admin of the default project
	asMember    = "member"    // organization member, member of the default project
	asProjGuest = "pguest"    // organization member, guest of the default project
	asOutsider  = "outsider"  // organization member without access to the default project
	asOrgGuest  = "orgguest"  // organization guest: the API is closed to them
	asForeign   = "foreign"   // owner of another organization
	asRevoked   = "revoked"   // a revoked key of member
	asOrphaned  = "orphaned"  // an orphaned key of member
)

var accessCallers = []string{asOwner, asOrgAdmin, asProjAdmin, asMember, asProjGuest, asOutsider, asOrgGuest, asForeign, asRevoked, asOrphaned}

// accessWorld is the default workspace plus a user of every role, projects
// around the default one, and a host and a chatbox in the default project
// and in another project of the same organization.
type accessWorld struct {
	srv  *projectopstest.Server
	ws   projectopstest.Workspace
	keys map[string]string
	// other is private, in the same organization, without explicit
	// members; public is open to every organization member; foreign lives
	// in another organization.
	other, public, foreign string
	foreignOrg             string
	host, chatbox          string // in the default project
	otherHost, otherCbx    string // in other
}

func newAccessWorld(t *testing.T, opts ...projectopstest.Option) *accessWorld {
	t.Helper()
	srv := projectopstest.NewTestServer(t, append([]projectopstest.Option{projectopstest.WithRateLimit(0, 0)}, opts...)...)
	ws := srv.Default()
	w := &accessWorld{srv: srv, ws: ws, keys: map[string]string{asOwner: ws.APIKey}}
	id := func(id string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	users := map[string]string{}
	addUser := func(name, org string, role projectopstest.Role) {
		users[name] = id(srv.AddUser(projectopstest.UserSpec{OrganizationID: org, Role: role, Name: name}))
		key, _, err := srv.AddAPIKey(users[name], name)
		if err != nil {
			t.Fatal(err)
		}
		w.keys[name] = key
	}
	addUser(asOrgAdmin, ws.OrganizationID, projectopstest.RoleAdmin)
	addUser(asProjAdmin, ws.OrganizationID, projectopstest.RoleMember)
	addUser(asMember, ws.OrganizationID, projectopstest.RoleMember)
	addUser(asProjGuest, ws.OrganizationID, projectopstest.RoleMember)
	addUser(asOutsider, ws.OrganizationID, projectopstest.RoleMember)
	addUser(asOrgGuest, ws.OrganizationID, projectopstest.RoleGuest)
	w.foreignOrg = id(srv.AddOrganization(projectopstest.OrganizationSpec{Name: "Elsewhere"}))
	addUser(asForeign, w.foreignOrg, projectopstest.RoleOwner)
	for name, role := range map[string]projectopstest.Role{asProjAdmin: projectopstest.RoleAdmin,
		asMember: projectopstest.RoleMember, asProjGuest: projectopstest.RoleGuest} {
		if err := srv.AddMember(ws.ProjectID, users[name], role); err != nil {
			t.Fatal(err)
		}
	}
	// The organization guest is even a member of the default project: the
	// organization role still closes the API.
	if err := srv.AddMember(ws.ProjectID, users[asOrgGuest], projectopstest.RoleMember); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{asRevoked, asOrphaned} {
		key, keyID, err := srv.AddAPIKey(users[asMember], name)
		if err != nil {
			t.Fatal(err)
		}
		w.keys[name] = key
		if name == asRevoked {
			err = srv.RevokeAPIKey(keyID)
		} else {
			err = srv.OrphanAPIKey(keyID)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	w.other = id(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "Other"}))
	w.public = id(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "Open",
		Visibility: projectopstest.VisibilityPublic}))
	w.foreign = id(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: w.foreignOrg, Name: "Foreign"}))
	w.host = id(srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "H", Template: hosts.TemplateClaude}))
	w.chatbox = id(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "C", HostID: w.host}))
	w.otherHost = id(srv.AddHost(projectopstest.HostSpec{ProjectID: w.other, Name: "OH", Template: hosts.TemplateChatGPT}))
	w.otherCbx = id(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: w.other, Name: "OC", HostID: w.otherHost}))
	return w
}

// client returns an SDK client acting as caller, with fast retries.
func (w *accessWorld) client(t *testing.T, caller string, opts ...option.RequestOption) *projectops.Client {
	t.Helper()
	base := []option.RequestOption{option.WithAPIKey(w.keys[caller]),
		option.WithRetryBackoff(time.Millisecond, 5*time.Millisecond)}
	c, err := w.srv.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wantAccessCode asserts err is a *projectops.Error with code ("" means no
// error) answered by the service with the paired status. An
// UNAUTHORIZED of an orphaned key must carry the ORPHANED_KEY reason, any
// other error no reason.
func wantAccessCode(t *testing.T, err error, code projectops.Code, orphanedKey bool) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("err = %v, want success", err)
		}
		return
	}
	var e *projectops.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want %s", err, err, code)
	}
	if e.Code != code || e.StatusCode != code.Status() {
		t.Fatalf("err = %v, want %d %s", e, code.Status(), code)
	}
	if orphanedKey {
		if e.Reason != projectops.ReasonOrphanedKey || !errors.Is(err, projectops.ErrOrphanedKey) {
			t.Fatalf("err = %v, want reason ORPHANED_KEY matching ErrOrphanedKey", e)
		}
		if got, _ := e.Details["reason"].(string); got != string(projectops.ReasonOrphanedKey) {
			t.Fatalf("details.reason = %q", got)
		}
	} else if e.Reason != "" || errors.Is(err, projectops.ErrOrphanedKey) {
		t.Fatalf("err = %v has reason %q", e, e.Reason)
	}
	if !errors.Is(err, &projectops.Error{Code: code}) {
		t.Fatalf("errors.Is(err, %s sentinel) is false", code)
	}
}

// accessNeed is what an operation needs.
type accessNeed int

const (
	needPublic accessNeed = iota // no key at all
	needKey                      // a working key, no project
	needRead                     // read access to the default project
	needWrite                    // write access to the default project
)

// expectCode is the code each caller gets for an operation needing a.
func expectCode(caller string, a accessNeed) projectops.Code {
	if a == needPublic {
		return ""
	}
	switch caller {
	case asRevoked, asOrphaned:
		return projectops.CodeUnauthorized
	case asOrgGuest:
		return projectops.CodeForbidden
	}
	if a == needKey {
		return ""
	}
	switch caller {
	case asForeign:
		return projectops.CodeNotFound
	case asOutsider:
		return projectops.CodeForbidden
	case asProjGuest:
		if a == needWrite {
			return projectops.CodeForbidden
		}
	}
	return ""
}

type accessOp struct {
	name string
	need accessNeed
	call func(ctx context.Context, c *projectops.Client, w *accessWorld) error
}

func accessOps() []accessOp {
	return []accessOp{
		{"Me", needKey, func(ctx context.Context, c *projectops.Client, _ *accessWorld) error {
			_, err := c.Catalog.Me(ctx)
			return err
		}},
		{"ListProjects", needKey, func(ctx context.Context, c *projectops.Client, _ *accessWorld) error {
			_, err := c.Catalog.ListProjects(ctx, nil)
			return err
		}},
		{"ListChatSessions", needKey, func(ctx context.Context, c *projectops.Client, _ *accessWorld) error {
			_, err := c.Catalog.ListChatSessions(ctx, nil)
			return err
		}},
		{"ListBuiltinTools", needKey, func(ctx context.Context, c *projectops.Client, _ *accessWorld) error {
			_, err := c.Catalog.ListBuiltinTools(ctx, "claude-code", nil)
			return err
		}},
		{"HostCatalog", needPublic, func(ctx context.Context, c *projectops.Client, _ *accessWorld) error {
			_, err := c.Catalog.HostCatalog(ctx)
			return err
		}},
		{"ListChatSessions of the project", needRead, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Catalog.ListChatSessions(ctx, &catalog.ChatSessionsParams{ProjectID: w.ws.ProjectID})
			return err
		}},
		{"ListChatboxes", needRead, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Catalog.ListChatboxes(ctx, w.ws.ProjectID, nil)
			return err
		}},
		{"Chatbox", needRead, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Catalog.Chatbox(ctx, w.ws.ProjectID, w.chatbox)
			return err
		}},
		{"Servers.List", needRead, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Servers.List(ctx, w.ws.ProjectID, nil)
			return err
		}},
		{"Hosts.List", needRead, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Hosts.List(ctx, w.ws.ProjectID, nil)
			return err
		}},
		{"Hosts.Get", needRead, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Hosts.Get(ctx, w.ws.ProjectID, w.host)
			return err
		}},
		{"Hosts.Create", needWrite, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Hosts.Create(ctx, w.ws.ProjectID, hosts.CreateParams{Name: "new", Template: hosts.TemplateClaude})
			return err
		}},
		{"Hosts.Create with a bad body", needKey, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			// The body is checked before access, as the service's route
			// parses it before its backend looks anything up: every caller
			// with a working key sees the validation error.
			_, err := c.Hosts.Create(ctx, w.ws.ProjectID, hosts.CreateParams{Name: "new"})
			if e := (*projectops.Error)(nil); errors.As(err, &e) && e.Code == projectops.CodeValidation {
				return nil
			}
			if err == nil {
				return errors.New("create without template or config succeeded")
			}
			return err
		}},
		{"Hosts.Update", needWrite, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Hosts.Update(ctx, w.ws.ProjectID, w.host, hosts.UpdateParams{Name: "renamed"})
			return err
		}},
		{"Hosts.Delete", needWrite, func(ctx context.Context, c *projectops.Client, w *accessWorld) error {
			_, err := c.Hosts.Delete(ctx, w.ws.ProjectID, w.host, &hosts.DeleteParams{Force: true})
			return err
		}},
	}
}

// TestAccessMatrix runs every operation as every caller against the default
// project. A world per case keeps writes from affecting each other.
func TestAccessMatrix(t *testing.T) {
	t.Parallel()
	for _, caller := range accessCallers {
		for _, op := range accessOps() {
			t.Run(caller+"/"+op.name, func(t *testing.T) {
				t.Parallel()
				w := newAccessWorld(t)
				c := w.client(t, caller)
				want := expectCode(caller, op.need)
				err := op.call(t.Context(), c, w)
				wantAccessCode(t, err, want, caller == asOrphaned && want == projectops.CodeUnauthorized)

				// A denied write changed nothing.
				if op.need == needWrite && want != "" {
					page, err := w.client(t, asOwner).Hosts.List(t.Context(), w.ws.ProjectID, nil)
					if err != nil {
						t.Fatal(err)
					}
					if len(page.Items) != 1 || page.Items[0].ID != w.host || page.Items[0].Name != "H" {
						t.Errorf("denied %s changed the hosts: %+v", op.name, page.Items)
					}
				}
			})
		}
	}
}

// Project.Role is the caller's resolved role; which projects are listed at
// all is the access rule.
func TestProjectRoles(t *testing.T) {
	t.Parallel()
	w := newAccessWorld(t)
	p, o, pub := w.ws.ProjectID, w.other, w.public
	tests := []struct {
		caller string
		want   map[string]string // project id → role
	}{
		{asOwner, map[string]string{p: "admin", o: "admin", pub: "admin"}},
		{asOrgAdmin, map[string]string{p: "admin", o: "admin", pub: "admin"}},
		{asProjAdmin, map[string]string{p: "admin", pub: "member"}},
		{asMember, map[string]string{p: "member", pub: "member"}},
		{asProjGuest, map[string]string{p: "guest", pub: "member"}},
		{asOutsider, map[string]string{pub: "member"}},
		{asForeign, map[string]string{w.foreign: "admin"}},
	}
	for _, tt := range tests {
		t.Run(tt.caller, func(t *testing.T) {
			t.Parallel()
			page, err := w.client(t, tt.caller).Catalog.ListProjects(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, pr := range page.Items {
				got[pr.ID] = pr.Role
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("roles (-want +got):\n%s", diff)
			}
		})
	}
}

// Ids of other projects: a project of another organization is NOT_FOUND, a
// project of the organization without access FORBIDDEN, and a host or
// chatbox of another project NOT_FOUND through this one, even for a caller
// who can access both.
func TestCrossProjectIDs(t *testing.T) {
	t.Parallel()
	w := newAccessWorld(t)
	tests := []struct {
		name   string
		caller string
		call   func(ctx context.Context, c *projectops.Client) error
		want   projectops.Code
	}{
		{"another organization's project", asOwner, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.List(ctx, w.foreign, nil)
			return err
		}, projectops.CodeNotFound},
		{"another organization's project, create", asOwner, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Create(ctx, w.foreign, hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude})
			return err
		}, projectops.CodeNotFound},
		{"same organization without access", asMember, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.List(ctx, w.other, nil)
			return err
		}, projectops.CodeForbidden},
		{"same organization without access, host of that project", asMember, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Get(ctx, w.other, w.otherHost)
			return err
		}, projectops.CodeForbidden},
		{"same organization without access, chatboxes", asMember, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Catalog.ListChatboxes(ctx, w.other, nil)
			return err
		}, projectops.CodeForbidden},
		{"public project lets members in", asOutsider, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Create(ctx, w.public, hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude})
			return err
		}, ""},
		{"host of another project, get", asOwner, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Get(ctx, w.ws.ProjectID, w.otherHost)
			return err
		}, projectops.CodeNotFound},
		{"host of another project, update", asOwner, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Update(ctx, w.ws.ProjectID, w.otherHost, hosts.UpdateParams{Name: "x"})
			return err
		}, projectops.CodeNotFound},
		{"host of another project, delete", asOwner, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Delete(ctx, w.ws.ProjectID, w.otherHost, &hosts.DeleteParams{Force: true})
			return err
		}, projectops.CodeNotFound},
		{"chatbox of another project", asOwner, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Catalog.Chatbox(ctx, w.ws.ProjectID, w.otherCbx)
			return err
		}, projectops.CodeNotFound},
		{"chatbox of another project as a member", asMember, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Catalog.Chatbox(ctx, w.ws.ProjectID, w.otherCbx)
			return err
		}, projectops.CodeNotFound},
		{"own chatbox through the other project", asOwner, func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Catalog.Chatbox(ctx, w.other, w.chatbox)
			return err
		}, projectops.CodeNotFound},
	}
	t.Run("cases", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				wantAccessCode(t, tt.call(t.Context(), w.client(t, tt.caller)), tt.want, false)
			})
		}
	})
	// Nothing above touched the other project's host.
	h, err := w.client(t, asOwner).Hosts.Get(t.Context(), w.other, w.otherHost)
	if err != nil {
		t.Fatal(err)
	}
	if h.Name != "OH" {
		t.Errorf("other project's host renamed to %q", h.Name)
	}
}

// Revocation is immediate: a client that worked stops working.
func TestRevokedKey(t *testing.T) {
	t.Parallel()
	w := newAccessWorld(t)
	key, keyID, err := w.srv.AddAPIKey(w.ws.UserID, "short-lived")
	if err != nil {
		t.Fatal(err)
	}
	c, err := w.srv.NewClient(option.WithAPIKey(key))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.Me(t.Context()); err != nil {
		t.Fatalf("before revocation: %v", err)
	}
	if err := w.srv.RevokeAPIKey(keyID); err != nil {
		t.Fatal(err)
	}
	_, err = c.Catalog.Me(t.Context())
	wantAccessCode(t, err, projectops.CodeUnauthorized, false)
	n := 0
	for _, r := range w.srv.Requests() {
		if r.Status == http.StatusUnauthorized {
			n++
		}
	}
	if n != 1 {
		t.Errorf("double answered 401 %d times, want once (a 401 is not retried)", n)
	}

	unknown, err := w.srv.NewClient(option.WithAPIKey("sk_never_issued"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = unknown.Hosts.List(t.Context(), w.ws.ProjectID, nil)
	wantAccessCode(t, err, projectops.CodeUnauthorized, false)
}

// A client without a key is refused by the SDK before anything is sent,
// except for the public host catalog.
func TestNoKeyAgainstDouble(t *testing.T) {
	t.Parallel()
	w := newAccessWorld(t)
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(w.srv.URL()),
		option.WithTransport(w.srv.Transport()))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range accessOps() {
		err := op.call(t.Context(), c, w)
		if op.need == needPublic {
			if err != nil {
				t.Errorf("%s: %v", op.name, err)
			}
			continue
		}
		var e *projectops.Error
		if !errors.As(err, &e) || e.Code != projectops.CodeUnauthorized || e.StatusCode != 0 {
			t.Errorf("%s: err = %v, want a client-side UNAUTHORIZED", op.name, err)
		}
	}
	reqs := w.srv.Requests()
	if len(reqs) != 1 || reqs[0].Route != "GET /host-catalog" {
		t.Errorf("double saw %+v, want only the host catalog", reqs)
	}
}

// API keys cannot manage API keys (api-spec.md §5): the key-management
// surface, served under /api/web as the service's web app serves it
// (mcpjam-inspector/server/routes/web/index.ts, mounted at /api/web),
// answers 403 FORBIDDEN to any sk_ bearer, whatever the method or
// sub-path. It refuses on the prefix before looking the key up
// (routes/web/api-keys.ts, the first apiKeys.use("*")), so a revoked or
// orphaned key gets the same 403 as a live one; only a request without a
// bearer is 401. Under /api/v1 there is no such route: 404 to a live key.
// The SDK has no method for it, so this goes over raw HTTP.
func TestKeyManagementSurface(t *testing.T) {
	t.Parallel()
	w := newAccessWorld(t)
	const surface = "/api/web/api-keys"
	tests := []struct {
		method, path string
		caller       string
		status       int
		code         projectops.Code
	}{
		{http.MethodGet, surface, asOwner, 403, projectops.CodeForbidden},
		{http.MethodPost, surface, asOwner, 403, projectops.CodeForbidden},
		{http.MethodGet, surface + "/" + w.ws.APIKeyID, asOwner, 403, projectops.CodeForbidden},
		{http.MethodDelete, surface + "/" + w.ws.APIKeyID, asOwner, 403, projectops.CodeForbidden},
		{http.MethodPatch, surface + "/" + w.ws.APIKeyID, asOrgAdmin, 403, projectops.CodeForbidden},
		{http.MethodPost, surface + "/" + w.ws.APIKeyID + "/revoke", asMember, 403, projectops.CodeForbidden},
		{http.MethodGet, surface, asRevoked, 403, projectops.CodeForbidden},
		{http.MethodDelete, surface + "/" + w.ws.APIKeyID, asOrphaned, 403, projectops.CodeForbidden},
		{http.MethodGet, surface, "", 401, projectops.CodeUnauthorized},
		{http.MethodGet, "/api/v1/api-keys", asOwner, 404, projectops.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path+" as "+tt.caller, func(t *testing.T) {
			t.Parallel()
			var body io.Reader
			if tt.method == http.MethodPost || tt.method == http.MethodPatch {
				body = strings.NewReader(`{"name":"new key"}`)
			}
			origin := strings.TrimSuffix(w.srv.URL(), "/api/v1")
			req, err := http.NewRequestWithContext(t.Context(), tt.method, origin+tt.path, body)
			if err != nil {
				t.Fatal(err)
			}
			if key := w.keys[tt.caller]; key != "" {
				req.Header.Set("Authorization", "Bearer "+key)
			}
			resp, err := w.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			var env struct{ Code projectops.Code }
			if err := json.Unmarshal(b, &env); err != nil {
				t.Fatalf("body %q is not an error envelope: %v", b, err)
			}
			if resp.StatusCode != tt.status || env.Code != tt.code {
				t.Errorf("%d %s, want %d %s", resp.StatusCode, env.Code, tt.status, tt.code)
			}
		})
	}
}
