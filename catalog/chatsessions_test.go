package catalog_test

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	gocmp "github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/projectopstest"
)

// sessionWorld is the default workspace plus a project member, a project of
// the organization the member cannot access, another organization, and chat
// sessions of every visibility spread over them.
type sessionWorld struct {
	*fixture
	member         *projectops.Client
	memberID       string
	other, foreign string
	// ids of the sessions, by the names used in the tests.
	ids map[string]string
}

func newSessionWorld(t *testing.T) *sessionWorld {
	t.Helper()
	f := setup(t)
	ws := f.WS
	w := &sessionWorld{fixture: f, ids: map[string]string{}}
	var memberKey string
	w.memberID, memberKey = f.User(t, ws.OrganizationID, projectopstest.RoleMember, "member")
	if err := f.Srv.AddMember(ws.ProjectID, w.memberID, projectopstest.RoleMember); err != nil {
		t.Fatal(err)
	}
	w.member = f.Client(t, option.WithAPIKey(memberKey))
	w.other = must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "Other"}))
	foreignOrg := must(t)(f.Srv.AddOrganization(projectopstest.OrganizationSpec{Name: "Elsewhere"}))
	foreignUser, _ := f.User(t, foreignOrg, projectopstest.RoleOwner, "foreign")
	w.foreign = must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: foreignOrg, Name: "Foreign"}))

	add := func(name string, minute int, spec projectopstest.ChatSessionSpec) {
		spec.Title = name
		spec.LastActivityAt = t0.Add(time.Duration(minute) * time.Minute)
		w.ids[name] = must(t)(f.Srv.AddChatSession(spec))
	}
	add("owner-personal", 1, projectopstest.ChatSessionSpec{OwnerUserID: ws.UserID})
	add("owner-personal-in-project", 2, projectopstest.ChatSessionSpec{OwnerUserID: ws.UserID, ProjectID: ws.ProjectID, Pinned: true})
	add("shared-default", 3, projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID, Unread: true})
	add("shared-other", 4, projectopstest.ChatSessionSpec{ProjectID: w.other})
	add("member-personal", 5, projectopstest.ChatSessionSpec{OwnerUserID: w.memberID})
	add("shared-default-archived", 6, projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID, Status: catalog.ChatSessionArchived})
	add("owner-personal-archived", 7, projectopstest.ChatSessionSpec{OwnerUserID: ws.UserID, Status: catalog.ChatSessionArchived})
	add("shared-foreign", 8, projectopstest.ChatSessionSpec{ProjectID: w.foreign})
	add("foreign-personal", 9, projectopstest.ChatSessionSpec{OwnerUserID: foreignUser})
	return w
}

// titles lists the sessions' titles (the test names them by title).
func titles(items []catalog.ChatSession) []string {
	out := []string{}
	for _, cs := range items {
		out = append(out, cs.Title)
	}
	return out
}

func TestChatSessionsVisibility(t *testing.T) {
	t.Parallel()
	w := newSessionWorld(t)
	ws := w.WS
	tests := []struct {
		name   string
		c      *projectops.Client
		params *catalog.ChatSessionsParams
		want   []string // titles, newest activity first
	}{
		{"owner: personal and every shared project merged", w.C, nil,
			[]string{"shared-other", "shared-default", "owner-personal-in-project", "owner-personal"}},
		{"owner: explicit active", w.C, &catalog.ChatSessionsParams{Status: catalog.ChatSessionActive},
			[]string{"shared-other", "shared-default", "owner-personal-in-project", "owner-personal"}},
		{"owner: archived", w.C, &catalog.ChatSessionsParams{Status: catalog.ChatSessionArchived},
			[]string{"owner-personal-archived", "shared-default-archived"}},
		{"owner: projectId filter", w.C, &catalog.ChatSessionsParams{ProjectID: ws.ProjectID},
			[]string{"shared-default", "owner-personal-in-project"}},
		{"owner: projectId filter, other project", w.C, &catalog.ChatSessionsParams{ProjectID: w.other},
			[]string{"shared-other"}},
		{"owner: projectId filter and archived", w.C,
			&catalog.ChatSessionsParams{ProjectID: ws.ProjectID, Status: catalog.ChatSessionArchived},
			[]string{"shared-default-archived"}},
		{"member: own personal plus its project, not the owner's private ones", w.member, nil,
			[]string{"member-personal", "shared-default"}},
		{"member: archived", w.member, &catalog.ChatSessionsParams{Status: catalog.ChatSessionArchived},
			[]string{"shared-default-archived"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			page, err := tt.c.Catalog.ListChatSessions(t.Context(), tt.params)
			if err != nil {
				t.Fatalf("ListChatSessions: %v", err)
			}
			if diff := gocmp.Diff(tt.want, titles(page.Items)); diff != "" {
				t.Errorf("sessions (-want +got):\n%s", diff)
			}
			if page.NextCursor != "" {
				t.Errorf("NextCursor = %q on a short listing", page.NextCursor)
			}
		})
	}
}

