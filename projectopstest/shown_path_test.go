package projectopstest_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// TestAPIKeyInPathNeverEchoed: an API key pasted into a URL path (where a
// project or server id goes, or anywhere) is not echoed in the 404/405
// envelope, in Requests() or in the request's log line; neither is a key's
// random part pasted without its prefix, nor anything shaped like a key.
func TestAPIKeyInPathNeverEchoed(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	lg := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s := projectopstest.NewTestServer(t, projectopstest.WithLogger(lg))
	ws := s.Default()
	p := ws.ProjectID
	body := strings.TrimPrefix(ws.APIKey, "sk_")
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/projects/" + ws.APIKey + "/servers"},
		{"GET", "/api/v1/projects/" + p + "/servers/" + ws.APIKey + "/validate"},
		{"GET", "/api/v1/" + ws.APIKey},
		{"DELETE", "/api/v1/" + ws.APIKey + "/x"},
		{"GET", "/api/v1/x/" + body},
		{"GET", "/api/v1/x/SK_SEKRIT-SHAPED-LIKE-A-KEY/y"},
		{"GET", "/api/v1/projects/" + p + "/servers/id-sk_SEKRIT2/validate"},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		for _, m := range []string{body, "SEKRIT"} {
			if out := rec.Body.String() + fmt.Sprint(rec.Header()); strings.Contains(out, m) {
				t.Errorf("%s %s -> %d echoes the key: %s", c.method, c.path, rec.Code, out)
			}
		}
	}
	shown := fmt.Sprintf("%+v %#v", s.Requests(), s.Requests()) + logs.String()
	for _, m := range []string{body, "SEKRIT"} {
		if i := strings.Index(shown, m); i >= 0 {
			t.Errorf("request log shows the key: ...%s...", shown[max(0, i-200):min(len(shown), i+60)])
		}
	}
	if !strings.Contains(shown, "/api/v1/projects/"+p+"/servers/REDACTED/validate") {
		t.Errorf("request log lost the rest of the path: %.600s", shown)
	}
}
