package projectopstest_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

func TestMe(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	var me catalog.Me
	inproc(srv).call(t, "GET", "/me", ws.APIKey, nil).decode(t, &me)
	ms := shared.Millis(clock.Now().UnixMilli())
	want := catalog.Me{ID: ws.UserID, Email: "owner@example.com", Name: "Default Owner", Plan: "free", CreatedAt: ms, UpdatedAt: ms}
	if diff := cmp.Diff(want, me); diff != "" {
		t.Errorf("me (-want +got):\n%s", diff)
	}
}

func TestServersListingHidesSecrets(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	str := must[string](t)
	httpID := str(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "remote", URL: "https://mcp.example.com/mcp",
		Headers: map[string]projectopstest.Secret{"X-Api-Key": "header-secret-123"}, UseOAuth: true,
		ClientSecret: "client-secret-456", OAuthScopes: []string{"read"}}))
	stdioID := str(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "local", Command: "npx",
		Args: []string{"--token", "arg-secret-789"}, Env: map[string]projectopstest.Secret{"TOKEN": "env-secret-000"}, Disabled: true}))
	r := inproc(srv).call(t, "GET", "/projects/"+ws.ProjectID+"/servers", ws.APIKey, nil)
	for _, secret := range []string{"header-secret-123", "client-secret-456", "arg-secret-789", "env-secret-000", "npx", "X-Api-Key", "TOKEN"} {
		if bytes.Contains(r.body, []byte(secret)) {
			t.Errorf("listing leaks %q: %s", secret, r.body)
		}
	}
	var page shared.Page[servers.Server]
	r.decode(t, &page)
	ms := shared.Millis(clock.Now().UnixMilli())
	want := []servers.Server{
		{ID: httpID, ProjectID: ws.ProjectID, Name: "remote", Enabled: true, TransportType: "http",
			URL: "https://mcp.example.com/mcp", UseOAuth: true, HasClientSecret: true, OAuthScopes: []string{"read"}, CreatedAt: ms, UpdatedAt: ms},
		{ID: stdioID, ProjectID: ws.ProjectID, Name: "local", Enabled: false, TransportType: "stdio", CreatedAt: ms, UpdatedAt: ms},
	}
	if diff := cmp.Diff(want, page.Items); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
}

// A server seeded with TransportType "sse" is shown as the service shows
// every saved record: transportType "stdio" or "http" (the service keeps
// the SSE choice apart, as the backend's httpVariant, which neither the
// listing nor reference-openapi.json's ProjectServer carries), in the
// listing and in a tunnel grant's previousTransportType. The double still
// connects to it over SSE.
//
// Source: routes/v1/servers.ts serverFields (transportType
// z.enum(["stdio", "http"])), routes/web/auth.ts (serverConfig
// transportType "stdio" | "http" with httpVariant "sse"), routes/v1/tunnels.ts
// (previousTransportType is the listed record's transportType).
func TestSavedSSEServerShownAsHTTP(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.ws.ProjectID
	const u = "https://mcp.example.com/sse"
	id := must[string](t)(w.srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "legacy-sse", URL: u, TransportType: "sse"}))
	tg := inproc(w.srv)
	var page shared.Page[servers.Server]
	tg.call(t, "GET", "/projects/"+p+"/servers", w.keys["owner"], nil).decode(t, &page)
	found := false
	for _, it := range page.Items {
		if it.ID == id {
			found = true
			if it.TransportType != servers.TransportHTTP || it.URL != u {
				t.Errorf("listed as transportType %q url %q, want \"http\" %q", it.TransportType, it.URL, u)
			}
		}
	}
	if !found {
		t.Fatalf("server %s not listed", id)
	}
	var g struct {
		Existed               bool   `json:"existed"`
		PreviousTransportType string `json:"previousTransportType"`
	}
	tg.call(t, "POST", "/projects/"+p+"/tunnels", w.keys["owner"], map[string]any{"name": "legacy-sse"}).decode(t, &g)
	if !g.Existed || g.PreviousTransportType != servers.TransportHTTP {
		t.Errorf("tunnel grant existed %v previousTransportType %q, want true \"http\"", g.Existed, g.PreviousTransportType)
	}
}

func TestBuiltinTools(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	key := srv.Default().APIKey
	tg := inproc(srv)
	var page shared.Page[catalog.BuiltinTool]
	tg.call(t, "GET", "/harness/claude-code/builtin-tools", key, nil).decode(t, &page)
	names := map[string]bool{}
	for _, tool := range page.Items {
		names[tool.Name] = true
		if tool.Key == "" || tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("tool %+v incomplete", tool)
		}
	}
	for _, n := range []string{"Bash", "Read", "Edit", "Write", "Glob", "Grep", "WebSearch", "WebFetch"} {
		if !names[n] {
			t.Errorf("claude-code lacks %s", n)
		}
	}
	tg.call(t, "GET", "/harness/cursor/builtin-tools", key, nil).wantError(t, shared.CodeNotFound)
	tg.call(t, "GET", "/harness/claude-code/builtin-tools", "", nil).wantError(t, shared.CodeUnauthorized)
}

