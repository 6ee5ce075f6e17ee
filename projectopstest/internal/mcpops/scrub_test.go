package mcpops

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// A failing stdio server that prints its env (a token it was started
// with) or a server quoting its saved client secret gets neither into the
// double's error; its own words stay.
func TestScrubTakesOutSavedSecrets(t *testing.T) {
	t.Parallel()
	sc := &Call{Target: mcpconn.Target{Env: []string{"API_TOKEN=S3CRET-env-value-9f8e", "EMPTY="},
		Headers: map[string]string{"Authorization": "Bearer S3CRET-bearer-1234"}},
		SavedClientSecret: func() string { return "S3CRET-client-5678" }}
	msg := "prompt failed, token=S3CRET-env-value-9f8e; auth S3CRET-bearer-1234; client S3CRET-client-5678"
	got := sc.scrub(msg)
	if strings.Contains(got, "S3CRET") || !strings.HasPrefix(got, "prompt failed, token=") {
		t.Errorf("scrub(%q) = %q", msg, got)
	}
}

// Ordinary words stay: a header's value is taken out whole, and only a
// credential header's last word besides (Accept's "text/event-stream" is
// no credential); a value that begins another leaves nothing of the
// longer one behind.
func TestScrubKeepsOrdinaryWords(t *testing.T) {
	t.Parallel()
	sc := &Call{Target: mcpconn.Target{Headers: map[string]string{"Accept": "application/json, text/event-stream",
		"X-A": "S3CRET-prefix", "X-B": "S3CRET-prefix-TAIL-bbbb"}, Args: []string{"--token=S3CRET-arg-7777"},
		URL: "https://bob:S3CRET-pw-1234@mcp.example/mcp"}}
	msg := "client must accept text/event-stream; keys S3CRET-prefix-TAIL-bbbb, --token=S3CRET-arg-7777, S3CRET-pw-1234"
	got := sc.scrub(msg)
	if strings.Contains(got, "S3CRET") || strings.Contains(got, "TAIL") || !strings.Contains(got, "accept text/event-stream") {
		t.Errorf("scrub(%q) = %q", msg, got)
	}
}

// A server that quotes the bearer it was sent (an OAuth server's error
// echoing its Authorization header) gets neither the imported access token
// nor its refresh token into the double's error.
func TestScrubTakesOutImportedTokens(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	sc := open(l, true)
	p := &servers.ImportTokensParams{ServerURL: sc.URL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "S3CRET-client-4321"}}
	p.Tokens.AccessToken, p.Tokens.RefreshToken, p.Tokens.ExpiresIn = "S3CRET-access-1234", "S3CRET-refresh-5678", 60
	sc.TokenURL = "http://token.invalid/token"
	if _, herr := ImportTokens(sc, p, func(a, b string) bool { return a == b }); herr != nil {
		t.Fatal(herr)
	}
	call := open(l, true)
	call.TokenURL = sc.TokenURL
	if herr := call.Authorize(); herr != nil {
		t.Fatal(herr)
	}
	msg := "invalid token: Bearer S3CRET-access-1234 (refresh S3CRET-refresh-5678, client S3CRET-client-4321)"
	if got := call.scrub(msg); strings.Contains(got, "S3CRET") || !strings.HasPrefix(got, "invalid token: Bearer ") {
		t.Errorf("scrub(%q) = %q", msg, got)
	}
}

// A call that sent an access token and fails after another call on the
// same grant refreshed it: the server's quote of the old token, and of the
// refresh token the refresh replaced, is taken out too.
func TestScrubTakesOutTokensARefreshReplaced(t *testing.T) {
	t.Parallel()
	tokenSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"S3CRET-access-NEW-9999","token_type":"bearer","refresh_token":"S3CRET-refresh-NEW-8888","expires_in":3600}`))
	}))
	defer tokenSrv.Close()
	l := newLayer(t)
	sc := open(l, true)
	sc.TokenURL = tokenSrv.URL
	p := &servers.ImportTokensParams{ServerURL: sc.URL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "S3CRET-client-4321"}}
	p.Tokens.AccessToken, p.Tokens.RefreshToken, p.Tokens.ExpiresIn = "S3CRET-access-OLD-1234", "S3CRET-refresh-OLD-5678", 60
	if _, herr := ImportTokens(sc, p, func(a, b string) bool { return a == b }); herr != nil {
		t.Fatal(herr)
	}
	call := open(l, true)
	call.TokenURL = sc.TokenURL
	if herr := call.Authorize(); herr != nil {
		t.Fatal(herr)
	}
	src := call.grant.src.(*clockSource)
	sent, err := src.Token() // the bearer call's request carries
	if err != nil {
		t.Fatal(err)
	}
	// Another call on the same grant gets a 401 and refreshes meanwhile.
	if !src.reject(src.generation()) {
		t.Fatal("cannot refresh")
	}
	if tok, err := src.Token(); err != nil || tok.AccessToken == sent.AccessToken {
		t.Fatalf("refresh: %v %v", tok, err)
	}
	msg := "upstream rejected token " + sent.AccessToken + " (refresh " + sent.RefreshToken + ")"
	if got := call.scrub(msg); strings.Contains(got, "S3CRET") {
		t.Errorf("scrub(%q) = %q: the token the call actually sent leaks", msg, got)
	}
}
