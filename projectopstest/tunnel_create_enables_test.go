package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// Creating a tunnel for a saved server's name repoints that record at the
// tunnel and switches it on: the service writes enabled true with the new
// URL, so a server saved switched off is enabled afterwards.
func TestTunnelCreateEnablesServer(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "local-dev",
		TransportType: "http", URL: "http://127.0.0.1:9/mcp", Disabled: true})
	if err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	var g struct {
		ServerID string `json:"serverId"`
		Existed  bool   `json:"existed"`
	}
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/tunnels", ws.APIKey, map[string]any{"name": "local-dev"}).decode(t, &g)
	if g.ServerID != id || !g.Existed {
		t.Fatalf("grant serverId %q existed %v, want %q true", g.ServerID, g.Existed, id)
	}
	var page struct {
		Items []struct {
			ID      string `json:"id"`
			Enabled *bool  `json:"enabled"`
		} `json:"items"`
	}
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/servers", ws.APIKey, nil).decode(t, &page)
	for _, it := range page.Items {
		if it.ID == id {
			if it.Enabled == nil || !*it.Enabled {
				t.Errorf("server %s after tunnel create: enabled false or missing, want true", id)
			}
			return
		}
	}
	t.Fatalf("server %s not listed", id)
}