func TestChatboxes(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	str := must[string](t)
	sv := str(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "everything", URL: "https://e.example/mcp", UseOAuth: true}))
	host := str(srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "Claude", Template: hosts.TemplateClaude}))
	temp := 0.2
	cbx := str(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "Support", Description: "Helps",
		Mode: catalog.ModeAnyoneWithLink, HostID: host, ServerIDs: []string{sv}, SystemPrompt: "Be kind.",
		Temperature: &temp, RequireToolApproval: true}))
	bare := str(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "Bare"}))
	tg := inproc(srv)

	var page shared.Page[catalog.Chatbox]
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/chatboxes", ws.APIKey, nil).decode(t, &page)
	if len(page.Items) != 2 || page.Items[0].ID != cbx || page.Items[1].ID != bare {
		t.Fatalf("chatboxes = %+v", page.Items)
	}
	ms := shared.Millis(clock.Now().UnixMilli())
	summary := page.Items[0]
	if summary.Link == nil || summary.Link.URL == "" || summary.Link.Path == "" {
		t.Fatalf("no share link: %+v", summary)
	}
	want := catalog.ChatboxDetail{
		Chatbox: catalog.Chatbox{ID: cbx, ProjectID: ws.ProjectID, Name: "Support", Description: "Helps",
			Mode: catalog.ModeAnyoneWithLink, HostStyle: "claude", HostID: host, HostName: "Claude",
			ServerCount: 1, ServerNames: []string{"everything"}, Link: summary.Link, CreatedAt: ms, UpdatedAt: ms},
		ModelID: "anthropic/claude-haiku-4.5", SystemPrompt: "Be kind.", Temperature: &temp, RequireToolApproval: true,
		Servers: []catalog.ChatboxServer{{ID: sv, Name: "everything", URL: "https://e.example/mcp", UseOAuth: true}},
	}
	if diff := cmp.Diff(want.Chatbox, summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	var d catalog.ChatboxDetail
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/chatboxes/"+cbx, ws.APIKey, nil).decode(t, &d)
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("detail (-want +got):\n%s", diff)
	}
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/chatboxes/cbx_404", ws.APIKey, nil).wantError(t, shared.CodeNotFound)
}

func TestChatSessionsVisibility(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv, ws := w.srv, w.ws
	str := must[string](t)
	add := func(spec projectopstest.ChatSessionSpec) string { return str(srv.AddChatSession(spec)) }
	mine := add(projectopstest.ChatSessionSpec{OwnerUserID: w.users["member"], Title: "mine"})
	mineInProject := add(projectopstest.ChatSessionSpec{OwnerUserID: w.users["member"], ProjectID: ws.ProjectID, Title: "mine in project"})
	add(projectopstest.ChatSessionSpec{OwnerUserID: w.users["owner"], ProjectID: ws.ProjectID, Title: "owner's private"})
	sharedSession := add(projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID, Title: "sharedSession"})
	add(projectopstest.ChatSessionSpec{ProjectID: w.otherProject, Title: "sharedSession elsewhere"})
	add(projectopstest.ChatSessionSpec{ProjectID: w.foreignProject, Title: "foreign"})
	archived := add(projectopstest.ChatSessionSpec{OwnerUserID: w.users["member"], Title: "old", Status: "archived"})
	publicShared := add(projectopstest.ChatSessionSpec{ProjectID: w.publicProject, Title: "public"})

	tg := inproc(srv)
	ids := func(query string) []string {
		var page shared.Page[catalog.ChatSession]
		tg.call(t, "GET", "/chat-sessions"+query, w.keys["member"], nil).decode(t, &page)
		var out []string
		for _, s := range page.Items {
			out = append(out, s.ID)
		}
		return out
	}
	// Same activity time: newest created first.
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{publicShared, sharedSession, mineInProject, mine}},
		{"?status=active", []string{publicShared, sharedSession, mineInProject, mine}},
		{"?status=archived", []string{archived}},
		{"?projectId=" + ws.ProjectID, []string{sharedSession, mineInProject}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ids(tt.query)); diff != "" {
			t.Errorf("chat-sessions%s (-want +got):\n%s", tt.query, diff)
		}
	}
	var page shared.Page[catalog.ChatSession]
	tg.call(t, "GET", "/chat-sessions?projectId="+ws.ProjectID, w.keys["member"], nil).decode(t, &page)
	if page.Items[0].Visibility != "project" || page.Items[1].Visibility != "private" {
		t.Errorf("visibility: %+v", page.Items)
	}
}

