package hosts_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func ms(t time.Time) shared.Millis { return shared.Millis(t.UnixMilli()) }

// catalogEntry returns a template's catalog entry, as the public catalog
// (the one c sees) publishes it.
func catalogEntry(t *testing.T, c *projectops.Client, tpl hosts.Template) map[string]any {
	t.Helper()
	hc, err := c.Catalog.HostCatalog(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	e, ok := hc.Catalog.HostsByID[string(tpl)]
	if !ok {
		t.Fatalf("catalog has no %s entry", tpl)
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// configMap decodes a read-back config and splits off its row id, checking
// that the id is a content address.
func configMap(t *testing.T, c hosts.Config) (cfg map[string]any, id string) {
	t.Helper()
	if err := json.Unmarshal(c, &cfg); err != nil {
		t.Fatal(err)
	}
	id, _ = cfg["id"].(string)
	if b, err := hex.DecodeString(id); err != nil || len(b) != 32 {
		t.Errorf("config id %q is not a sha256", id)
	}
	delete(cfg, "id")
	return cfg, id
}

// checkTemplateConfig checks a config seeded from tpl: the entry's creation
// fields in the canonical v2 form, without the display keys, with theme
// (when given) set in hostContext and never at the top level.
func checkTemplateConfig(t *testing.T, c *projectops.Client, tpl hosts.Template, theme string, got hosts.Config) {
	t.Helper()
	entry := catalogEntry(t, c, tpl)
	cfg, _ := configMap(t, got)
	if cfg["schemaVersion"] != 2.0 {
		t.Errorf("%s: schemaVersion = %v", tpl, cfg["schemaVersion"])
	}
	for _, k := range []string{"label", "provenance", "rendersMcpApps", "supportedProtocolVersions", "verifiedAt", "imageSupport", "theme"} {
		if _, present := cfg[k]; present {
			t.Errorf("%s: config has %s", tpl, k)
		}
	}
	for _, k := range []string{"modelId", "hostStyle", "temperature", "clientCapabilities", "connectionDefaults", "harness", "computer", "mcpToolResultImageRendering"} {
		if diff := cmp.Diff(entry[k], cfg[k]); diff != "" {
			t.Errorf("%s: config.%s (-entry +config):\n%s", tpl, k, diff)
		}
	}
	wantCtx, _ := entry["hostContext"].(map[string]any)
	if theme != "" {
		wantCtx["theme"] = theme
	}
	if diff := cmp.Diff(wantCtx, cfg["hostContext"]); diff != "" {
		t.Errorf("%s: hostContext (-want +got):\n%s", tpl, diff)
	}
}

func TestHostLifecycle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	server := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "everything",
		URL: "https://mcp.example.com/mcp"}))

	// Create from a template with a theme.
	fromTpl, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "Claude dark", Template: hosts.TemplateClaude,
		Theme: hosts.ThemeDark})
	if err != nil {
		t.Fatalf("Create from template: %v", err)
	}
	if fromTpl.Name != "Claude dark" {
		t.Errorf("Create from template: name %q", fromTpl.Name)
	}
	checkTemplateConfig(t, f.C, hosts.TemplateClaude, hosts.ThemeDark, fromTpl.Config)
	if m := fromTpl.Config.ModelID(); m != "anthropic/claude-haiku-4.5" {
		t.Errorf("template config modelId = %v", m)
	}

	// A template without a theme keeps the template's own hostContext.
	f.Clock.Advance(time.Minute)
	light, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "Codex", Template: hosts.TemplateCodex})
	if err != nil {
		t.Fatalf("Create without theme: %v", err)
	}
	checkTemplateConfig(t, f.C, hosts.TemplateCodex, "", light.Config)

	// Create from a full config: validated and stored in canonical form
	// (id lists present, schemaVersion 2). A top-level key host config v2
	// does not define is refused, as the service's backend refuses it.
	f.Clock.Advance(time.Minute)
	full := sdktest.HostConfig(map[string]any{"serverIds": []any{server}, "hostStyle": "chatgpt"})
	withUnknown := sdktest.HostConfig(map[string]any{"serverIds": []any{server}, "hostStyle": "chatgpt",
		"nested": map[string]any{"a": []any{1.0, "two", true, nil}}})
	_, err = f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "Custom", Config: hosts.MustConfig(withUnknown)})
	wantField(t, err, "config.nested", true)
	fromCfg, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "Custom", Config: hosts.MustConfig(full)})
	if err != nil {
		t.Fatalf("Create from config: %v", err)
	}
	if gotCfg, _ := configMap(t, fromCfg.Config); fromCfg.Name != "Custom" || !cmp.Equal(sdktest.Canonical(full), gotCfg) {
		t.Errorf("Create from config (-want +got):\n%s", cmp.Diff(sdktest.Canonical(full), gotCfg))
	}
	if fromTpl.ID == light.ID || light.ID == fromCfg.ID {
		t.Fatalf("ids are not distinct: %s %s %s", fromTpl.ID, light.ID, fromCfg.ID)
	}

	// List and All.
	page, err := f.C.Hosts.List(ctx, p, nil)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	wantList := []hosts.Host{
		{ID: fromTpl.ID, Name: "Claude dark", ModelID: "anthropic/claude-haiku-4.5", CreatedAt: ms(t0), UpdatedAt: ms(t0)},
		{ID: light.ID, Name: "Codex", ModelID: "openai/gpt-5-nano",
			CreatedAt: ms(t0.Add(time.Minute)), UpdatedAt: ms(t0.Add(time.Minute))},
		{ID: fromCfg.ID, Name: "Custom", ModelID: "openai/gpt-5", ServerCount: 1,
			CreatedAt: ms(t0.Add(2 * time.Minute)), UpdatedAt: ms(t0.Add(2 * time.Minute))},
	}
	if diff := cmp.Diff(wantList, page.Items, cmpopts.IgnoreFields(hosts.Host{}, "HostConfigID")); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	cfgIDs := map[string]string{}
	for _, h := range page.Items {
		if b, err := hex.DecodeString(h.HostConfigID); err != nil || len(b) != 32 {
			t.Errorf("host %s: hostConfigId %q is not a sha256", h.ID, h.HostConfigID)
		}
		cfgIDs[h.ID] = h.HostConfigID
	}
	// The read-back config's id is its row id: the host's hostConfigId.
	for _, d := range []*hosts.HostDetail{fromTpl, light, fromCfg} {
		if _, id := configMap(t, d.Config); id != cfgIDs[d.ID] {
			t.Errorf("host %s: config id %s, hostConfigId %s", d.ID, id, cfgIDs[d.ID])
		}
	}
	if len(cfgIDs) != 3 || cfgIDs[fromTpl.ID] == cfgIDs[light.ID] {
		t.Errorf("different configs share a hostConfigId: %v", cfgIDs)
	}
	all, err := collect(f.C.Hosts.All(ctx, p, nil))
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	if diff := cmp.Diff(page.Items, all); diff != "" {
		t.Errorf("All differs from List (-list +all):\n%s", diff)
	}

	// Get returns what Create returned.
	got, err := f.C.Hosts.Get(ctx, p, fromTpl.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if diff := cmp.Diff(fromTpl, got); diff != "" {
		t.Errorf("Get (-create +get):\n%s", diff)
	}

	// Update the name only: the config is kept.
	f.Clock.Advance(time.Minute)
	renamed, err := f.C.Hosts.Update(ctx, p, fromTpl.ID, hosts.UpdateParams{Name: "Claude (renamed)"})
	if err != nil {
		t.Fatalf("Update name: %v", err)
	}
	if diff := cmp.Diff(&hosts.HostDetail{ID: fromTpl.ID, Name: "Claude (renamed)", Config: fromTpl.Config}, renamed); diff != "" {
		t.Errorf("Update name (-want +got):\n%s", diff)
	}

	// Update the config only: the name is kept and the config replaced whole.
	f.Clock.Advance(time.Minute)
	newCfg := sdktest.HostConfig(map[string]any{"modelId": "anthropic/claude-opus-4", "hostContext": map[string]any{"theme": "dark"}})
	reconf, err := f.C.Hosts.Update(ctx, p, fromTpl.ID, hosts.UpdateParams{Config: hosts.MustConfig(newCfg)})
	if err != nil {
		t.Fatalf("Update config: %v", err)
	}
	if gotCfg, _ := configMap(t, reconf.Config); reconf.Name != "Claude (renamed)" || !cmp.Equal(sdktest.Canonical(newCfg), gotCfg) {
		t.Errorf("Update config (-want +got):\n%s", cmp.Diff(sdktest.Canonical(newCfg), gotCfg))
	}
	got, err = f.C.Hosts.Get(ctx, p, fromTpl.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reconf, got); diff != "" {
		t.Errorf("Get after updates (-update +get):\n%s", diff)
	}
	page, err = f.C.Hosts.List(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := page.Items[0]
	if h.ModelID != "anthropic/claude-opus-4" || h.CreatedAt != ms(t0) || h.UpdatedAt != ms(t0.Add(4*time.Minute)) ||
		h.HostConfigID == cfgIDs[fromTpl.ID] {
		t.Errorf("listed after updates: %+v (old hostConfigId %s)", h, cfgIDs[fromTpl.ID])
	}

	// Delete, then the host is gone everywhere.
	del, err := f.C.Hosts.Delete(ctx, p, fromTpl.ID, nil)
	if err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if diff := cmp.Diff(&hosts.Deleted{ID: fromTpl.ID, Deleted: true}, del); diff != "" {
		t.Errorf("Delete (-want +got):\n%s", diff)
	}
	_, err = f.C.Hosts.Get(ctx, p, fromTpl.ID)
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Hosts.Update(ctx, p, fromTpl.ID, hosts.UpdateParams{Name: "ghost"})
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Hosts.Delete(ctx, p, fromTpl.ID, nil)
	wantError(t, err, projectops.CodeNotFound, true)
	page, err = f.C.Hosts.List(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{light.ID, fromCfg.ID}, hostIDs(page.Items)); diff != "" {
		t.Errorf("List after delete (-want +got):\n%s", diff)
	}
}

func hostIDs(hs []hosts.Host) []string {
	out := []string{}
	for _, h := range hs {
		out = append(out, h.ID)
	}
	return out
}

// Nothing is aliased: changing the caller's map or the returned config's
// bytes in place after Create changes nothing on the service (the double
// caches encoded hosts, so this guards its buffers too).
func TestCreateConfigNotAliased(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := sdktest.HostConfig(nil)
	h, err := f.C.Hosts.Create(t.Context(), f.WS.ProjectID, hosts.CreateParams{Name: "x", Config: hosts.MustConfig(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	cfg["modelId"] = "changed"
	for i := range h.Config {
		h.Config[i] = ' '
	}
	got, err := f.C.Hosts.Get(t.Context(), f.WS.ProjectID, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Config.ModelID() != "openai/gpt-5" {
		t.Errorf("stored config = %s", got.Config)
	}
}

// A template is seeded from the live catalog when it parses and knows the
// template, else from the bundled catalog.
func TestCreateFromLiveCatalog(t *testing.T) {
	t.Parallel()
	bundled := setup(t)
	claude := catalogEntry(t, bundled.C, hosts.TemplateClaude)
	claude["modelId"] = "anthropic/claude-live"
	live, err := json.Marshal(map[string]any{"schemaVersion": 2, "version": 3, "contentHash": "h", "publishedAt": 1,
		"catalog": map[string]any{"hostsById": map[string]any{"claude": claude}}})
	if err != nil {
		t.Fatal(err)
	}
	f := setup(t, projectopstest.WithHostCatalogSource(func(context.Context) ([]byte, error) { return live, nil }))
	ctx := t.Context()
	h, err := f.C.Hosts.Create(ctx, f.WS.ProjectID, hosts.CreateParams{Name: "live", Template: hosts.TemplateClaude})
	if err != nil {
		t.Fatal(err)
	}
	checkTemplateConfig(t, f.C, hosts.TemplateClaude, "", h.Config)
	if m := h.Config.ModelID(); m != "anthropic/claude-live" {
		t.Errorf("live-seeded modelId = %s", m)
	}

	// The live catalog has no codex entry: the bundled one seeds it.
	h, err = f.C.Hosts.Create(ctx, f.WS.ProjectID, hosts.CreateParams{Name: "codex", Template: hosts.TemplateCodex,
		Theme: hosts.ThemeDark})
	if err != nil {
		t.Fatal(err)
	}
	checkTemplateConfig(t, bundled.C, hosts.TemplateCodex, hosts.ThemeDark, h.Config)
}

func TestDeleteReferencedHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		suite, chatbox bool
		wantRefTypes   []string
	}{
		{name: "eval suite", suite: true, wantRefTypes: []string{"evalSuite"}},
		{name: "chatbox", chatbox: true, wantRefTypes: []string{"chatbox"}},
		{name: "both", suite: true, chatbox: true, wantRefTypes: []string{"evalSuite", "chatbox"}},
		{name: "unreferenced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			ctx, p := t.Context(), f.WS.ProjectID
			host := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: p, Name: "H", Template: hosts.TemplateClaude}))
			var cbx string
			if tt.suite {
				must(t)(f.Srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: p, Name: "smoke", HostID: host}))
			}
			if tt.chatbox {
				cbx = must(t)(f.Srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: p, Name: "bot", HostID: host}))
			}
			if len(tt.wantRefTypes) > 0 {
				for _, params := range []*hosts.DeleteParams{nil, {Force: false}} {
					_, err := f.C.Hosts.Delete(ctx, p, host, params)
					e := wantError(t, err, projectops.CodeValidation, true)
					refs, _ := e.Details["references"].([]any)
					var types []string
					for _, r := range refs {
						m, _ := r.(map[string]any)
						typ, _ := m["type"].(string)
						types = append(types, typ)
						if id, _ := m["id"].(string); id == "" {
							t.Errorf("reference without id: %v", m)
						}
					}
					if diff := cmp.Diff(tt.wantRefTypes, types); diff != "" {
						t.Errorf("details.references types (-want +got):\n%s", diff)
					}
					if _, err := f.C.Hosts.Get(ctx, p, host); err != nil {
						t.Fatalf("host gone after a refused delete: %v", err)
					}
				}
			}
			del, err := f.C.Hosts.Delete(ctx, p, host, &hosts.DeleteParams{Force: true})
			if err != nil {
				t.Fatalf("Delete with Force: %v", err)
			}
			if !del.Deleted || del.ID != host {
				t.Errorf("Delete = %+v", del)
			}
			_, err = f.C.Hosts.Get(ctx, p, host)
			wantError(t, err, projectops.CodeNotFound, true)
			if cbx != "" {
				// Forcing detached the chatbox from the host.
				d, err := f.C.Catalog.Chatbox(ctx, p, cbx)
				if err != nil {
					t.Fatal(err)
				}
				if d.HostID != "" || d.HostName != "" {
					t.Errorf("chatbox still points at the deleted host: %q %q", d.HostID, d.HostName)
				}
			}
		})
	}
}

// A host of another project reads as NOT_FOUND through this project, for
// every host route, even for a caller who can access both projects.
func TestHostOfAnotherProject(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "Other"}))
	host := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: other, Name: "theirs", Template: hosts.TemplateClaude}))
	_, err := f.C.Hosts.Get(ctx, p, host)
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Hosts.Update(ctx, p, host, hosts.UpdateParams{Name: "mine now"})
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Hosts.Delete(ctx, p, host, &hosts.DeleteParams{Force: true})
	wantError(t, err, projectops.CodeNotFound, true)
	got, err := f.C.Hosts.Get(ctx, other, host)
	if err != nil {
		t.Fatalf("Get through its own project: %v", err)
	}
	if got.Name != "theirs" {
		t.Errorf("name = %q: the host was changed through another project", got.Name)
	}
	page, err := f.C.Hosts.List(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 0 {
		t.Errorf("List of this project shows %v", hostIDs(page.Items))
	}
	_, err = f.C.Hosts.List(ctx, "prj_nope", nil)
	wantError(t, err, projectops.CodeNotFound, true)
}
