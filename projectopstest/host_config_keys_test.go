package projectopstest_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// wantUnknownConfigKey checks r is the refusal of config key k: 400
// VALIDATION_ERROR naming it in the message and in details.field.
func wantUnknownConfigKey(t *testing.T, r result, k string) {
	t.Helper()
	if r.status/100 == 2 {
		t.Errorf("config key %q: %d (key dropped), want 400 VALIDATION_ERROR; body %s", k, r.status, r.body)
		return
	}
	b := r.wantError(t, shared.CodeValidation)
	if !strings.Contains(b.Message, `"`+k+`"`) {
		t.Errorf("config key %q: message %q does not name it", k, b.Message)
	}
	if f := b.Details["field"]; f != "config."+k {
		t.Errorf("config key %q: details.field = %v, want config.%s", k, f, k)
	}
}

// An unknown top-level key in a host config is refused, not dropped: the
// service's backend validator (hosts:createHost) rejects unknown fields
// and its gateway answers that with 400 VALIDATION_ERROR (reference notes,
// "Host config v2 validation" and "Strict bodies"). Nothing is created.
func TestHostConfigUnknownKeyRefusedOnCreate(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/hosts"
	for _, key := range []string{"bogusSetting", "theme", "id", "schemaVersion", "ModelId"} {
		r := tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "x",
			"config": sdktest.HostConfig(map[string]any{key: "dark"})})
		wantUnknownConfigKey(t, r, key)
	}
	var page struct{ Items []json.RawMessage }
	tg.call(t, "GET", base, ws.APIKey, nil).decode(t, &page)
	if len(page.Items) != 0 {
		t.Errorf("%d hosts created from refused configs", len(page.Items))
	}
}

// Same rule on PATCH (hosts:updateHost): the host is left as it was, even
// when the rest of the config would change it.
func TestHostConfigUnknownKeyRefusedOnPatch(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/hosts"
	var created struct {
		ID     string
		Config map[string]any
	}
	tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "x", "config": sdktest.HostConfig(nil)}).decode(t, &created)
	r := tg.call(t, "PATCH", base+"/"+created.ID, ws.APIKey, map[string]any{
		"config": sdktest.HostConfig(map[string]any{"temperature": 0.2, "bogusSetting": true})})
	wantUnknownConfigKey(t, r, "bogusSetting")
	var after struct{ Config map[string]any }
	tg.call(t, "GET", base+"/"+created.ID, ws.APIKey, nil).decode(t, &after)
	if after.Config["temperature"] != created.Config["temperature"] {
		t.Errorf("refused PATCH changed temperature to %v", after.Config["temperature"])
	}
}

// A config sent back exactly as read carries the read-back-only id (the
// config row's) and schemaVersion, which are not host config input: the
// service's own client strips them before saving (hostConfigDtoToInput)
// because the backend refuses them. So does the double, each on its own.
// (The SDK leaves them out; see hosts.Config.)
func TestHostConfigReadBackKeysRefusedOnPatch(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/hosts"
	var created struct {
		ID     string
		Config map[string]any
	}
	tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "x", "config": sdktest.HostConfig(nil)}).decode(t, &created)
	for _, key := range []string{"id", "schemaVersion"} {
		if _, ok := created.Config[key]; !ok {
			t.Fatalf("read-back config has no %s: %v", key, created.Config)
		}
	}
	r := tg.call(t, "PATCH", base+"/"+created.ID, ws.APIKey, map[string]any{"config": created.Config})
	wantUnknownConfigKey(t, r, "id") // the first in sorted order
	for _, key := range []string{"id", "schemaVersion"} {
		cfg := maps.Clone(created.Config)
		delete(cfg, map[string]string{"id": "schemaVersion", "schemaVersion": "id"}[key])
		r := tg.call(t, "PATCH", base+"/"+created.ID, ws.APIKey, map[string]any{"config": cfg})
		wantUnknownConfigKey(t, r, key)
	}
	// Without both, the read-back config is valid input again.
	cfg := maps.Clone(created.Config)
	delete(cfg, "id")
	delete(cfg, "schemaVersion")
	if r := tg.call(t, "PATCH", base+"/"+created.ID, ws.APIKey, map[string]any{"config": cfg}); r.status != 200 {
		t.Errorf("PATCH with the read-back config less id and schemaVersion: %d %s", r.status, r.body)
	}
}

