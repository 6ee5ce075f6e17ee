package servers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// TestServer401TriggersRefresh: a token the server refuses with 401 before
// it expired (revoked or rotated upstream) is refreshed server-side and the
// call goes through, as the reference says of imported grants ("401s from
// the server trigger a server-side refresh"); a grant that cannot refresh
// answers OAUTH_REQUIRED, after one refresh attempt at most.
func TestServer401TriggersRefresh(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		refresh       string // the imported refresh token ("" none)
		ok            bool
		wantRefreshes int // requests to the token endpoint
	}{
		{"refreshed", "rt-1", true, 1},
		// One refresh, sent twice: oauth2 tries the client's credentials in
		// the header, then in the body, before it gives up.
		{"refresh refused", "rt-unknown", false, 2},
		{"no refresh token", "", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			peer := newOAuthPeer(t)
			f := setup(t)
			p, mcpURL := f.WS.ProjectID, peer.url+"/mcp"
			id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL,
				UseOAuth: true, OAuthTokenURL: peer.url + "/token"}))
			if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: mcpURL,
				ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
				Tokens:            servers.Tokens{AccessToken: "at-revoked-upstream", RefreshToken: tc.refresh, ExpiresIn: 3600}}); err != nil {
				t.Fatal(err)
			}
			_, err := f.C.Servers.ListTools(t.Context(), p, id, nil)
			bearers, refreshes := peer.seen()
			if tc.ok {
				if err != nil || bearers[len(bearers)-1] != "Bearer at-2" {
					t.Errorf("ListTools after the server's 401 = %v; bearers %v", err, bearers)
				}
			} else {
				wantError(t, err, projectops.CodeOAuthRequired, true)
			}
			if refreshes != tc.wantRefreshes {
				t.Errorf("%d refreshes, want %d", refreshes, tc.wantRefreshes)
			}
		})
	}
}

// A token endpoint that is briefly down (5xx, a timeout, no connection)
// fails the call that needed the refresh with 502 SERVER_UNREACHABLE, not
// OAUTH_REQUIRED, after one refresh, and leaves the grant as it was: once
// the retry delay has passed (5 s on the double's clock) a call refreshes
// and goes through. Only the endpoint refusing the grant ends it.
func TestTransientRefreshFailureKeepsTheGrant(t *testing.T) {
	t.Parallel()
	peer := newOAuthPeer(t)
	peer.down = 1 << 20 // down until the first call has failed
	f := setup(t)
	p, mcpURL := f.WS.ProjectID, peer.url+"/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL,
		UseOAuth: true, OAuthTokenURL: peer.url + "/token"}))
	if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
		Tokens:            servers.Tokens{AccessToken: "at-revoked-upstream", RefreshToken: "rt-1", ExpiresIn: 3600}}); err != nil {
		t.Fatal(err)
	}
	_, err := f.C.Servers.ListTools(t.Context(), p, id, nil)
	wantError(t, err, projectops.CodeServerUnreachable, true)
	if _, refreshes := peer.seen(); refreshes > 2 {
		t.Errorf("one call made %d token requests, want one refresh (oauth2 sends it twice: header, then body)", refreshes)
	}
	peer.mu.Lock()
	peer.down = 0
	peer.mu.Unlock()
	// The grant waits a few seconds (on the double's clock) before the
	// next attempt, not one per HTTP request of a call.
	f.Clock.Advance(10 * time.Second)
	if _, err := f.C.Servers.ListTools(t.Context(), p, id, nil); err != nil {
		t.Fatalf("ListTools once the token endpoint is back: %v", err)
	}
	if bearers, _ := peer.seen(); bearers[len(bearers)-1] != "Bearer at-2" {
		t.Errorf("bearers %v, want the refreshed token last", bearers)
	}
}

