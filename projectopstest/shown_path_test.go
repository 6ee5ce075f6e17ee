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
// project or server id goes, or anywhere) is not echoed in the 404
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
		{"GET", "/api/v1/projects/" + p + "/servers/id-sk_SEKRIT2SEKRIT2SEKRIT2/validate"},
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

// TestAPIKeyInPathAfterNonASCII: a key after bytes whose lower case has
// another length (invalid UTF-8, İ, ẞ, the Kelvin sign) is masked where it
// stands, and masking never panics; ids around it are shown as they came.
func TestAPIKeyInPathAfterNonASCII(t *testing.T) {
	t.Parallel()
	s := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := s.Default()
	const tail = "SEKRITSEKRITSEKRIT" // as long as a key's random part may be cut
	for _, c := range []struct{ path, want string }{
		{"/api/v1/x/%FF%FF%FF%FF%FF%FF%FF%FF/sk_" + tail + "/y", "/api/v1/x/\xff\xff\xff\xff\xff\xff\xff\xff/REDACTED/y"},
		{"/api/v1/x/" + strings.Repeat("%FF", 20) + "/sk_" + tail, "/api/v1/x/" + strings.Repeat("\xff", 20) + "/REDACTED"},
		{"/api/v1/x/%C4%B0%C4%B0%C4%B0/sk_" + tail + "/y", "/api/v1/x/İİİ/REDACTED/y"},
		{"/api/v1/x/%E1%BA%9E%E1%BA%9E/sk_" + tail, "/api/v1/x/ẞẞ/REDACTED"},
		{"/api/v1/x/%E2%84%AA%E2%84%AA%E2%84%AA%E2%84%AA/SK_" + tail + "/y", "/api/v1/x/\u212a\u212a\u212a\u212a/REDACTED/y"},
		{"/api/v1/x/%E2%84%AA/" + ws.APIKey + "/%FFid", "/api/v1/x/\u212a/REDACTED/\xffid"},
		{"/api/v1/%FF%FFtask_runner/%C4%B0disk_1", "/api/v1/\xff\xfftask_runner/İdisk_1"},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", c.path, r)
				}
			}()
			req := httptest.NewRequest("GET", c.path, nil)
			req.Header.Set("Authorization", "Bearer "+ws.APIKey)
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			reqs := s.Requests()
			shown := rec.Body.String() + reqs[len(reqs)-1].Path
			if i := strings.Index(shown, "SEKRIT"); i >= 0 {
				t.Errorf("%s -> %d shows the key: ...%q...", c.path, rec.Code, shown[max(0, i-80):min(len(shown), i+30)])
			}
			if got := reqs[len(reqs)-1].Path; got != c.want {
				t.Errorf("%s: Requests() path = %q, want %q", c.path, got, c.want)
			}
		}()
	}
}

// TestIDsHoldingSKShownAsIs: an id that merely holds "sk_" (task_runner,
// disk_1, ...) is no key: Requests() and the 404 messages show it as
// it came. "sk_" starting a segment or following a non-alphanumeric byte,
// with a key-length tail, is masked.
func TestIDsHoldingSKShownAsIs(t *testing.T) {
	t.Parallel()
	s := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := s.Default()
	pfx := "/api/v1/projects/" + ws.ProjectID + "/servers/"
	for _, id := range []string{"task_runner", "disk_1", "risk_x", "desk_", "mask_", "TASK_RUNNER", "sk_short", "sk_", "x-sk_abc"} {
		if _, err := s.AddServer(projectopstest.ServerSpec{ID: id, ProjectID: ws.ProjectID, Name: id, URL: "https://mcp.example/mcp"}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ method, path string }{
			{"POST", pfx + id + "/check-oauth"}, // served
			{"PUT", pfx + id + "/check-oauth"},  // 404, a wrong method
			{"GET", "/api/v1/nowhere/" + id},    // 404
		} {
			req := httptest.NewRequest(c.method, c.path, nil)
			req.Header.Set("Authorization", "Bearer "+ws.APIKey)
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			if strings.Contains(rec.Body.String(), "REDACTED") || (rec.Code >= 400 && !strings.Contains(rec.Body.String(), c.path)) {
				t.Errorf("%s %s -> %d: message does not show the path: %s", c.method, c.path, rec.Code, rec.Body)
			}
			reqs := s.Requests()
			if got := reqs[len(reqs)-1].Path; got != c.path {
				t.Errorf("%s %s: Requests() path = %q", c.method, c.path, got)
			}
		}
	}
	const tail = "SEKRITSEKRITSEKRIT"
	for _, c := range []struct{ path, want string }{
		{"/api/v1/x/id%20sk_" + tail + "/y", "/api/v1/x/id REDACTED/y"},
		{"/api/v1/x/a=Sk_" + tail, "/api/v1/x/a=REDACTED"},
		{"/api/v1/x/id-sK_" + tail + ".json/y", "/api/v1/x/id-REDACTED/y"},
		{"/api/v1/x/_sk_" + tail, "/api/v1/x/_REDACTED"},
		{"/api/v1/x/task_" + tail + "/disk_" + tail, "/api/v1/x/task_" + tail + "/disk_" + tail},
	} {
		req := httptest.NewRequest("GET", c.path, nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		s.Handler().ServeHTTP(httptest.NewRecorder(), req)
		reqs := s.Requests()
		if got := reqs[len(reqs)-1].Path; got != c.want {
			t.Errorf("%s: Requests() path = %q, want %q", c.path, got, c.want)
		}
	}
}
