package servers_test

import (
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// The saved server carries the OAuth client secret (hasClientSecret true);
// the import names the client (clientInformation.clientId, as the
// reference's own example does) without repeating the secret. The expired
// token must still be refreshed with the saved secret.
func TestRefreshUsesSavedClientSecret(t *testing.T) {
	peer := newOAuthPeer(t)
	f := setup(t)
	p := f.WS.ProjectID
	mcpURL := peer.url + "/mcp"
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "guarded", URL: mcpURL,
		UseOAuth: true, ClientSecret: "csecret", OAuthTokenURL: peer.url + "/token"}))
	list, err := f.C.Servers.List(t.Context(), p, nil)
	if err != nil || len(list.Items) == 0 || !list.Items[len(list.Items)-1].HasClientSecret {
		t.Fatalf("server list = %+v, %v", list, err)
	}
	if _, err := f.C.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: mcpURL,
		ClientInformation: &servers.ClientInformation{ClientID: "cid"},
		Tokens:            servers.Tokens{AccessToken: "at-stale", RefreshToken: "rt-1", ExpiresIn: 60}}); err != nil {
		t.Fatal(err)
	}
	f.Clock.Advance(2 * time.Minute)
	if _, err := f.C.Servers.ListTools(t.Context(), p, id, nil); err != nil {
		_, refreshes := peer.seen()
		t.Fatalf("ListTools after expiry = %v (token endpoint asked %d times)", err, refreshes)
	}
}