// documentedConfig is a valid host config carrying every top-level field
// the reference documents for host config v2 input (reference notes,
// template fields table and "Host config v2 validation"), serverID among
// its servers.
func documentedConfig(serverID string) map[string]any {
	blob := map[string]any{"enabled": true, "image": true}
	return map[string]any{
		"hostStyle": "mcpjam", "modelId": "openai/gpt-5", "systemPrompt": "be brief", "temperature": 0.5,
		"requireToolApproval": true, "respectToolVisibility": false, "progressiveToolDiscovery": true,
		"serverIds": []any{serverID}, "optionalServerIds": []any{}, "builtInToolIds": []any{"web_search"},
		"modelVisibleMcpToolResults": map[string]any{"directContent": map[string]any{"text": true, "image": true},
			"embeddedResources": map[string]any{"text": true, "blob": blob}},
		"mcpToolResultImageRendering": map[string]any{"placement": "inline", "directContent": map[string]any{"image": true}},
		"computer":                    map[string]any{"kind": "personal", "workdir": "/work"},
		"harness":                     "codex",
		"connectionDefaults":          map[string]any{"headers": map[string]any{"X-Team": "a"}, "requestTimeout": 5000.0},
		"clientCapabilities":          map[string]any{"sampling": map[string]any{}},
		"hostContext":                 map[string]any{"theme": "dark"},
		"hostCapabilitiesOverride":    map[string]any{"openLinks": map[string]any{}},
		"chatUiOverride":              map[string]any{"palette": "warm"},
		"mcpProfile": map[string]any{"profileVersion": 1.0,
			"initialize": map[string]any{"clientInfo": map[string]any{"name": "n", "version": "1"}}},
		"serverConnectionOverrides": map[string]any{serverID: map[string]any{"requestTimeoutOverride": 2000.0,
			"headersOverride": map[string]any{"X-Only": "b"}, "mcpProtocolVersionOverride": "2025-06-18"}},
	}
}

// The refusal of unknown keys leaves every documented field accepted, on
// create and on PATCH, and each reads back.
func TestHostConfigEveryDocumentedKeyAccepted(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	sv, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "s", URL: "https://s.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := documentedConfig(sv)
	if len(cfg) != 21 {
		t.Fatalf("documentedConfig has %d keys, want the 21 documented", len(cfg))
	}
	base := "/projects/" + ws.ProjectID + "/hosts"
	r := tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "all", "config": cfg})
	if r.status != 201 {
		t.Fatalf("create with every documented key: %d %s", r.status, r.body)
	}
	var created struct {
		ID     string
		Config map[string]any
	}
	r.decode(t, &created)
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
		if _, ok := created.Config[k]; !ok {
			t.Errorf("documented key %s does not read back", k)
		}
	}
	cfg["temperature"] = 0.25
	if r := tg.call(t, "PATCH", base+"/"+created.ID, ws.APIKey, map[string]any{"config": cfg}); r.status != 200 {
		t.Errorf("PATCH with every documented key: %d %s", r.status, r.body)
	}
}

// A seed's host config follows the API's rule: an unknown top-level key is
// an error naming it, not a key silently lost.
func TestAddHostUnknownConfigKey(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	_, err := srv.AddHost(projectopstest.HostSpec{ProjectID: srv.Default().ProjectID, Name: "h",
		Config: map[string]any{"modelId": "openai/gpt-5", "bogusSetting": true}})
	if err == nil || !strings.Contains(err.Error(), `"bogusSetting"`) {
		t.Errorf("AddHost with an unknown config key: %v, want an error naming it", err)
	}
}
