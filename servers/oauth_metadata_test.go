package servers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// metaPeer is an authorization server whose metadata answer a test sets
// (answer, called with the well-known path asked), with a token endpoint
// at /token that trades any refresh token for "at-2" (valid an hour),
// recording the client secrets it was sent.
type metaPeer struct {
	url    string
	mu     sync.Mutex
	answer func(path, issuer string) (status int, contentType, body string)
	// fetches counts metadata requests, tokens token requests.
	fetches, tokens int
	secrets         []string
}

func newMetaPeer(t *testing.T) *metaPeer {
	t.Helper()
	p := &metaPeer{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if r.URL.Path == "/token" {
			p.tokens++
			_ = r.ParseForm()
			_, secret, _ := r.BasicAuth()
			p.secrets = append(p.secrets, secret, r.PostForm.Get("client_secret"))
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1"}`))
			return
		}
		if !strings.HasPrefix(r.URL.Path, "/.well-known/") {
			http.NotFound(w, r)
			return
		}
		p.fetches++
		status, ctype, body := p.answer(r.URL.Path, p.url)
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(ts.Close)
	p.url = ts.URL
	return p
}

// set replaces the metadata answer.
func (p *metaPeer) set(answer func(path, issuer string) (int, string, string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answer = answer
}

func (p *metaPeer) counts() (fetches, tokens int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fetches, p.tokens
}

// rfc8414 answers the RFC 8414 path with a document go-sdk accepts, doc's
// fields replacing its own, and 404 elsewhere.
func rfc8414(doc map[string]any) func(path, issuer string) (int, string, string) {
	return func(path, issuer string) (int, string, string) {
		if path != "/.well-known/oauth-authorization-server" {
			return http.StatusNotFound, "text/plain", "not found"
		}
		d := map[string]any{"issuer": issuer, "token_endpoint": issuer + "/token", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}}
		for k, v := range doc {
			d[k] = v
		}
		b, _ := json.Marshal(d)
		return http.StatusOK, "application/json", string(b)
	}
}

// importAt saves an OAuth server without a token endpoint (and with
// savedSecret, if any) in front of peer's MCP endpoint, and imports a
// grant for it naming as the authorization server; the grant's access
// token is refused upstream, so the first call refreshes.
func importAt(t *testing.T, f *fixture, peer *oauthPeer, as, savedSecret string, client *servers.ClientInformation) string {
	t.Helper()
	p, mcpURL := f.WS.ProjectID, peer.url+"/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL, UseOAuth: true,
		ClientSecret: projectopstest.Secret(savedSecret)}))
	if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		AuthorizationServerURL: as, ClientInformation: client,
		Tokens: servers.Tokens{AccessToken: "at-revoked-upstream", RefreshToken: "rt-1", ExpiresIn: 3600}}); err != nil {
		t.Fatal(err)
	}
	return id
}

// Metadata that names a token endpoint refreshes there, whatever else it
// says or lacks: no PKCE methods (irrelevant to a refresh), an issuer
// field other than the URL asked, a content type other than JSON, or only
// the OpenID Connect configuration published. go-sdk's
// auth.GetAuthServerMetadata refuses the first three, which the double
// took for an endpoint that could not be reached (SERVER_UNREACHABLE,
// forever).
func TestRefreshMetadataAcceptedForItsTokenEndpoint(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]func(path, issuer string) (int, string, string){
		"no PKCE":      rfc8414(map[string]any{"code_challenge_methods_supported": nil}),
		"other issuer": rfc8414(map[string]any{"issuer": "https://elsewhere.example"}),
		"text/plain": func(path, issuer string) (int, string, string) { // go-sdk wants application/json
			status, _, body := rfc8414(nil)(path, issuer)
			return status, "text/plain", body
		},
		"OpenID only": func(path, issuer string) (int, string, string) {
			if path != "/.well-known/openid-configuration" {
				return http.StatusNotFound, "text/plain", "not found"
			}
			return http.StatusOK, "application/json", `{"issuer":"` + issuer + `","token_endpoint":"` + issuer + `/token",` +
				`"code_challenge_methods_supported":["S256"]}`
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			peer, as := newOAuthPeer(t), newMetaPeer(t)
			as.set(answer)
			f := setup(t)
			id := importAt(t, f, peer, as.url, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
			_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
			if _, tokens := as.counts(); err != nil || tokens != 1 {
				t.Errorf("ListTools = %v after %d refreshes; want one refresh at the metadata's token endpoint", err, tokens)
			}
		})
	}
}

// Metadata that got no answer (5xx, 429) fails the call with
// SERVER_UNREACHABLE and leaves the grant: once the retry delay has passed
// on the double's clock, the metadata is fetched again and the refresh
// goes through.
func TestRefreshMetadataDownKeepsTheGrant(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusTooManyRequests} {
		peer, as := newOAuthPeer(t), newMetaPeer(t)
		as.set(func(string, string) (int, string, string) { return status, "text/plain", "down" })
		f := setup(t)
		id := importAt(t, f, peer, as.url, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
		_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
		wantError(t, err, projectops.CodeServerUnreachable, true)
		as.set(rfc8414(nil))
		f.Clock.Advance(10 * time.Second) // past the retry delay (5 s)
		if _, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil); err != nil {
			t.Errorf("metadata %d, then back: ListTools = %v, want refreshed", status, err)
		}
	}
}

