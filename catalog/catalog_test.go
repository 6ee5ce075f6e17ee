package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func ms(t time.Time) shared.Millis { return shared.Millis(t.UnixMilli()) }

func TestMe(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.Clock.Advance(time.Hour)
	memberID, memberKey := f.User(t, f.WS.OrganizationID, projectopstest.RoleMember, "Mia Member")

	tests := []struct {
		name string
		c    *projectops.Client
		want *catalog.Me
	}{
		{"owner", f.C, &catalog.Me{ID: f.WS.UserID, Email: "owner@example.com", Name: "Default Owner",
			Plan: "free", CreatedAt: ms(t0), UpdatedAt: ms(t0)}},
		{"member", f.Client(t, option.WithAPIKey(memberKey)), &catalog.Me{ID: memberID,
			Email: memberID + "@example.com", Name: "Mia Member", Plan: "free",
			CreatedAt: ms(t0.Add(time.Hour)), UpdatedAt: ms(t0.Add(time.Hour))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.c.Catalog.Me(t.Context())
			if err != nil {
				t.Fatalf("Me: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Me (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProjects(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ws := f.WS
	memberID, memberKey := f.User(t, ws.OrganizationID, projectopstest.RoleMember, "member")
	if err := f.Srv.AddMember(ws.ProjectID, memberID, projectopstest.RoleMember); err != nil {
		t.Fatal(err)
	}
	f.Clock.Advance(time.Minute)
	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID,
		Name: "Other", Description: "no members", Icon: "rocket"}))
	foreignOrg := must(t)(f.Srv.AddOrganization(projectopstest.OrganizationSpec{Name: "Elsewhere"}))
	foreignUser, foreignKey := f.User(t, foreignOrg, projectopstest.RoleOwner, "foreign")
	foreignProject := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: foreignOrg, Name: "Foreign",
		Members: []projectopstest.MemberSpec{{UserID: foreignUser, Role: projectopstest.RoleAdmin}}}))

	def := func(role string) catalog.Project {
		return catalog.Project{ID: ws.ProjectID, Name: "Default Project", OrganizationID: ws.OrganizationID,
			Visibility: projectopstest.VisibilityPrivate, Role: role, CreatedAt: ms(t0), UpdatedAt: ms(t0)}
	}
	otherP := catalog.Project{ID: other, Name: "Other", Description: "no members", Icon: "rocket",
		OrganizationID: ws.OrganizationID, Visibility: projectopstest.VisibilityPrivate, Role: "admin",
		CreatedAt: ms(t0.Add(time.Minute)), UpdatedAt: ms(t0.Add(time.Minute))}
	foreignP := catalog.Project{ID: foreignProject, Name: "Foreign", OrganizationID: foreignOrg,
		Visibility: projectopstest.VisibilityPrivate, Role: "admin",
		CreatedAt: ms(t0.Add(time.Minute)), UpdatedAt: ms(t0.Add(time.Minute))}

	member := f.Client(t, option.WithAPIKey(memberKey))
	foreign := f.Client(t, option.WithAPIKey(foreignKey))
	tests := []struct {
		name   string
		c      *projectops.Client
		params *catalog.ProjectsParams
		want   []catalog.Project
	}{
		{"owner sees every project of the org as admin", f.C, nil, []catalog.Project{def("admin"), otherP}},
		{"own organization filter", f.C, &catalog.ProjectsParams{OrganizationID: ws.OrganizationID},
			[]catalog.Project{def("admin"), otherP}},
		{"other organization filter", f.C, &catalog.ProjectsParams{OrganizationID: foreignOrg}, []catalog.Project{}},
		{"unknown organization filter", f.C, &catalog.ProjectsParams{OrganizationID: "org_nope"}, []catalog.Project{}},
		{"member sees only its project", member, nil, []catalog.Project{def("member")}},
		{"foreign key stays in its organization", foreign, &catalog.ProjectsParams{}, []catalog.Project{foreignP}},
		{"foreign key filtering on our organization", foreign,
			&catalog.ProjectsParams{OrganizationID: ws.OrganizationID}, []catalog.Project{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			page, err := tt.c.Catalog.ListProjects(t.Context(), tt.params)
			if err != nil {
				t.Fatalf("ListProjects: %v", err)
			}
			if diff := cmp.Diff(tt.want, page.Items); diff != "" {
				t.Errorf("ListProjects (-want +got):\n%s", diff)
			}
			if page.NextCursor != "" {
				t.Errorf("NextCursor = %q, want none", page.NextCursor)
			}
			all, err := collect(tt.c.Catalog.AllProjects(t.Context(), tt.params))
			if err != nil {
				t.Fatalf("Projects: %v", err)
			}
			if diff := cmp.Diff(tt.want, all, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Projects iterator (-want +got):\n%s", diff)
			}
		})
	}
}

