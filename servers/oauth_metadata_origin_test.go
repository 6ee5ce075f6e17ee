package servers_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// redirectTo answers every request with a 3xx (status) to target plus the
// path asked.
func redirectTo(t *testing.T, status int, target string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, status)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// An issuer whose metadata redirects to another origin (here another port
// of 127.0.0.1) ends the grant: the redirect is not followed, so the token
// endpoint that origin names gets neither the client credentials nor the
// refresh token. net/http's default policy followed it.
func TestRefreshMetadataRedirectToAnotherOriginNotFollowed(t *testing.T) {
	t.Parallel()
	peer, other := newOAuthPeer(t), newMetaPeer(t)
	other.set(rfc8414(nil))
	f := setup(t)
	id := importAt(t, f, peer, redirectTo(t, http.StatusFound, other.url), "",
		&servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
	_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
	wantError(t, err, projectops.CodeOAuthRequired, true)
	if fetches, tokens := other.counts(); fetches != 0 || tokens != 0 {
		t.Errorf("the origin the issuer redirected to got %d metadata fetches, %d refreshes; want none", fetches, tokens)
	}
}

// hopIssuer is an authorization server whose RFC 8414 metadata is reached
// through hops redirects within its own origin, naming its own /token,
// which trades any refresh token for "at-2". tokens counts token requests.
type hopIssuer struct {
	url    string
	mu     sync.Mutex
	tokens int
}

func newHopIssuer(t *testing.T, hops int) *hopIssuer {
	t.Helper()
	h := &hopIssuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hop/1", http.StatusFound)
	})
	for k := 1; k <= hops; k++ {
		mux.HandleFunc(fmt.Sprintf("/hop/%d", k), func(w http.ResponseWriter, r *http.Request) {
			if k < hops {
				http.Redirect(w, r, fmt.Sprintf("/hop/%d", k+1), http.StatusFound)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"issuer":%q,"token_endpoint":%q}`, h.url, h.url+"/token")
		})
	}
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.tokens++
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"at-2","token_type":"Bearer","expires_in":3600}`))
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	h.url = ts.URL
	return h
}

// Within the issuer's origin the metadata fetch follows up to three
// redirects; a fourth is not followed and ends the grant (net/http's
// default followed ten).
func TestRefreshMetadataRedirectsWithinTheOriginBounded(t *testing.T) {
	t.Parallel()
	for hops, refreshed := range map[int]bool{3: true, 4: false} {
		t.Run(fmt.Sprint(hops), func(t *testing.T) {
			t.Parallel()
			peer, as := newOAuthPeer(t), newHopIssuer(t, hops)
			f := setup(t)
			id := importAt(t, f, peer, as.url, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
			_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
			as.mu.Lock()
			tokens := as.tokens
			as.mu.Unlock()
			if refreshed {
				if err != nil || tokens != 1 {
					t.Errorf("%d redirects: ListTools = %v after %d refreshes; want one refresh", hops, err, tokens)
				}
				return
			}
			wantError(t, err, projectops.CodeOAuthRequired, true)
			if tokens != 0 {
				t.Errorf("%d redirects: %d refreshes; want none", hops, tokens)
			}
		})
	}
}

// A token endpoint that answers the refresh with a 307 or 308 to another
// origin does not get the form re-posted there: the refresh token and
// client secret stay with the endpoint they were sent to, and the grant
// ends (the next attempt would meet the same redirect).
func TestRefreshTokenRedirectToAnotherOriginNotFollowed(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			peer, other := newOAuthPeer(t), newMetaPeer(t)
			f := setup(t)
			p, mcpURL := f.WS.ProjectID, peer.url+"/mcp"
			id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL, UseOAuth: true,
				ClientSecret: "csecret", OAuthTokenURL: redirectTo(t, status, other.url) + "/token"}))
			if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: mcpURL,
				ClientInformation: &servers.ClientInformation{ClientID: "cid"},
				Tokens:            servers.Tokens{AccessToken: "at-revoked-upstream", RefreshToken: "rt-1", ExpiresIn: 3600}}); err != nil {
				t.Fatal(err)
			}
			_, err := f.C.Servers.ListTools(t.Context(), p, id, nil)
			wantError(t, err, projectops.CodeOAuthRequired, true)
			if _, tokens := other.counts(); tokens != 0 {
				t.Errorf("the origin the token endpoint redirected to got %d refreshes; want none", tokens)
			}
		})
	}
}

// Plain http is for loopback (and the double's in-process host) only: an
// http issuer or token endpoint on any other host ends the grant without
// a request, where the double used to send the client credentials and the
// refresh token there in the clear.
func TestRefreshPlainHTTPElsewhereEndsTheGrant(t *testing.T) {
	t.Parallel()
	as := newMetaPeer(t)
	as.set(rfc8414(map[string]any{"token_endpoint": "http://as.example/token"}))
	for name, issuer := range map[string]string{"issuer": "http://as.example", "token endpoint": as.url} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			peer := newOAuthPeer(t)
			f := setup(t)
			id := importAt(t, f, peer, issuer, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
			_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
			wantError(t, err, projectops.CodeOAuthRequired, true)
		})
	}
}