// Metadata published nowhere (404 at every well-known path), or naming no
// usable token endpoint, ends the grant: OAUTH_REQUIRED, and later calls
// fetch nothing more.
func TestRefreshMetadataWithoutEndpointEndsTheGrant(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]func(path, issuer string) (int, string, string){
		"404":               func(string, string) (int, string, string) { return http.StatusNotFound, "text/plain", "not found" },
		"no token_endpoint": rfc8414(map[string]any{"token_endpoint": nil}),
		"relative endpoint": rfc8414(map[string]any{"token_endpoint": "/token"}),
		"not JSON":          func(string, string) (int, string, string) { return http.StatusOK, "text/html", "<html>" },
		"too large": func(string, string) (int, string, string) {
			return http.StatusOK, "application/json", `{"token_endpoint":"http://x.example/token","pad":"` + strings.Repeat("x", 1<<20) + `"}`
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			peer, as := newOAuthPeer(t), newMetaPeer(t)
			as.set(answer)
			f := setup(t)
			id := importAt(t, f, peer, as.url, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
			_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
			wantError(t, err, projectops.CodeOAuthRequired, true)
			fetches, _ := as.counts()
			f.Clock.Advance(10 * time.Second) // past the retry delay (5 s)
			_, err = f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
			wantError(t, err, projectops.CodeOAuthRequired, true)
			if again, tokens := as.counts(); again != fetches || tokens != 0 {
				t.Errorf("after the grant ended: %d more metadata fetches, %d token requests; want none", again-fetches, tokens)
			}
		})
	}
}

// The token endpoint found in the metadata is kept: a second refresh (the
// refreshed token expired) goes to it without fetching the metadata again.
func TestRefreshKeepsTheDiscoveredEndpoint(t *testing.T) {
	t.Parallel()
	peer, as := newOAuthPeer(t), newMetaPeer(t)
	as.set(rfc8414(nil))
	f := setup(t)
	id := importAt(t, f, peer, as.url, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
	if _, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil); err != nil {
		t.Fatal(err)
	}
	f.Clock.Advance(2 * time.Hour) // past the refreshed token's hour
	if _, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil); err != nil {
		t.Fatal(err)
	}
	if fetches, tokens := as.counts(); fetches != 1 || tokens != 2 {
		t.Errorf("%d metadata fetches for %d refreshes; want 1 for 2", fetches, tokens)
	}
}

// The saved server's client secret (never returned by the API) goes only
// to the saved server's own token endpoint: at one found through a
// caller-named authorizationServerUrl, a refresh carries the import's own
// credentials, no secret for an import that gave none (a public client).
func TestSavedClientSecretNotSentToCallerNamedEndpoint(t *testing.T) {
	t.Parallel()
	peer, as := newOAuthPeer(t), newMetaPeer(t)
	as.set(rfc8414(nil))
	f := setup(t)
	id := importAt(t, f, peer, as.url, "saved-server-secret-123", &servers.ClientInformation{ClientID: "cid"})
	if _, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil); err != nil {
		t.Fatalf("ListTools as a public client = %v", err)
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	if len(as.secrets) == 0 || strings.Join(as.secrets, "") != "" {
		t.Errorf("the caller-named token endpoint got client secrets %q; want a refresh with none", as.secrets)
	}
}

// Metadata that got no answer at the network level, the connection
// refused or the body cut off mid-answer, fails the call with
// SERVER_UNREACHABLE and leaves the grant to be refreshed later, as a 5xx
// does; it does not end the grant.
func TestRefreshMetadataNetworkFailureKeepsTheGrant(t *testing.T) {
	t.Parallel()
	t.Run("connection refused", func(t *testing.T) {
		t.Parallel()
		closed := httptest.NewServer(http.NotFoundHandler())
		closed.Close() // its port now refuses connections
		peer := newOAuthPeer(t)
		f := setup(t)
		id := importAt(t, f, peer, closed.URL, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
		for range 2 { // the second attempt, after the retry delay, is still not an ended grant
			_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
			wantError(t, err, projectops.CodeServerUnreachable, true)
			f.Clock.Advance(10 * time.Second) // past the retry delay (5 s)
		}
	})
	t.Run("cut off", func(t *testing.T) {
		t.Parallel()
		var cut atomic.Bool
		cut.Store(true)
		var as *httptest.Server
		as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/token" {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"access_token":"at-2","token_type":"Bearer","expires_in":3600}`))
				return
			}
			doc := `{"token_endpoint":"` + as.URL + `/token"}`
			w.Header().Set("Content-Type", "application/json")
			if cut.Load() { // promises more than it sends: the server then drops the connection
				w.Header().Set("Content-Length", strconv.Itoa(len(doc)+100))
			}
			_, _ = w.Write([]byte(doc))
		}))
		t.Cleanup(as.Close)
		peer := newOAuthPeer(t)
		f := setup(t)
		id := importAt(t, f, peer, as.URL, "", &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"})
		_, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil)
		wantError(t, err, projectops.CodeServerUnreachable, true)
		cut.Store(false)
		f.Clock.Advance(10 * time.Second) // past the retry delay (5 s)
		if _, err := f.C.Servers.ListTools(t.Context(), f.WS.ProjectID, id, nil); err != nil {
			t.Errorf("metadata cut off, then whole: ListTools = %v, want refreshed", err)
		}
	})
}