func TestChatSessionsFields(t *testing.T) {
	t.Parallel()
	w := newSessionWorld(t)
	page, err := w.C.Catalog.ListChatSessions(t.Context(), &catalog.ChatSessionsParams{ProjectID: w.WS.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	want := []catalog.ChatSession{
		{ID: w.ids["shared-default"], Title: "shared-default", Status: catalog.ChatSessionActive,
			ProjectID: w.WS.ProjectID, Visibility: "project", LastActivityAt: ms(t0.Add(3 * time.Minute)),
			CreatedAt: ms(t0), IsUnread: true},
		{ID: w.ids["owner-personal-in-project"], Title: "owner-personal-in-project", Status: catalog.ChatSessionActive,
			ProjectID: w.WS.ProjectID, Visibility: "private", LastActivityAt: ms(t0.Add(2 * time.Minute)),
			CreatedAt: ms(t0), IsPinned: true},
	}
	if diff := gocmp.Diff(want, page.Items); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
}

func TestChatSessionsProjectAccess(t *testing.T) {
	t.Parallel()
	w := newSessionWorld(t)
	tests := []struct {
		name    string
		c       *projectops.Client
		project string
		code    projectops.Code
	}{
		{"project of another organization", w.C, w.foreign, projectops.CodeNotFound},
		{"unknown project", w.C, "prj_nope", projectops.CodeNotFound},
		{"project of the organization without access", w.member, w.other, projectops.CodeForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.c.Catalog.ListChatSessions(t.Context(), &catalog.ChatSessionsParams{ProjectID: tt.project})
			wantError(t, err, tt.code, true)
		})
	}
}

// pagingWorld holds n shared sessions in the default project, several with
// equal lastActivityAt, and returns their titles newest first (ties: the
// later-created first).
func pagingWorld(t *testing.T) (*fixture, []string) {
	t.Helper()
	f := setup(t)
	minutes := []int{5, 3, 3, 9, 1, 3, 7, 7, 2, 8, 6}
	type s struct {
		title string
		min   int
		ord   int
	}
	var all []s
	for i, m := range minutes {
		title := "s" + string(rune('a'+i))
		must(t)(f.Srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: f.WS.ProjectID, Title: title,
			LastActivityAt: t0.Add(time.Duration(m) * time.Minute)}))
		all = append(all, s{title, m, i})
	}
	slices.SortFunc(all, func(a, b s) int { return -cmp.Or(cmp.Compare(a.min, b.min), cmp.Compare(a.ord, b.ord)) })
	want := make([]string, len(all))
	for i, x := range all {
		want[i] = x.title
	}
	return f, want
}

func TestChatSessionsPaging(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{1, 3, 4, 11, 200} {
		t.Run("limit "+strconv.Itoa(limit), func(t *testing.T) {
			t.Parallel()
			f, want := pagingWorld(t)
			pages := (len(want) + limit - 1) / limit

			// Page by hand with ListChatSessions and Cursor.
			var got []string
			p := &catalog.ChatSessionsParams{Limit: limit}
			for n := 0; ; n++ {
				if n > len(want) {
					t.Fatal("ListChatSessions never stopped handing out cursors")
				}
				page, err := f.C.Catalog.ListChatSessions(t.Context(), p)
				if err != nil {
					t.Fatalf("page %d: %v", n, err)
				}
				if len(page.Items) > limit {
					t.Fatalf("page %d has %d items, limit %d", n, len(page.Items), limit)
				}
				got = append(got, titles(page.Items)...)
				if page.NextCursor == "" {
					if n+1 != pages {
						t.Errorf("%d pages, want %d", n+1, pages)
					}
					break
				}
				p.Cursor = page.NextCursor
			}
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("ListChatSessions pages (-want +got):\n%s", diff)
			}

			// The iterator walks the same pages lazily.
			f.Srv.ResetRequests()
			all, err := collect(f.C.Catalog.AllChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: limit}))
			if err != nil {
				t.Fatalf("ChatSessions: %v", err)
			}
			if diff := gocmp.Diff(want, titles(all)); diff != "" {
				t.Errorf("ChatSessions iterator (-want +got):\n%s", diff)
			}
			if n := len(f.Srv.Requests()); n != pages {
				t.Errorf("iterator sent %d requests, want %d", n, pages)
			}
		})
	}
}

