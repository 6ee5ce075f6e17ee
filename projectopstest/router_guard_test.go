package projectopstest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// noRedirect is a client that returns redirects instead of following them.
func noRedirect(c *http.Client) *http.Client {
	cc := *c
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cc
}

// TestEveryErrorIsAnEnvelope: unclean paths (once dot segments are
// resolved), bad query escapes, control
// characters in the path and an oversized Authorization header are
// answered in the {code, message, details} envelope, in process and on
// loopback — never a redirect with HTML or a plain-text 400.
func TestEveryErrorIsAnEnvelope(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	huge := "Bearer " + strings.Repeat("k", 12<<10) // over the 8 KiB rule, under the 16 KiB head cap
	cases := []struct {
		name, method, path, auth string
		code                     shared.Code
	}{
		{"double slash", "GET", "//me", "", shared.CodeNotFound},
		{"double slash POST", "POST", "/projects//" + ws.ProjectID + "/eval-runs", "", shared.CodeNotFound},
		{"trailing dot", "GET", "/me/.", "", shared.CodeNotFound}, // resolved to /me/ (dot_segments_test.go)
		{"dot dot after double slash", "GET", "/projects//x/../me", "", shared.CodeNotFound},
		{"trailing slash", "GET", "/me/", "", shared.CodeNotFound},
		{"trailing slash listing", "GET", "/projects/" + ws.ProjectID + "/servers/", "", shared.CodeNotFound},
		{"bad query escape", "GET", "/chat-sessions?cursor=%zz", "", shared.CodeValidation},
		{"NUL in path", "GET", "/projects/a%00b/servers", "", shared.CodeValidation},
		{"invalid UTF-8 in path", "GET", "/projects/a%ffb/servers", "", shared.CodeValidation},
		{"oversized Authorization", "GET", "/me", huge, shared.CodeUnauthorized},
		{"oversized Authorization, public route", "GET", "/host-catalog", huge, shared.CodeUnauthorized},
	}
	for _, tg := range targets(t, srv) {
		tg.client = noRedirect(tg.client)
		for _, tc := range cases {
			t.Run(tg.name+"/"+tc.name, func(t *testing.T) {
				req, err := http.NewRequestWithContext(t.Context(), tc.method, tg.base+tc.path, nil)
				if err != nil {
					t.Fatal(err)
				}
				auth := tc.auth
				if auth == "" {
					auth = "Bearer " + ws.APIKey
				}
				req.Header.Set("Authorization", auth)
				resp, err := tg.client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				result{status: resp.StatusCode, header: resp.Header, body: b}.wantError(t, tc.code)
			})
		}
	}
}