// The iterator copies its params: changing them after the call does not
// change what it lists.
func TestProjectsIteratorCopiesParams(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := &catalog.ProjectsParams{OrganizationID: "org_nope"}
	seq := f.C.Catalog.AllProjects(t.Context(), p)
	p.OrganizationID = f.WS.OrganizationID
	got, err := collect(seq)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("Projects listed %d projects, want 0 (params were copied before the change)", len(got))
	}
}

// bundledHostIDs are the hosts of the service's bundled catalog.
func bundledHostIDs() []string {
	return []string{"mcpjam", "claude", "claude-code", "chatgpt", "mistral", "goose", "slack", "cursor",
		"codex", "copilot", "vscode", "agentcore", "n8n", "perplexity", "cline", "notion"}
}

// liveEntry is the bundled catalog's claude entry relabelled, as a live
// publication would carry it.
func liveEntry(t *testing.T) map[string]any {
	t.Helper()
	hc, err := setup(t).C.Catalog.HostCatalog(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(hc.Catalog.HostsByID["claude"])
	if err != nil {
		t.Fatal(err)
	}
	var e map[string]any
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	e["label"], e["modelId"] = "Claude (live)", "anthropic/claude-sonnet-live"
	return e
}

func TestHostCatalog(t *testing.T) {
	t.Parallel()
	envelope := map[string]any{"schemaVersion": 2, "version": 7, "publishedAt": 1700000000000, "contentHash": "abc123",
		"source": "bundled", "catalog": map[string]any{"hostsById": map[string]any{"claude": liveEntry(t)}}}
	b, err := json.Marshal(envelope)
	if err != nil {
		t.Fatal(err)
	}
	live := string(b)
	delete(envelope, "contentHash")
	b, _ = json.Marshal(envelope)
	liveNoHash := string(b)
	src := func(body string, err error) projectopstest.Option {
		return projectopstest.WithHostCatalogSource(func(context.Context) ([]byte, error) { return []byte(body), err })
	}
	tests := []struct {
		name       string
		opts       []projectopstest.Option
		wantSource string
		wantIDs    []string
		check      func(t *testing.T, c *catalog.HostCatalog)
	}{
		{"no source", nil, catalog.SourceBundled, bundledHostIDs(), func(t *testing.T, c *catalog.HostCatalog) {
			if c.SchemaVersion != 2 || c.Version != 0 || c.ContentHash != "" || c.PublishedAt != 0 {
				t.Errorf("bundled envelope = %d/%d/%q/%d, want 2/0/\"\"/0", c.SchemaVersion, c.Version, c.ContentHash, c.PublishedAt)
			}
			claude := c.Catalog.HostsByID["claude"]
			if claude.ID != "claude" || claude.HostStyle != "claude" || claude.Label != "Claude" {
				t.Errorf("claude entry = %+v", claude)
			}
			if claude.ModelID == "" || claude.ConnectionDefaults.RequestTimeout != 10000 || len(claude.Extra) != 0 {
				t.Errorf("claude entry lost its creation fields: ModelID %q, ConnectionDefaults %+v, Extra %v",
					claude.ModelID, claude.ConnectionDefaults, claude.Extra)
			}
		}},
		{"live source", []projectopstest.Option{src(live, nil)}, catalog.SourceLive, []string{"claude"},
			func(t *testing.T, c *catalog.HostCatalog) {
				if c.Version != 7 || c.PublishedAt != 1700000000000 || c.ContentHash != "abc123" || c.SchemaVersion != 2 {
					t.Errorf("live envelope = %d/%d/%q/%d", c.SchemaVersion, c.Version, c.ContentHash, c.PublishedAt)
				}
				if got := c.Catalog.HostsByID["claude"].Label; got != "Claude (live)" {
					t.Errorf("label = %q, want the live one", got)
				}
				if got := c.Catalog.HostsByID["claude"].ModelID; got != "anthropic/claude-sonnet-live" {
					t.Errorf("ModelID = %q", got)
				}
			}},
		// The service's reader requires every envelope field: a publication
		// without contentHash is refused whole and the bundled one served.
		{"live source without hash", []projectopstest.Option{src(liveNoHash, nil)}, catalog.SourceBundled, bundledHostIDs(), nil},
		{"failing source", []projectopstest.Option{src("", errors.New("publication unreachable"))},
			catalog.SourceBundled, bundledHostIDs(), nil},
		{"garbage source", []projectopstest.Option{src("<html>", nil)}, catalog.SourceBundled, bundledHostIDs(), nil},
		{"empty catalog", []projectopstest.Option{src(`{"catalog": {"hostsById": {}}}`, nil)},
			catalog.SourceBundled, bundledHostIDs(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t, tt.opts...)
			// A client built with no key at all: the catalog is public.
			rec := &recorder{RT: f.Srv.Transport()}
			c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(f.Srv.URL()),
				option.WithTransport(rec))
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Catalog.HostCatalog(t.Context())
			if err != nil {
				t.Fatalf("HostCatalog: %v", err)
			}
			if got.Source != tt.wantSource {
				t.Errorf("Source = %q, want %q", got.Source, tt.wantSource)
			}
			var ids []string
			for id, h := range got.Catalog.HostsByID {
				ids = append(ids, id)
				if h.ID != id {
					t.Errorf("hostsById[%q].id = %q", id, h.ID)
				}
			}
			if diff := cmp.Diff(tt.wantIDs, ids, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("host ids (-want +got):\n%s", diff)
			}
			if tt.check != nil {
				tt.check(t, got)
			}
			ex := rec.Exchanges()
			if len(ex) != 1 || ex[0].Path != "/api/v1/host-catalog" {
				t.Fatalf("exchanges = %+v, want one GET /api/v1/host-catalog", ex)
			}
			if h := ex[0].Header.Get("Authorization"); h != "" {
				t.Errorf("the public catalog was sent an Authorization header")
			}
			// The same key-less client cannot call anything else, and says
			// so without sending a request.
			_, err = c.Catalog.Me(t.Context())
			wantError(t, err, projectops.CodeUnauthorized, false)
			if n := len(rec.Exchanges()); n != 1 {
				t.Errorf("Me without a key sent a request (%d exchanges)", n)
			}
		})
	}
}

