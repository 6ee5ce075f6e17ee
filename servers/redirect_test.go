package servers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// redirector is a saved server whose endpoint /mcp checks the bearer (a
// token it does not know is 401) and answers every request it accepts
// with a 307 to dest: /v2/mcp on itself, or /mcp on another origin, which
// serve toolsOnlyServer. Its /token trades refresh token "rt-1" from
// client "cid" for access token "at-2".
type redirector struct {
	url, dest string
	mu        sync.Mutex
	atDest    []http.Header // the headers of every request dest got
	refreshes int
}

func newRedirector(t *testing.T, to string, valid ...string) *redirector {
	t.Helper()
	rd := &redirector{}
	ok := map[string]bool{}
	for _, v := range valid {
		ok["Bearer "+v] = true
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return toolsOnlyServer() },
		&mcp.StreamableHTTPOptions{Stateless: true})
	serve := func(w http.ResponseWriter, r *http.Request) {
		rd.mu.Lock()
		rd.atDest = append(rd.atDest, r.Header.Clone())
		rd.mu.Unlock()
		mcpHandler.ServeHTTP(w, r)
	}
	guard := func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if !ok[r.Header.Get("Authorization")] {
				w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			next(w, r)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", guard(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, rd.dest, http.StatusTemporaryRedirect)
	}))
	mux.HandleFunc("/v2/mcp", guard(serve))
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		id, secret, _ := r.BasicAuth()
		rd.mu.Lock()
		rd.refreshes++
		rd.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Form.Get("refresh_token") != "rt-1" || id != "cid" || secret != "csecret" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		_, _ = w.Write([]byte(`{"access_token":"at-2","token_type":"Bearer","expires_in":3600}`))
	})
	origin := httptest.NewServer(mux)
	t.Cleanup(origin.Close)
	rd.url, rd.dest = origin.URL, origin.URL+"/v2/mcp"
	if to != "same origin" {
		other := httptest.NewServer(http.HandlerFunc(serve))
		t.Cleanup(other.Close)
		rd.dest = other.URL + "/mcp" // another port of 127.0.0.1
		if to == "other host" {
			rd.dest = strings.Replace(rd.dest, "127.0.0.1", "localhost", 1)
		}
	}
	return rd
}

func (rd *redirector) seen() ([]http.Header, int) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return append([]http.Header(nil), rd.atDest...), rd.refreshes
}

// TestCredentialsStayOnTheServersOrigin: an imported access token (as
// imported, or refreshed on a 401 or on expiry) and a saved Authorization
// header go to the saved server's origin only, as the service's fetch
// sends them: a redirect within the origin keeps them (the listing works
// against an endpoint that checks them), one to another host or only
// another port gets the request without them.
func TestCredentialsStayOnTheServersOrigin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		valid     []string // tokens the origin accepts
		header    string   // a saved Authorization header's token; "" imports tokens
		access    string   // the imported access token
		refresh   string
		advance   time.Duration // the clock moves before the listing
		want      string        // the bearer a same-origin destination sees
		refreshes int
	}{
		{name: "imported token", valid: []string{"at-must-not-leak"}, access: "at-must-not-leak", want: "at-must-not-leak"},
		{name: "saved header", valid: []string{"hdr-must-not-leak"}, header: "hdr-must-not-leak", want: "hdr-must-not-leak"},
		{name: "refreshed on 401", valid: []string{"at-2"}, access: "at-revoked", refresh: "rt-1", want: "at-2", refreshes: 1},
		{name: "refreshed on expiry", valid: []string{"at-2", "at-expiring"}, access: "at-expiring", refresh: "rt-1",
			advance: 2 * time.Hour, want: "at-2", refreshes: 1},
	} {
		for _, to := range []string{"same origin", "other host", "other port"} {
			t.Run(tc.name+"/"+to, func(t *testing.T) {
				t.Parallel()
				rd := newRedirector(t, to, tc.valid...)
				f := setup(t)
				p, url := f.WS.ProjectID, rd.url+"/mcp"
				spec := projectopstest.ServerSpec{ProjectID: p, Name: "redir", URL: url}
				if tc.header != "" {
					spec.Headers = map[string]projectopstest.Secret{"Authorization": projectopstest.Secret("Bearer " + tc.header)}
				} else {
					spec.UseOAuth, spec.OAuthTokenURL = true, rd.url+"/token"
				}
				id := must(t)(f.Srv.AddServer(spec))
				if tc.header == "" {
					if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: url,
						ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
						Tokens:            servers.Tokens{AccessToken: tc.access, RefreshToken: tc.refresh, ExpiresIn: 3600}}); err != nil {
						t.Fatal(err)
					}
				}
				f.Clock.Advance(tc.advance)
				tools, err := f.C.Servers.ListTools(t.Context(), p, id, nil)
				if err != nil || len(tools.Items) != 1 {
					t.Fatalf("ListTools through the redirect = %+v, %v", tools, err)
				}
				atDest, refreshes := rd.seen()
				if len(atDest) == 0 {
					t.Fatal("the redirect's destination was never contacted")
				}
				if refreshes != tc.refreshes {
					t.Errorf("%d refreshes, want %d", refreshes, tc.refreshes)
				}
				secrets := []string{tc.header, tc.access, tc.want, tc.refresh, "csecret"}
				for _, h := range atDest {
					if to == "same origin" {
						if got := h.Get("Authorization"); got != "Bearer "+tc.want {
							t.Errorf("Authorization at %s = %q, want the bearer %q", rd.dest, got, tc.want)
						}
						continue
					}
					for k, vs := range h {
						for _, v := range vs {
							for _, s := range secrets {
								if s != "" && strings.Contains(v, s) {
									t.Fatalf("%s sent to the redirect's destination %s: %s: %q", s, rd.dest, k, v)
								}
							}
						}
					}
				}
			})
		}
	}
}

// A redirected hop carries no Referer: net/http sets it to the previous
// hop's URL, query and all, so a saved URL's ?api_key= reached the other
// origin; the service's fetch sends none.
func TestRedirectSendsNoReferer(t *testing.T) {
	t.Parallel()
	rd := newRedirector(t, "other port", "hdr")
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "redir",
		URL:     rd.url + "/mcp?api_key=url-secret-must-not-leak",
		Headers: map[string]projectopstest.Secret{"Authorization": "Bearer hdr"}}))
	if _, err := f.C.Servers.ListTools(t.Context(), p, id, nil); err != nil {
		t.Fatal(err)
	}
	atDest, _ := rd.seen()
	if len(atDest) == 0 {
		t.Fatal("the redirect's destination was never contacted")
	}
	for _, h := range atDest {
		if v := h.Get("Referer"); v != "" {
			t.Fatalf("Referer at the redirect's destination: %q", v)
		}
	}
}
