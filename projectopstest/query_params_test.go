package projectopstest_test

import (
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// TestQueryBadEscapeInOtherParameterIgnored: the service's routes read
// only the parameters they name (Hono's c.req.query(name)), and a bad
// percent escape stays raw text, so a query holding one in a parameter
// no route reads, or a semicolon, is served as if it were not there.
func TestQueryBadEscapeInOtherParameterIgnored(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	addr := loopbackAddr(t, srv)
	auth := map[string]string{"Authorization": "Bearer " + ws.APIKey}
	for _, target := range []string{
		"/api/v1/me?foo=%zz",
		"/api/v1/projects?trace=%E0%A4%A",
		"/api/v1/projects/" + ws.ProjectID + "/hosts?x=100%",
		"/api/v1/chat-sessions?x=1;cursor=%zz", // only '&' separates: this is x's value
		"/api/v1/chat-sessions?x=%FF&limit=5",
	} {
		status, _, body := rawRequest(t, addr, "GET", target, auth, "")
		if status != http.StatusOK {
			t.Errorf("GET %s: %d %.160s; want 200", target, status, body)
		}
	}
}

// TestQueryBadEscapeInNamedParameter: a parameter a route reads keeps a
// bad escape as raw text and is validated as that text is: a cursor the
// double did not make, a limit or status that is not one, an
// organization that matches nothing.
func TestQueryBadEscapeInNamedParameter(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for _, tg := range targets(t, srv) {
		for _, c := range []struct{ path, field string }{
			{"/chat-sessions?cursor=%zz", "cursor"},
			{"/chat-sessions?before=%E0%A4%A", "before"},
			{"/chat-sessions?limit=5%", "limit"},
			{"/chat-sessions?status=%zzactive", "status"},
		} {
			r := tg.call(t, "GET", c.path, ws.APIKey, nil)
			b := r.wantError(t, shared.CodeValidation)
			if got, _ := b.Details["field"].(string); got != c.field {
				t.Errorf("%s GET %s: details.field = %q, want %q (%s)", tg.name, c.path, got, c.field, r.body)
			}
		}
		var page struct {
			Items []any `json:"items"`
		}
		tg.call(t, "GET", "/projects?organizationId=%zz", ws.APIKey, nil).decode(t, &page)
		if len(page.Items) != 0 {
			t.Errorf("%s: projects of organization %%zz: %d, want none", tg.name, len(page.Items))
		}
	}
}
