package projectopstest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

func hostCall(t *testing.T, srv *projectopstest.Server, method, path string, body any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(method, srv.URL()+path, strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+srv.Default().APIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return resp.StatusCode, m
}

// A host pins its model, as the service has it: a config without a model
// (missing, empty or blank) is refused on create, a PATCH may not clear a
// host's model (details.modelId names it), and the model id is trimmed.
// A template is looked up after JavaScript's trim.
func TestHostPinsItsModel(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	p := "/projects/" + srv.Default().ProjectID
	status, seed := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "Seed", "template": "claude"})
	if status != 201 {
		t.Fatalf("create from template: %d %v", status, seed)
	}
	id, cfg := seed["id"].(string), seed["config"].(map[string]any)
	model := cfg["modelId"]
	// The read-back-only keys are not input (see TestHostConfigReadBackKeysRefusedOnPatch).
	delete(cfg, "id")
	delete(cfg, "schemaVersion")
	with := func(m any) map[string]any {
		c := map[string]any{}
		for k, v := range cfg {
			c[k] = v
		}
		if m == nil {
			delete(c, "modelId")
		} else {
			c["modelId"] = m
		}
		return c
	}
	for _, m := range []any{nil, "", "   "} {
		if status, body := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "No model", "config": with(m)}); status != 400 ||
			body["details"].(map[string]any)["field"] != "config.modelId" {
			t.Errorf("create with modelId %#v: %d %v", m, status, body)
		}
	}
	status, body := hostCall(t, srv, "PATCH", p+"/hosts/"+id, map[string]any{"config": with(nil)})
	if d, _ := body["details"].(map[string]any); status != 400 || d["modelId"] != model {
		t.Errorf("PATCH clearing the model: %d %v; want 400 naming %v", status, body, model)
	}
	status, body = hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "Padded", "config": with("  openai/gpt-5-mini  ")})
	if status != 201 || body["config"].(map[string]any)["modelId"] != "openai/gpt-5-mini" {
		t.Errorf("create with a padded model: %d %v", status, body["config"])
	}
	status, body = hostCall(t, srv, "PATCH", p+"/hosts/"+id, map[string]any{"config": with("\topenai/gpt-5-mini ")})
	if status != 200 || body["config"].(map[string]any)["modelId"] != "openai/gpt-5-mini" {
		t.Errorf("PATCH with a padded model: %d %v", status, body["config"])
	}
	if status, _ := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "BOM", "template": "\ufeffclaude"}); status != 201 {
		t.Errorf("BOM-padded template: %d, want 201", status)
	}
	if status, _ := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "NEL", "template": "\u0085claude"}); status != 400 {
		t.Errorf("NEL-padded template: %d, want 400 (JavaScript keeps a NEL: no such template)", status)
	}
}

// The pin is checked before anything else in the config, as the service
// checks it; a legacy host whose model is blank pins nothing.
func TestHostPinCheckedFirst(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	pid := srv.Default().ProjectID
	p := "/projects/" + pid
	status, seed := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "Seed", "template": "claude"})
	if status != 201 {
		t.Fatalf("create: %d %v", status, seed)
	}
	id, model := seed["id"].(string), seed["config"].(map[string]any)["modelId"]
	for name, cfg := range map[string]map[string]any{
		"numeric modelId":         {"modelId": 5, "temperature": "hot"},
		"only an unrelated field": {"systemPrompt": "x"},
	} {
		status, body := hostCall(t, srv, "PATCH", p+"/hosts/"+id, map[string]any{"config": cfg})
		if d, _ := body["details"].(map[string]any); status != 400 || d["modelId"] != model {
			t.Errorf("PATCH %s: %d %v; want the pin's 400 naming %v", name, status, body, model)
		}
	}
	status, body := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "x", "config": map[string]any{"systemPrompt": "x"}})
	if d, _ := body["details"].(map[string]any); status != 400 || d["field"] != "config.modelId" {
		t.Errorf("create with no model and more wrong: %d %v; want the model's refusal first", status, body)
	}
	legacy, err := srv.AddHost(projectopstest.HostSpec{ProjectID: pid, Name: "legacy", Config: map[string]any{"modelId": "   "}})
	if err != nil {
		t.Fatal(err)
	}
	_, cur := hostCall(t, srv, "GET", p+"/hosts/"+legacy, nil)
	c := cur["config"].(map[string]any)
	delete(c, "modelId")
	delete(c, "id") // read-back only, not input
	delete(c, "schemaVersion")
	c["systemPrompt"] = "edited"
	if status, body := hostCall(t, srv, "PATCH", p+"/hosts/"+legacy, map[string]any{"config": c}); status != 200 {
		t.Errorf("PATCH of a legacy host with a blank model: %d %v; a blank model pins nothing", status, body)
	}
}

// The pin reads "modelId" exactly, the last of duplicates winning, as the
// stored config does: "MODELID" is not a model, and cannot clear one; next
// to a model it is an unknown key, refused as such.
func TestHostPinReadsTheExactKey(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	p := "/projects/" + srv.Default().ProjectID
	rest := map[string]any{"temperature": 0.5, "connectionDefaults": map[string]any{"headers": map[string]any{}, "requestTimeout": 10000},
		"hostContext": map[string]any{}, "clientCapabilities": map[string]any{}}
	cfg := func(kv ...any) map[string]any {
		c := map[string]any{}
		for k, v := range rest {
			c[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			c[kv[i].(string)] = kv[i+1]
		}
		return c
	}
	status, seed := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "Seed", "template": "claude"})
	if status != 201 {
		t.Fatalf("create: %d %v", status, seed)
	}
	id := seed["id"].(string)
	for _, key := range []string{"MODELID", "modelid"} {
		if status, body := hostCall(t, srv, "PATCH", p+"/hosts/"+id, map[string]any{"config": cfg(key, "openai/gpt-5")}); status != 400 {
			t.Errorf("PATCH with %q alone: %d %v; want 400 (the model cannot be cleared)", key, status, body["config"])
		}
	}
	status, body := hostCall(t, srv, "POST", p+"/hosts", map[string]any{"name": "x", "config": cfg("MODELID", "m")})
	if d, _ := body["details"].(map[string]any); status != 400 || d["field"] != "config.modelId" {
		t.Errorf("create with MODELID: %d %v; want 400 field config.modelId", status, body)
	}
	status, body = hostCall(t, srv, "PATCH", p+"/hosts/"+id, map[string]any{"config": cfg("modelId", "m", "MODELID", "")})
	if d, _ := body["details"].(map[string]any); status != 400 || d["field"] != "config.MODELID" {
		t.Errorf("PATCH with modelId and a blank MODELID: %d %v; want 400 field config.MODELID (unknown key)", status, body)
	}
}
