package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func TestBadInput(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	hostID, err := srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "H", Template: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	hostsPath := "/projects/" + ws.ProjectID + "/hosts"
	hostPath := hostsPath + "/" + hostID
	tests := []struct {
		name, method, path string
		body               any
		field              string // "" = VALIDATION_ERROR without a field
		fields             bool   // details.fields lists alternatives
	}{
		{"malformed json", "POST", hostsPath, `{"name":`, "", false},
		{"trailing garbage", "POST", hostsPath, `{"name":"x","template":"claude"} {}`, "", false},
		{"array body", "POST", hostsPath, `[]`, "", false},
		{"null body", "POST", hostsPath, `null`, "", false},
		{"string body", "POST", hostsPath, `"x"`, "", false},
		{"unknown field", "POST", hostsPath, `{"name":"x","template":"claude","colour":"red"}`, "colour", false},
		{"name wrong type", "POST", hostsPath, `{"name":5,"template":"claude"}`, "name", false},
		{"template wrong type", "POST", hostsPath, `{"name":"x","template":true}`, "template", false},
		{"config wrong type", "POST", hostsPath, `{"name":"x","config":"big"}`, "config", false},
		{"missing name", "POST", hostsPath, `{"template":"claude"}`, "name", false},
		{"null name", "POST", hostsPath, `{"name":null,"template":"claude"}`, "name", false},
		{"empty name", "POST", hostsPath, `{"name":"","template":"claude"}`, "name", false},
		{"empty body", "POST", hostsPath, ``, "name", false},
		{"neither template nor config", "POST", hostsPath, `{"name":"x"}`, "", true},
		{"both template and config", "POST", hostsPath, `{"name":"x","template":"claude","config":{"modelId":"m"}}`, "", true},
		{"unknown template", "POST", hostsPath, `{"name":"x","template":"netscape"}`, "template", false},
		{"bad theme", "POST", hostsPath, `{"name":"x","template":"claude","theme":"sepia"}`, "theme", false},
		{"empty config", "POST", hostsPath, `{"name":"x","config":{}}`, "", true},
		{"config without temperature", "POST", hostsPath, `{"name":"x","config":{"modelId":"m"}}`, "config.temperature", false},
		{"config modelId type", "POST", hostsPath, `{"name":"x","config":{"modelId":7,"temperature":0.7,"connectionDefaults":{"headers":{},"requestTimeout":10000},"hostContext":{},"clientCapabilities":{}}}`, "config.modelId", false},
		{"config serverIds type", "POST", hostsPath, `{"name":"x","config":{"modelId":"openai/gpt-5","serverIds":"srv_1","temperature":0.7,"connectionDefaults":{"headers":{},"requestTimeout":10000},"hostContext":{},"clientCapabilities":{}}}`, "config.serverIds", false},
		{"config hostContext type", "POST", hostsPath, `{"name":"x","config":{"modelId":"m","temperature":1,"connectionDefaults":{"requestTimeout":1},"hostContext":[],"clientCapabilities":{}}}`, "config.hostContext", false},
		{"patch nothing", "PATCH", hostPath, `{}`, "", true},
		{"patch empty name", "PATCH", hostPath, `{"name":""}`, "name", false},
		{"patch unknown field", "PATCH", hostPath, `{"title":"x"}`, "title", false},
		{"patch empty config", "PATCH", hostPath, `{"config":{}}`, "config", false},
		{"patch name type", "PATCH", hostPath, `{"name":["x"]}`, "name", false},
		{"delete force type", "DELETE", hostPath, `{"force":"yes"}`, "force", false},
		{"delete unknown field", "DELETE", hostPath, `{"force":true,"cascade":true}`, "cascade", false},
		{"delete malformed", "DELETE", hostPath, `{force}`, "", false},
		{"sessions status", "GET", "/chat-sessions?status=deleted", nil, "status", false},
		{"sessions limit zero", "GET", "/chat-sessions?limit=0", nil, "limit", false},
		{"sessions limit big", "GET", "/chat-sessions?limit=201", nil, "limit", false},
		{"sessions limit text", "GET", "/chat-sessions?limit=ten", nil, "limit", false},
		{"sessions cursor garbage", "GET", "/chat-sessions?before=%25%25%25", nil, "before", false},
		{"sessions cursor negative timestamp", "GET", "/chat-sessions?before=-1", nil, "before", false},
		{"sessions cursor garbage as cursor", "GET", "/chat-sessions?cursor=%25%25%25", nil, "cursor", false},
		{"sessions cursor other kind", "GET", "/chat-sessions?before=aXRlcmF0aW9uczoxMA", nil, "before", false},
	}
	for _, tg := range targets(t, srv) {
		for _, tt := range tests {
			t.Run(tg.name+"/"+tt.name, func(t *testing.T) {
				r := tg.call(t, tt.method, tt.path, ws.APIKey, tt.body)
				b := r.wantError(t, shared.CodeValidation)
				if got, _ := b.Details["field"].(string); got != tt.field {
					t.Errorf("details.field = %q, want %q (%s)", got, tt.field, r.body)
				}
				if _, ok := b.Details["fields"]; ok != tt.fields {
					t.Errorf("details.fields present = %v, want %v (%s)", ok, tt.fields, r.body)
				}
			})
		}
	}
}

// A known path with another method is the service's 404 (its router has
// no 405 and no code for one); the message names the methods it takes.
func TestUnknownRouteAndMethod(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	key := srv.Default().APIKey
	for _, tg := range targets(t, srv) {
		tg.call(t, "GET", "/nope", key, nil).wantError(t, shared.CodeNotFound)
		tg.call(t, "GET", "/projects/prj_1/hosts/hst_1/extra", key, nil).wantError(t, shared.CodeNotFound)
		for _, c := range []struct{ method, path, takes string }{
			{"POST", "/me", "(the path takes GET)"},
			{"PUT", "/projects/prj_1/hosts/hst_1", "(the path takes GET, PATCH, DELETE)"},
		} {
			r := tg.call(t, c.method, c.path, key, nil)
			r.wantError(t, shared.CodeNotFound)
			if r.status != http.StatusNotFound || r.header.Get("Allow") != "" || !strings.Contains(string(r.body), c.takes) {
				t.Errorf("%s: %s %s: %d Allow=%q %s", tg.name, c.method, c.path, r.status, r.header.Get("Allow"), r.body)
			}
		}
	}
}