// A client holding a key still reads the public catalog without sending it.
func TestHostCatalogSendsNoKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rec := &recorder{RT: f.Srv.Transport()}
	c := f.Client(t, option.WithTransport(rec))
	got, err := c.Catalog.HostCatalog(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != catalog.SourceBundled {
		t.Errorf("Source = %q", got.Source)
	}
	ex := rec.Exchanges()
	if len(ex) != 1 || ex[0].Header.Get("Authorization") != "" {
		t.Errorf("want one exchange without Authorization, got %d (auth set: %t)", len(ex),
			len(ex) > 0 && ex[0].Header.Get("Authorization") != "")
	}
	reqs := f.Srv.Requests()
	if len(reqs) != 1 || reqs[0].KeyID != "" || reqs[0].Status != 200 {
		t.Errorf("double saw %+v, want one keyless 200", reqs)
	}
}

func TestBuiltinTools(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// The service's keys, in its order (by native name).
	wantKeys := []string{"Agent", "AskUserQuestion", "bash", "edit", "EnterWorktree", "ExitPlanMode", "ExitWorktree",
		"glob", "grep", "ListMcpResources", "NotebookEdit", "read", "ReadMcpResource", "Skill", "TaskCreate", "TaskGet",
		"TaskList", "TaskOutput", "TaskStop", "TaskUpdate", "TodoWrite", "WebFetch", "webSearch", "write"}
	page, err := f.C.Catalog.ListBuiltinTools(t.Context(), "claude-code", nil)
	if err != nil {
		t.Fatalf("ListBuiltinTools: %v", err)
	}
	var keys []string
	for _, tool := range page.Items {
		keys = append(keys, tool.Key)
		if tool.Name == "" || tool.Description == "" || tool.InputSchema["type"] != "object" {
			t.Errorf("tool %q is incomplete: %+v", tool.Key, tool)
		}
	}
	if diff := cmp.Diff(wantKeys, keys); diff != "" {
		t.Errorf("tool keys (-want +got):\n%s", diff)
	}
	if page.NextCursor != "" {
		t.Errorf("NextCursor = %q", page.NextCursor)
	}
	all, err := collect(f.C.Catalog.AllBuiltinTools(t.Context(), "claude-code", nil))
	if err != nil {
		t.Fatalf("BuiltinTools: %v", err)
	}
	if diff := cmp.Diff(page.Items, all); diff != "" {
		t.Errorf("iterator differs from ListBuiltinTools (-list +iter):\n%s", diff)
	}
}

func TestBuiltinToolsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		harness string
		code    projectops.Code
		sent    bool
	}{
		{"unknown harness", "no-such-harness", projectops.CodeNotFound, true},
		{"harness id with a slash stays one segment", "../me", projectops.CodeNotFound, true},
		{"empty harness id", "", projectops.CodeValidation, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			_, err := f.C.Catalog.ListBuiltinTools(t.Context(), tt.harness, nil)
			e := wantError(t, err, tt.code, tt.sent)
			if !tt.sent {
				if got, _ := e.Details["field"].(string); got != "harnessId" {
					t.Errorf("details.field = %q, want harnessId", got)
				}
			}
			var n int
			for _, err := range f.C.Catalog.AllBuiltinTools(t.Context(), tt.harness, nil) {
				n++
				wantError(t, err, tt.code, tt.sent)
			}
			if n != 1 {
				t.Errorf("iterator yielded %d times, want the error once", n)
			}
			reqs := f.Srv.Requests()
			if !tt.sent {
				if len(reqs) != 0 {
					t.Errorf("double saw %d requests, want none", len(reqs))
				}
				return
			}
			if len(reqs) != 2 {
				t.Fatalf("double saw %d requests, want 2 (no retries of a 404)", len(reqs))
			}
			for _, r := range reqs {
				if r.Route != "GET /harness/{harnessId}/builtin-tools" || r.Status != 404 {
					t.Errorf("request %s %s routed to %q with %d", r.Method, r.Path, r.Route, r.Status)
				}
			}
		})
	}
}

