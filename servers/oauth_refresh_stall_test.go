package servers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// A token endpoint that stalls bounds a refresh by the MCP timeout, as
// connecting and each MCP operation are: a call on the grant answered
// after two refresh attempts of 8 s each (oauth2 tries the client's
// credentials in the header, then in the body), holding every other call
// on the grant behind it.
func TestStalledTokenRefreshIsBounded(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			select {
			case <-release:
			case <-time.After(8 * time.Second):
			}
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer peer.Close()
	defer close(release)
	f := setup(t, projectopstest.WithMCPTimeout(time.Second))
	p, mcpURL := f.WS.ProjectID, peer.URL+"/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL, UseOAuth: true, OAuthTokenURL: peer.URL + "/token"}))
	if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid"},
		Tokens:            servers.Tokens{AccessToken: "at-old", RefreshToken: "rt-1", ExpiresIn: 3600}}); err != nil {
		t.Fatal(err)
	}
	c := f.Client(t, option.WithMaxRetries(0))
	done := make(chan error, 1)
	go func() { _, err := c.Servers.ListTools(context.Background(), p, id, nil); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("ListTools succeeded with a token the server refuses")
		}
	case <-time.After(6 * time.Second):
		t.Fatal("ListTools still waiting on the token endpoint 6 s on, with a 1 s MCP timeout")
	}
}
