package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// tools list follows a nextCursor the service answers a cursorless
// listing with (an older service) to the end, printing every tool.
func TestToolsListFollowsCursorOfFirstPage(t *testing.T) {
	pages := map[string]string{
		"":   `{"items":[{"name":"t0","inputSchema":{"type":"object"}},{"name":"t1","inputSchema":{"type":"object"}}],"nextCursor":"c2"}`,
		"c2": `{"items":[{"name":"t2","inputSchema":{"type":"object"}}]}`,
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Cursor string `json:"cursor"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		page, ok := pages[body.Cursor]
		if !strings.HasSuffix(r.URL.Path, "/tools") || !ok {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"code":"VALIDATION_ERROR","message":"unexpected request"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL)
	t.Setenv("PROJECTOPS_API_KEY", "sk_test")
	code, out, errs := runCLI(t, "tools", "list", "--project", "prj_1", "--server", "srv_1")
	var tools []struct{ Name string }
	if code != 0 || json.Unmarshal([]byte(out), &tools) != nil || len(tools) != 3 || tools[2].Name != "t2" {
		t.Errorf("tools list = %d %s %s; want t0, t1 and t2", code, out, errs)
	}
}
