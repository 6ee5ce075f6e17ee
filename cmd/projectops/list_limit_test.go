package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A listing whose --limit is reached at a page's end stops there: it asks
// for no next page, whose failure would fail a listing that was complete
// (the service here refuses every next page).
func TestListingsStopAtLimitWithoutNextPage(t *testing.T) {
	firstPages := map[string]string{
		"/eval-suites": `{"items":[{"id":"evs_1","name":"one","totals":{"passed":0,"failed":0,"runs":0},"passRateTrend":[]}],"nextCursor":"c2"}`,
		"/runs":        `{"items":[{"id":"run_1","suiteId":"evs_1","status":"completed","source":"ui","createdAt":1}],"nextCursor":"c2"}`,
		"/builds":      `{"items":[{"id":"bld_1","status":"ready","provider":"e2b","baseImageDigests":[]}],"nextCursor":"c2"}`,
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for suffix, page := range firstPages {
			if strings.HasSuffix(r.URL.Path, suffix) && r.URL.Query().Get("cursor") == "" {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(page))
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"code":"VALIDATION_ERROR","message":"no next page here"}`))
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "suites", "--limit", "1", "--json"}, `"evs_1"`},
		{[]string{"eval", "runs", "evs_1", "--limit", "1", "--json"}, `"run_1"`},
		{[]string{"env", "builds", "env_1", "--limit", "1", "--json"}, `"bld_1"`},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d\n%s\n%s", tc.args, code, out, errOut)
		}
	}
}