// An endpoint that refuses the grant with an OAuth error, even in a 200
// answer (oauth2 reads one as an error), ends the grant: OAUTH_REQUIRED,
// and no refresh on later calls.
func TestRefusalIn200EndsTheGrant(t *testing.T) {
	t.Parallel()
	var refreshes atomic.Int32
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			refreshes.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"error":"invalid_grant","error_description":"refresh token revoked"}`))
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer peer.Close()
	f := setup(t)
	p, mcpURL := f.WS.ProjectID, peer.URL+"/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL, UseOAuth: true, OAuthTokenURL: peer.URL + "/token"}))
	if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid"},
		Tokens:            servers.Tokens{AccessToken: "at-old", RefreshToken: "rt-1", ExpiresIn: 3600}}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_, err := f.C.Servers.ListTools(t.Context(), p, id, nil)
		wantError(t, err, projectops.CodeOAuthRequired, true)
	}
	if n := refreshes.Load(); n > 2 {
		t.Errorf("%d token requests over 3 calls, want one refusal (sent twice: header, then body) and no more", n)
	}
}

// TestImportLongLivedToken: a lifetime of decades (a provider's "never
// expires", 2^31-1 seconds) is imported as the reference's unbounded number
// allows; the double refused anything over ten years.
func TestImportLongLivedToken(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, url := f.WS.ProjectID, "https://mcp.example.com/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: url, UseOAuth: true}))
	for _, life := range []float64{2147483647, 1e15} {
		res, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: url,
			Tokens: servers.Tokens{AccessToken: "at", ExpiresIn: life}})
		if err != nil || res.ExpiresAt == nil || !res.ExpiresAt.Time().After(time.Now().AddDate(50, 0, 0)) {
			t.Errorf("expires_in %g: %+v, %v; want imported, expiring decades from now", life, res, err)
		}
	}
}

// TestImportExpiredToken: a negative lifetime (the reference's number has
// no minimum) imports a token that expired already: the grant needs a
// refresh, and without one the server is OAUTH_REQUIRED.
func TestImportExpiredToken(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, url := f.WS.ProjectID, "https://mcp.example.com/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: url, UseOAuth: true}))
	res, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: url,
		Tokens: servers.Tokens{AccessToken: "at", ExpiresIn: -5}})
	if err != nil || res.ExpiresAt == nil || !res.ExpiresAt.Time().Before(f.Clock.Now()) {
		t.Fatalf("ImportTokens with expires_in -5 = %+v, %v; want imported, already expired", res, err)
	}
	_, err = f.C.Servers.ListTools(t.Context(), p, id, nil)
	wantError(t, err, projectops.CodeOAuthRequired, true)
}

// authServer serves RFC 8414 metadata for its own issuer URL, naming
// tokenURL as its token endpoint.
func authServer(t *testing.T, tokenURL string) string {
	t.Helper()
	var issuer string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/oauth-authorization-server" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "authorization_endpoint": issuer + "/authorize",
			"token_endpoint": tokenURL, "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}})
	}))
	t.Cleanup(ts.Close)
	issuer = ts.URL
	return issuer
}

// A server saved without a token endpoint refreshes an imported grant at
// the authorization server the import named (authorizationServerUrl,
// whose metadata names the token endpoint), as the service falls back to
// it; without one the grant cannot refresh.
func TestRefreshAtImportedAuthorizationServer(t *testing.T) {
	t.Parallel()
	for _, named := range []bool{true, false} {
		peer := newOAuthPeer(t)
		f := setup(t)
		p, mcpURL := f.WS.ProjectID, peer.url+"/mcp"
		id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL, UseOAuth: true}))
		params := servers.ImportTokensParams{ServerURL: mcpURL,
			ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
			Tokens:            servers.Tokens{AccessToken: "at-revoked-upstream", RefreshToken: "rt-1", ExpiresIn: 3600}}
		if named {
			params.AuthorizationServerURL = authServer(t, peer.url+"/token")
		}
		if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, params); err != nil {
			t.Fatal(err)
		}
		_, err := f.C.Servers.ListTools(t.Context(), p, id, nil)
		bearers, refreshes := peer.seen()
		if named {
			if err != nil || refreshes != 1 || bearers[len(bearers)-1] != "Bearer at-2" {
				t.Errorf("ListTools = %v after %d refreshes; bearers %v, want refreshed at the named server", err, refreshes, bearers)
			}
			continue
		}
		wantError(t, err, projectops.CodeOAuthRequired, true)
		if refreshes != 0 {
			t.Errorf("%d refreshes without a token endpoint", refreshes)
		}
	}
}