func TestChatSessionsPagination(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"inprocess", "loopback"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			clock := newFakeClock()
			srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clock.Now))
			ws := srv.Default()
			base := clock.Now()
			var want []string
			// Seven sessions, two of them tied on activity time.
			for i, minutes := range []int{1, 2, 3, 3, 5, 6, 7} {
				id := must[string](t)(srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID,
					Title: string(rune('a' + i)), LastActivityAt: base.Add(time.Duration(minutes) * time.Minute)}))
				want = append([]string{id}, want...)
			}
			tg := inproc(srv)
			if mode == "loopback" {
				tg = targets(t, srv)[1]
			}
			var got []string
			cursor := ""
			pages := 0
			for {
				q := "/chat-sessions?limit=3"
				if cursor != "" {
					q += "&before=" + cursor
				}
				var page shared.Page[catalog.ChatSession]
				tg.call(t, "GET", q, ws.APIKey, nil).decode(t, &page)
				pages++
				for _, s := range page.Items {
					got = append(got, s.ID)
				}
				if page.NextCursor == "" {
					break
				}
				if pages == 1 {
					// A session active now sorts before the cursor: the rest
					// of the walk is unaffected.
					must[string](t)(srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID, LastActivityAt: base.Add(time.Hour)}))
				}
				cursor = page.NextCursor
			}
			if pages != 3 {
				t.Errorf("%d pages, want 3", pages)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("walk (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChatSessionsDefaultLimit(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for range 60 {
		must[string](t)(srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID}))
	}
	var page shared.Page[catalog.ChatSession]
	inproc(srv).call(t, "GET", "/chat-sessions", ws.APIKey, nil).decode(t, &page)
	if len(page.Items) != 50 || page.NextCursor == "" {
		t.Errorf("default page: %d items, cursor %q", len(page.Items), page.NextCursor)
	}
	var all shared.Page[catalog.ChatSession]
	inproc(srv).call(t, "GET", "/chat-sessions?limit=200", ws.APIKey, nil).decode(t, &all)
	if len(all.Items) != 60 || all.NextCursor != "" {
		t.Errorf("limit 200: %d items, cursor %q", len(all.Items), all.NextCursor)
	}
}

// The service looks a chatbox up by its id, with the caller's access to
// the chatbox's own project, and answers 404 when that is not the path's
// project: named under a project the caller cannot access, a chatbox (or an
// unknown id) is 404, never that project's 403; a chatbox of a project
// the caller cannot read keeps that refusal.
func TestChatboxUnderAnotherProjectIsNotFound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cbx := must[string](t)(w.srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: w.ws.ProjectID, Name: "Mine"}))
	hidden := must[string](t)(w.srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: w.otherProject, Name: "Theirs"}))
	tg := inproc(w.srv)
	tg.call(t, "GET", "/projects/"+w.ws.ProjectID+"/chatboxes/"+cbx, w.keys["member"], nil).decode(t, new(map[string]any))
	for _, path := range []string{"/projects/" + w.otherProject + "/chatboxes/" + cbx, "/projects/" + w.otherProject + "/chatboxes/cbx_nope"} {
		tg.call(t, "GET", path, w.keys["member"], nil).wantError(t, shared.CodeNotFound)
	}
	tg.call(t, "GET", "/projects/"+w.otherProject+"/chatboxes/"+hidden, w.keys["member"], nil).wantError(t, shared.CodeForbidden)
}

// The case the specification's rule decides: a chatbox of a project the
// caller cannot read, named under one it can, is 404 (not that project's
// 403); named under its own project, the caller's access to it counts.
func TestChatboxOfUnreadableProjectUnderReadableIsNotFound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tg := inproc(w.srv)
	for _, who := range []string{"member", "pguest"} {
		tg.call(t, "GET", "/projects/"+w.ws.ProjectID+"/chatboxes/"+w.cbxOther, w.keys[who], nil).wantError(t, shared.CodeNotFound)
	}
	tg.call(t, "GET", "/projects/"+w.otherProject+"/chatboxes/"+w.cbxOther, w.keys["member"], nil).wantError(t, shared.CodeForbidden)
	tg.call(t, "GET", "/projects/"+w.otherProject+"/chatboxes/"+w.cbxOther, w.keys["orgguest"], nil).wantError(t, shared.CodeForbidden)
	tg.call(t, "GET", "/projects/"+w.otherProject+"/chatboxes/"+w.cbxOther, w.keys["foreign"], nil).wantError(t, shared.CodeNotFound)
}
