package transport

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/shared"
)

func TestBuildPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		route  string
		params []string
		want   string
	}{
		{"/me", nil, "/me"},
		{"/me", []string{"ignored"}, "/me"},
		{"/projects/{projectId}", []string{"p1"}, "/projects/p1"},
		{"/projects/{projectId}/hosts/{hostId}", []string{"p1", "h1"}, "/projects/p1/hosts/h1"},
		{"/projects/{projectId}/hosts/{hostId}", []string{"my project", "a/b"}, "/projects/my%20project/hosts/a%2Fb"},
		{"/projects/{projectId}", []string{"../../admin"}, "/projects/..%2F..%2Fadmin"},
		{"/projects/{projectId}", []string{"é✓"}, "/projects/%C3%A9%E2%9C%93"},
		{"/projects/{projectId}", []string{"a?b#c%d"}, "/projects/a%3Fb%23c%25d"},
		{"/projects/{projectId}", []string{"a+b:c@d"}, "/projects/a+b:c@d"},
		{"/projects/{projectId}", []string{"..."}, "/projects/..."},
		{"/projects/{projectId}/servers/{serverId}/tools/call", []string{"p", "s"}, "/projects/p/servers/s/tools/call"},
		{"/harness/{harnessId}/builtin-tools", []string{"claude-code"}, "/harness/claude-code/builtin-tools"},
	}
	for _, tt := range tests {
		got, err := BuildPath(tt.route, tt.params)
		if err != nil || got != tt.want {
			t.Errorf("BuildPath(%q, %q) = %q, %v; want %q", tt.route, tt.params, got, err, tt.want)
		}
	}
}

func TestBuildPathInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		route     string
		params    []string
		wantField string
	}{
		{"missing only param", "/projects/{projectId}", nil, "projectId"},
		{"empty param", "/projects/{projectId}", []string{""}, "projectId"},
		{"missing second", "/projects/{projectId}/hosts/{hostId}", []string{"p"}, "hostId"},
		{"empty second", "/projects/{projectId}/hosts/{hostId}", []string{"p", ""}, "hostId"},
		{"empty first, second set", "/projects/{projectId}/hosts/{hostId}", []string{"", "h"}, "projectId"},
		{"dot id", "/projects/{projectId}/hosts/{hostId}", []string{"p", "."}, "hostId"},
		{"dot-dot id", "/projects/{projectId}/hosts/{hostId}", []string{"p", ".."}, "hostId"},
		{"unclosed placeholder", "/projects/{projectId", []string{"p"}, "route"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := BuildPath(tt.route, tt.params)
			e, ok := apierr.As(err)
			if !ok {
				t.Fatalf("BuildPath = %q, %v; want *shared.Error", got, err)
			}
			if e.Code != shared.CodeValidation || e.StatusCode != 0 {
				t.Errorf("error %+v, want a client-side VALIDATION_ERROR", e)
			}
			if diff := cmp.Diff(map[string]any{"field": tt.wantField}, e.Details); diff != "" {
				t.Errorf("details (-want +got):\n%s", diff)
			}
			if !strings.Contains(e.Message, tt.wantField) {
				t.Errorf("message %q does not name %s", e.Message, tt.wantField)
			}
		})
	}
}

// TestDoKeepsBasePath mounts the mock under a base URL with a path (go-github
// style) and fails every request that lost the prefix; it also checks what
// reaches the wire for escaped ids and queries.
func TestDoKeepsBasePath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		base      string
		req       Request
		wantPath  string
		wantQuery string
	}{
		{"plain", testBase, Request{Method: http.MethodGet, Route: "/me"}, "/base/api/v1/me", ""},
		{"trailing slash on base", testBase + "/", Request{Method: http.MethodGet, Route: "/me"}, "/base/api/v1/me", ""},
		{"escaped ids", testBase, Request{Method: http.MethodGet, Route: "/projects/{projectId}/hosts/{hostId}",
			Params: []string{"my proj", "a/b"}}, "/base/api/v1/projects/my%20proj/hosts/a%2Fb", ""},
		{"unicode id", testBase, Request{Method: http.MethodDelete, Route: "/projects/{projectId}",
			Params: []string{"projé"}, Class: Idempotent}, "/base/api/v1/projects/proj%C3%A9", ""},
		{"traversal attempt stays inside", testBase, Request{Method: http.MethodGet, Route: "/projects/{projectId}/chatboxes",
			Params: []string{"../../../me"}}, "/base/api/v1/projects/..%2F..%2F..%2Fme/chatboxes", ""},
		{"query", testBase, Request{Method: http.MethodGet, Route: "/chat-sessions",
			Query: Query("projectId", "p 1", "status", "", "before", "c/1&x=y")}, "/base/api/v1/chat-sessions", "before=c%2F1%26x%3Dy&projectId=p+1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got []string
			mock := httpmock.NewMockTransport()
			mock.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
				if !strings.HasPrefix(req.URL.EscapedPath(), "/base/api/v1/") || req.URL.Host != "api.example.test" {
					t.Errorf("request lost the base URL: %s", req.URL)
					return httpmock.NewStringResponse(http.StatusNotFound, ""), nil
				}
				mu.Lock()
				got = append(got, req.URL.EscapedPath(), req.URL.RawQuery)
				mu.Unlock()
				return httpmock.NewStringResponse(http.StatusOK, `{}`), nil
			})
			tr, _ := newTestTransport(t, mock, func(c *Config) { c.BaseURL = tt.base })
			if err := tr.Do(t.Context(), &tt.req, nil); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]string{tt.wantPath, tt.wantQuery}, got); diff != "" {
				t.Errorf("path and query on the wire (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDoInvalidParamsSendsNothing(t *testing.T) {
	t.Parallel()
	mock := httpmock.NewMockTransport()
	tr, _ := newTestTransport(t, mock)
	for _, params := range [][]string{nil, {""}, {"p", ""}, {"p", ".."}} {
		err := tr.Do(t.Context(), &Request{Method: http.MethodDelete, Route: "/projects/{projectId}/hosts/{hostId}",
			Params: params, Class: Idempotent}, nil)
		if !isClientValidation(err) {
			t.Errorf("params %q: err = %v, want VALIDATION_ERROR", params, err)
		}
	}
	if n := mock.GetTotalCallCount(); n != 0 {
		t.Errorf("sent %d requests with bad path parameters", n)
	}
}

func isClientValidation(err error) bool {
	e, ok := apierr.As(err)
	return ok && e.Code == shared.CodeValidation && e.StatusCode == 0
}