// Stopping early fetches no further page; starting at Cursor resumes there.
func TestChatSessionsIteratorLaziness(t *testing.T) {
	t.Parallel()
	f, want := pagingWorld(t)
	var got []string
	for cs, err := range f.C.Catalog.AllChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, cs.Title)
		if len(got) == 3 {
			break
		}
	}
	if diff := gocmp.Diff(want[:3], got); diff != "" {
		t.Errorf("first three (-want +got):\n%s", diff)
	}
	if n := len(f.Srv.Requests()); n != 2 {
		t.Errorf("breaking after 3 items of pages of 2 sent %d requests, want 2", n)
	}

	first, err := f.C.Catalog.ListChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: 4})
	if err != nil {
		t.Fatal(err)
	}
	rest, err := collect(f.C.Catalog.AllChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: 4, Cursor: first.NextCursor}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want[4:], titles(rest)); diff != "" {
		t.Errorf("resumed at Cursor (-want +got):\n%s", diff)
	}
}

// The keyset cursor stays valid while sessions are added: newer ones do not
// shift the next page.
func TestChatSessionsCursorStableUnderInserts(t *testing.T) {
	t.Parallel()
	f, want := pagingWorld(t)
	page, err := f.C.Catalog.ListChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	must(t)(f.Srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: f.WS.ProjectID, Title: "newest",
		LastActivityAt: t0.Add(time.Hour)}))
	next, err := f.C.Catalog.ListChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: 3, Cursor: page.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want[3:6], titles(next.Items)); diff != "" {
		t.Errorf("second page after an insert (-want +got):\n%s", diff)
	}
}

// A page size outside 1..MaxChatSessionsLimit is refused before a request
// is sent, as the other bounded listings (iterations, suite runs) refuse
// theirs; 0 is "unset" and asks for the service's default page.
func TestChatSessionsLimitCheckedClientSide(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{-1, catalog.MaxChatSessionsLimit + 1, 500} {
		t.Run("limit "+strconv.Itoa(limit), func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			p := &catalog.ChatSessionsParams{Limit: limit}
			_, err := f.C.Catalog.ListChatSessions(t.Context(), p)
			wantField(t, err, "limit", false)
			var n int
			for _, err := range f.C.Catalog.AllChatSessions(t.Context(), p) {
				n++
				wantField(t, err, "limit", false)
			}
			if n != 1 {
				t.Errorf("iterator yielded %d times, want the error once", n)
			}
			if got := len(f.Srv.Requests()); got != 0 {
				t.Errorf("double saw %d requests, want none for an out-of-range limit", got)
			}
		})
	}
	f := setup(t)
	for _, limit := range []int{0, 1, catalog.MaxChatSessionsLimit} {
		if _, err := f.C.Catalog.ListChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: limit}); err != nil {
			t.Errorf("ListChatSessions(Limit: %d): %v", limit, err)
		}
	}
}

// Parameters only the service can judge reach it and come back as its 400.
func TestChatSessionsBadParams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params catalog.ChatSessionsParams
		field  string
	}{
		{"unknown status", catalog.ChatSessionsParams{Status: "deleted"}, "status"},
		{"status in capitals", catalog.ChatSessionsParams{Status: "ACTIVE"}, "status"},
		{"cursor not issued by the service", catalog.ChatSessionsParams{Cursor: "not-a-cursor"}, "before"},
		{"cursor of another shape", catalog.ChatSessionsParams{Cursor: "Y2hhdC1zZXNzaW9uczp4"}, "before"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			_, err := f.C.Catalog.ListChatSessions(t.Context(), &tt.params)
			wantField(t, err, tt.field, true)
			var n int
			for _, err := range f.C.Catalog.AllChatSessions(t.Context(), &tt.params) {
				n++
				wantField(t, err, tt.field, true)
			}
			if n != 1 {
				t.Errorf("iterator yielded %d times, want the error once", n)
			}
			if got := len(f.Srv.Requests()); got != 2 {
				t.Errorf("double saw %d requests, want 2 (a 400 is not retried)", got)
			}
		})
	}
}

// Query values the typed params cannot produce, sent raw.
func TestChatSessionsRawParams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query string
		field string
	}{
		{"limit=0", "limit"},
		{"limit=-1", "limit"},
		{"limit=201", "limit"},
		{"limit=abc", "limit"},
		{"limit=1.5", "limit"},
		{"limit=", ""}, // empty means absent: the default page
		{"status=", ""},
		{"limit=200", ""},
		{"before=%25%25", "before"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.Srv.URL()+"/chat-sessions?"+tt.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+f.WS.APIKey)
			resp, err := f.Srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Code    projectops.Code `json:"code"`
				Details map[string]any  `json:"details"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if tt.field == "" {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d %s, want 200", resp.StatusCode, body.Code)
				}
				return
			}
			if resp.StatusCode != http.StatusBadRequest || body.Code != projectops.CodeValidation {
				t.Fatalf("got %d %s, want 400 VALIDATION_ERROR", resp.StatusCode, body.Code)
			}
			if got, _ := body.Details["field"].(string); got != tt.field {
				t.Errorf("details.field = %q, want %q", got, tt.field)
			}
		})
	}
}
