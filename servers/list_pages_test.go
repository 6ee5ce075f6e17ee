package servers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
)

// pagedService is a stand-in for a service that answers a tools listing
// without a cursor with the first page and a nextCursor (an older
// service): five tools, two a page, cursors "c2" and "c4". It records the
// cursor of each request.
func pagedService(t *testing.T) (base string, cursors func() []string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	pages := map[string]string{
		"":   `{"items":[{"name":"t0","inputSchema":{"type":"object"}},{"name":"t1","inputSchema":{"type":"object"}}],"nextCursor":"c2"}`,
		"c2": `{"items":[{"name":"t2","inputSchema":{"type":"object"}},{"name":"t3","inputSchema":{"type":"object"}}],"nextCursor":"c4"}`,
		"c4": `{"items":[{"name":"t4","inputSchema":{"type":"object"}}]}`,
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Cursor string `json:"cursor"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		seen = append(seen, body.Cursor)
		mu.Unlock()
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
	return hs.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// AllTools(nil) follows a nextCursor the service answers a cursorless
// listing with to the end of the listing, one request a page.
func TestAllToolsFollowsCursorOfFirstPage(t *testing.T) {
	t.Parallel()
	base, cursors := pagedService(t)
	s, err := servers.NewService(option.WithBaseURL(base), option.WithAPIKey("sk_test"), option.WithoutEnvironment(),
		option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for tool, err := range s.AllTools(t.Context(), "prj_1", "srv_1", nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "t0,t1,t2,t3,t4" || !slices.Equal(cursors(), []string{"", "c2", "c4"}) {
		t.Errorf("AllTools = %s after requests with cursors %q; want t0..t4 over \"\", c2, c4", got, cursors())
	}
}
