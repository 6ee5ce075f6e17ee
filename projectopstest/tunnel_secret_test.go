package projectopstest_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// TestTunnelSecretInNoResponse: the ?k= secret of a tunnel's URL is in the
// grant (once) and in no read: not in the server listing, a chatbox's
// attached servers, or check-oauth.
func TestTunnelSecretInNoResponse(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/tunnels", ws.APIKey, tunnels.CreateParams{Name: "local"})
	if r.status != 201 {
		t.Fatalf("create tunnel: %d %s", r.status, r.body)
	}
	var g tunnels.Grant
	r.decode(t, &g)
	u, err := url.Parse(g.URL)
	if err != nil {
		t.Fatal(err)
	}
	secret := u.Query().Get("k")
	if secret == "" {
		t.Fatalf("grant URL %q has no secret", g.URL)
	}
	cb := must[string](t)(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "cb", ServerIDs: []string{g.ServerID}}))
	for _, c := range []struct{ method, path string }{
		{"GET", "/projects/" + ws.ProjectID + "/servers"},
		{"GET", "/projects/" + ws.ProjectID + "/chatboxes/" + cb},
		{"POST", "/projects/" + ws.ProjectID + "/servers/" + g.ServerID + "/check-oauth"},
	} {
		r := tg.call(t, c.method, c.path, ws.APIKey, nil)
		if r.status != 200 {
			t.Fatalf("%s %s: %d %s", c.method, c.path, r.status, r.body)
		}
		if strings.Contains(string(r.body), secret) {
			t.Errorf("%s %s shows the tunnel secret: %s", c.method, c.path, r.body)
		}
		if !strings.Contains(string(r.body), g.Slug) {
			t.Errorf("%s %s does not show the tunnel URL: %s", c.method, c.path, r.body)
		}
	}
}
