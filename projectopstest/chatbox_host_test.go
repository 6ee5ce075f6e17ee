package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestChatboxFollowsItsHost: a chatbox publishes its host, so its detail
// shows the host's config as it is now (it kept the model, style and
// servers copied when it was created, and never showed the host's system
// prompt, temperature or tool approval); a host deleted by force leaves
// the chatbox with the settings it last showed.
func TestChatboxFollowsItsHost(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	str := must[string](t)
	sv := str(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "weather", URL: "https://w.example/mcp"}))
	host := str(srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "Bot host", Template: hosts.TemplateClaude}))
	cbx := str(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "Bot", HostID: host}))
	tg := inproc(srv)
	p := "/projects/" + ws.ProjectID
	cfg := hosts.MustConfig(sdktest.HostConfig(map[string]any{"hostStyle": "chatgpt", "modelId": "openai/gpt-5-mini",
		"systemPrompt": "Be brief.", "temperature": 0.2, "requireToolApproval": true, "serverIds": []string{sv}}))
	if r := tg.call(t, "PATCH", p+"/hosts/"+host, ws.APIKey, hosts.UpdateParams{Config: cfg}); r.status != 200 {
		t.Fatalf("PATCH host: %d %s", r.status, r.body)
	}
	check := func(when string) {
		t.Helper()
		var d catalog.ChatboxDetail
		tg.call(t, "GET", p+"/chatboxes/"+cbx, ws.APIKey, nil).decode(t, &d)
		if d.ModelID != "openai/gpt-5-mini" || d.HostStyle != "chatgpt" || d.SystemPrompt != "Be brief." ||
			d.Temperature == nil || *d.Temperature != 0.2 || !d.RequireToolApproval ||
			d.ServerCount != 1 || len(d.Servers) != 1 || d.Servers[0].ID != sv {
			t.Errorf("%s: modelId %q hostStyle %q systemPrompt %q temperature %v requireToolApproval %v servers %+v",
				when, d.ModelID, d.HostStyle, d.SystemPrompt, d.Temperature, d.RequireToolApproval, d.Servers)
		}
	}
	check("after its host's config changed")
	if r := tg.call(t, "DELETE", p+"/hosts/"+host, ws.APIKey, hosts.DeleteParams{Force: true}); r.status != 200 {
		t.Fatalf("DELETE host: %d %s", r.status, r.body)
	}
	check("after its host was deleted")
}
