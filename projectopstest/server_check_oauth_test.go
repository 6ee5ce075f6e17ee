package projectopstest_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// check-oauth answers the service's full projection: useOAuth, serverUrl,
// and also requiresAuthorization and effectiveAuthMethod. For a saved server
// with only the legacy useOAuth flag the method is "oauth" when it is set
// (requiresAuthorization true) and "none" otherwise.
//
// Source: routes/v1/__tests__/routes.test.ts "check-oauth returns the
// authorize projection directly" (expects exactly {useOAuth: true,
// requiresAuthorization: true, effectiveAuthMethod: "oauth", serverUrl});
// routes/web/servers.ts buildOAuthRequirementProjection;
// server/utils/effective-auth.ts resolveEffectiveAuthMethod (legacy rows).
func TestCheckOAuthProjection(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	for _, c := range []struct {
		useOAuth bool
		method   string
	}{{true, "oauth"}, {false, "none"}} {
		id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: fmt.Sprintf("s%v", c.useOAuth),
			URL: "https://server.example.com/mcp", UseOAuth: c.useOAuth}))
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/check-oauth", ws.APIKey, `{}`)
		var got map[string]any
		r.decode(t, &got)
		want := map[string]any{"useOAuth": c.useOAuth, "requiresAuthorization": c.useOAuth,
			"effectiveAuthMethod": c.method, "serverUrl": "https://server.example.com/mcp"}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("useOAuth %v: %s = %v, want %v (body %s)", c.useOAuth, k, got[k], v, r.body)
			}
		}
	}
}

// check-oauth makes no MCP connection (api-spec.md §4.3): against a server
// nothing listens for it still answers 200 with its verdict, where validate,
// which connects, is 502 SERVER_UNREACHABLE.
func TestCheckOAuthMakesNoConnection(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	const url = "http://127.0.0.1:1/mcp" // port 1: connection refused
	for _, c := range []struct {
		useOAuth bool
		method   string
	}{{false, "none"}, {true, "oauth"}} {
		id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: fmt.Sprintf("down-%v", c.useOAuth),
			URL: url, UseOAuth: c.useOAuth}))
		base := "/projects/" + ws.ProjectID + "/servers/" + id
		if !c.useOAuth { // with OAuth and no tokens validate is OAUTH_REQUIRED before it connects
			tg.call(t, "POST", base+"/validate", ws.APIKey, `{}`).wantError(t, shared.CodeServerUnreachable)
		}
		r := tg.call(t, "POST", base+"/check-oauth", ws.APIKey, `{}`)
		var got map[string]any
		r.decode(t, &got)
		want := map[string]any{"useOAuth": c.useOAuth, "requiresAuthorization": c.useOAuth, "effectiveAuthMethod": c.method, "serverUrl": url}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("useOAuth %v: check-oauth verdict (-want +got):\n%s", c.useOAuth, diff)
		}
	}
}
