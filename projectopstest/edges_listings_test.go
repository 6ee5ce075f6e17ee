package projectopstest_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/projectopstest"
)

// sessionsFixture holds five chat sessions, newest activity first in want.
func sessionsFixture(t *testing.T) (*projectopstest.Server, projectopstest.Workspace, []string, time.Time) {
	t.Helper()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	base := clock.Now()
	var want []string
	for i := range 5 {
		id := must[string](t)(srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID,
			LastActivityAt: base.Add(time.Duration(i+1) * time.Minute)}))
		want = append([]string{id}, want...)
	}
	return srv, ws, want, base
}

// TestChatSessionsSDKWalk: the SDK's iterator pages through every session.
func TestChatSessionsSDKWalk(t *testing.T) {
	t.Parallel()
	srv, _, want, _ := sessionsFixture(t)
	c := must[*projectops.Client](t)(srv.NewClient())
	var got []string
	for s, err := range c.Catalog.AllChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("walk (-want +got):\n%s", diff)
	}
}

// rawPage is a listing page decoded without SDK types.
type rawPage struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"nextCursor"`
}

func (p rawPage) ids() []string {
	var out []string
	for _, it := range p.Items {
		s, _ := it["id"].(string)
		out = append(out, s)
	}
	return out
}

// TestChatSessionsCursorParam: spec 4.1's cursor rule holds on
// /chat-sessions: the previous nextCursor passed as cursor (or as before)
// reads the next page, cursor wins over before, a bare lastActivityAt
// timestamp is a valid position, and a bad cursor names its parameter.
func TestChatSessionsCursorParam(t *testing.T) {
	t.Parallel()
	srv, ws, want, base := sessionsFixture(t)
	tg := inproc(srv)
	get := func(q string) rawPage {
		t.Helper()
		var p rawPage
		tg.call(t, "GET", "/chat-sessions?limit=2"+q, ws.APIKey, nil).decode(t, &p)
		return p
	}
	for _, param := range []string{"cursor", "before"} {
		var got []string
		q := ""
		for range 10 {
			p := get(q)
			got = append(got, p.ids()...)
			if p.NextCursor == nil {
				break
			}
			q = "&" + param + "=" + *p.NextCursor
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("walk with %s (-want +got):\n%s", param, diff)
		}
	}
	first := get("")
	second := get("&cursor=" + *first.NextCursor)
	if diff := cmp.Diff(second.ids(), get("&cursor="+*first.NextCursor+"&before="+*second.NextCursor).ids()); diff != "" {
		t.Errorf("cursor and before: cursor does not win (-want +got):\n%s", diff)
	}
	// Sessions active strictly before minute 3: minutes 2 and 1.
	ms := strconv.FormatInt(base.Add(3*time.Minute).UnixMilli(), 10)
	if diff := cmp.Diff(want[3:], get("&before="+ms).ids()); diff != "" {
		t.Errorf("before=<timestamp> (-want +got):\n%s", diff)
	}
	tg.call(t, "GET", "/chat-sessions?cursor=nope", ws.APIKey, nil).wantField(t, "cursor")
	tg.call(t, "GET", "/chat-sessions?before=nope", ws.APIKey, nil).wantField(t, "before")
}

// TestUnknownQueryParametersIgnored: like the service, the double ignores
// query parameters it does not know, on every kind of listing.
func TestUnknownQueryParametersIgnored(t *testing.T) {
	t.Parallel()
	srv, ws, want, _ := sessionsFixture(t)
	tg := inproc(srv)
	var p rawPage
	tg.call(t, "GET", "/chat-sessions?bogus=1&sort=asc", ws.APIKey, nil).decode(t, &p)
	if diff := cmp.Diff(want, p.ids()); diff != "" {
		t.Errorf("chat-sessions with unknown parameters (-want +got):\n%s", diff)
	}
	for _, path := range []string{"/me?x=1", "/projects?bogus=1", "/projects/" + ws.ProjectID + "/servers?cursor=abc&x=1",
		"/projects/" + ws.ProjectID + "/hosts?page=2", "/projects/" + ws.ProjectID + "/eval-suites?q=z",
		"/projects/" + ws.ProjectID + "/chatboxes?limit=zz", "/projects/" + ws.ProjectID + "/computer-environments?bogus=1",
		"/harness/claude-code/builtin-tools?x=1"} {
		if r := tg.call(t, "GET", path, ws.APIKey, nil); r.status != 200 {
			t.Errorf("GET %s: %d %s", path, r.status, r.body)
		}
	}
}