func TestChatboxes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ws := f.WS
	srvA := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "alpha",
		URL: "https://alpha.example.com/mcp", UseOAuth: true}))
	srvB := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "beta",
		Command: "beta-server", Args: []string{"--stdio"}}))
	host := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "Claude host",
		Template: hosts.TemplateClaude, Theme: hosts.ThemeDark}))
	f.Clock.Advance(time.Second)
	temp := 0.25
	support := must(t)(f.Srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "Support",
		Description: "answers questions", Mode: catalog.ModeAnyoneWithLink, HostID: host,
		ServerIDs: []string{srvA, srvB}, SystemPrompt: "Be brief.", Temperature: &temp, RequireToolApproval: true}))
	bare := must(t)(f.Srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "Bare",
		HostStyle: "chatgpt", ModelID: "openai/gpt-5"}))
	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "Other"}))
	elsewhere := must(t)(f.Srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: other, Name: "Elsewhere"}))

	at := ms(t0.Add(time.Second))
	wantSupport := catalog.Chatbox{ID: support, ProjectID: ws.ProjectID, Name: "Support",
		Description: "answers questions", Mode: catalog.ModeAnyoneWithLink, HostStyle: "claude",
		HostID: host, HostName: "Claude host", ServerCount: 2, ServerNames: []string{"alpha", "beta"},
		CreatedAt: at, UpdatedAt: at}
	wantBare := catalog.Chatbox{ID: bare, ProjectID: ws.ProjectID, Name: "Bare", Mode: catalog.ModeProjectMembers,
		HostStyle: "chatgpt", ServerNames: []string{}, CreatedAt: at, UpdatedAt: at}
	ignoreLink := cmpopts.IgnoreFields(catalog.Chatbox{}, "Link")

	page, err := f.C.Catalog.ListChatboxes(t.Context(), ws.ProjectID, nil)
	if err != nil {
		t.Fatalf("ListChatboxes: %v", err)
	}
	if diff := cmp.Diff([]catalog.Chatbox{wantSupport, wantBare}, page.Items, ignoreLink); diff != "" {
		t.Errorf("ListChatboxes (-want +got):\n%s", diff)
	}
	links := map[string]bool{}
	for _, cb := range page.Items {
		if cb.Link == nil || cb.Link.Path == "" || !strings.HasSuffix(cb.Link.URL, cb.Link.Path) {
			t.Errorf("chatbox %s: bad share link %+v", cb.ID, cb.Link)
			continue
		}
		links[cb.Link.Path] = true
	}
	if len(links) != 2 {
		t.Errorf("share links are not distinct: %v", links)
	}
	all, err := collect(f.C.Catalog.AllChatboxes(t.Context(), ws.ProjectID, nil))
	if err != nil {
		t.Fatalf("Chatboxes: %v", err)
	}
	if diff := cmp.Diff(page.Items, all); diff != "" {
		t.Errorf("iterator differs from ListChatboxes (-list +iter):\n%s", diff)
	}

	d, err := f.C.Catalog.Chatbox(t.Context(), ws.ProjectID, support)
	if err != nil {
		t.Fatalf("Chatbox: %v", err)
	}
	wantDetail := &catalog.ChatboxDetail{Chatbox: page.Items[0], ModelID: "anthropic/claude-haiku-4.5",
		SystemPrompt: "Be brief.", Temperature: &temp, RequireToolApproval: true,
		Servers: []catalog.ChatboxServer{
			{ID: srvA, Name: "alpha", URL: "https://alpha.example.com/mcp", UseOAuth: true},
			{ID: srvB, Name: "beta"},
		}}
	if diff := cmp.Diff(wantDetail, d); diff != "" {
		t.Errorf("Chatbox (-want +got):\n%s", diff)
	}
	d, err = f.C.Catalog.Chatbox(t.Context(), ws.ProjectID, bare)
	if err != nil {
		t.Fatalf("Chatbox(bare): %v", err)
	}
	if diff := cmp.Diff(&catalog.ChatboxDetail{Chatbox: page.Items[1], ModelID: "openai/gpt-5",
		Servers: []catalog.ChatboxServer{}}, d); diff != "" {
		t.Errorf("Chatbox(bare) (-want +got):\n%s", diff)
	}

	// A chatbox of another project reads as NOT_FOUND through this project,
	// even for a caller who can see the other project.
	_, err = f.C.Catalog.Chatbox(t.Context(), ws.ProjectID, elsewhere)
	wantError(t, err, projectops.CodeNotFound, true)
	if _, err := f.C.Catalog.Chatbox(t.Context(), other, elsewhere); err != nil {
		t.Errorf("Chatbox through its own project: %v", err)
	}
	_, err = f.C.Catalog.Chatbox(t.Context(), ws.ProjectID, "cbx_nope")
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Catalog.Chatbox(t.Context(), "prj_nope", support)
	wantError(t, err, projectops.CodeNotFound, true)

	n := len(f.Srv.Requests())
	_, err = f.C.Catalog.Chatbox(t.Context(), ws.ProjectID, "")
	wantField(t, err, "chatboxId", false)
	_, err = f.C.Catalog.ListChatboxes(t.Context(), "", nil)
	wantField(t, err, "projectId", false)
	if got := len(f.Srv.Requests()); got != n {
		t.Errorf("empty ids sent %d requests", got-n)
	}
}

// GET /me sends plan as null for an organization without one (a nullable
// field is never left out; the contract check caught it missing).
func TestMePlanNullWithoutPlan(t *testing.T) {
	t.Parallel()
	f := setup(t)
	org := must(t)(f.Srv.AddOrganization(projectopstest.OrganizationSpec{Name: "No plan"}))
	id, key := f.User(t, org, projectopstest.RoleOwner, "np")
	me, err := f.Client(t, option.WithAPIKey(key)).Catalog.Me(t.Context())
	if err != nil || me.ID != id || me.Plan != "" {
		t.Errorf("Me = %+v, %v", me, err)
	}
}
