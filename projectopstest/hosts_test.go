package projectopstest_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestHostLifecycle(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	srvID := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "s", URL: "https://a.example/mcp"}))
	for _, tg := range targets(t, srv) {
		t.Run(tg.name, func(t *testing.T) {
			base := "/projects/" + ws.ProjectID + "/hosts"
			var created hosts.HostDetail
			r := tg.call(t, "POST", base, ws.APIKey, hosts.CreateParams{Name: "Claude", Template: hosts.TemplateClaude, Theme: hosts.ThemeDark})
			if r.status != 201 {
				t.Fatalf("create: %d %s", r.status, r.body)
			}
			r.decode(t, &created)
			cfg := configMap(t, created.Config)
			if cfg["hostStyle"] != "claude" || cfg["modelId"] != "anthropic/claude-sonnet-4.5" || cfg["theme"] != "dark" {
				t.Errorf("seeded config = %v", cfg)
			}
			if ids, ok := cfg["serverIds"].([]any); !ok || len(ids) != 0 {
				t.Errorf("serverIds = %#v, want []", cfg["serverIds"])
			}
			if _, ok := cfg["mcpProfile"].(map[string]any); !ok {
				t.Errorf("mcpProfile missing: %v", cfg)
			}

			var got hosts.HostDetail
			tg.call(t, "GET", base+"/"+created.ID, ws.APIKey, nil).decode(t, &got)
			if diff := cmp.Diff(created, got); diff != "" {
				t.Errorf("detail differs from create (-create +get):\n%s", diff)
			}

			// A full config, with a server: counted, content-addressed.
			full := map[string]any{"modelId": "openai/gpt-5", "hostStyle": "chatgpt", "serverIds": []string{srvID}}
			var second hosts.HostDetail
			tg.call(t, "POST", base, ws.APIKey, hosts.CreateParams{Name: "Custom", Config: hosts.MustConfig(full)}).decode(t, &second)
			var third hosts.HostDetail
			tg.call(t, "POST", base, ws.APIKey, hosts.CreateParams{Name: "Twin", Config: hosts.MustConfig(full)}).decode(t, &third)

			list := listHosts(t, tg, base, ws.APIKey)
			byID := map[string]hosts.Host{}
			for _, h := range list {
				byID[h.ID] = h
			}
			h2, h3 := byID[second.ID], byID[third.ID]
			want := hosts.Host{ID: second.ID, Name: "Custom", HostConfigID: h2.HostConfigID, ModelID: "openai/gpt-5",
				ServerCount: 1, CreatedAt: catalog.Millis(clock.Now().UnixMilli()), UpdatedAt: catalog.Millis(clock.Now().UnixMilli())}
			if diff := cmp.Diff(want, h2); diff != "" {
				t.Errorf("listed host (-want +got):\n%s", diff)
			}
			if h2.HostConfigID == "" || h2.HostConfigID != h3.HostConfigID {
				t.Errorf("same config, config ids %q and %q", h2.HostConfigID, h3.HostConfigID)
			}
			if byID[created.ID].HostConfigID == h2.HostConfigID {
				t.Error("different configs share a config id")
			}

			// PATCH name only keeps the config; PATCH config only keeps the name.
			clock.Advance(time.Second)
			var renamed hosts.HostDetail
			tg.call(t, "PATCH", base+"/"+second.ID, ws.APIKey, map[string]any{"name": "Renamed"}).decode(t, &renamed)
			if renamed.Name != "Renamed" || !cmp.Equal(renamed.Config, second.Config) {
				t.Errorf("rename changed more than the name: %+v", renamed)
			}
			var reconf hosts.HostDetail
			tg.call(t, "PATCH", base+"/"+second.ID, ws.APIKey, hosts.UpdateParams{Config: hosts.MustConfig(map[string]any{"modelId": "openai/gpt-5-mini"})}).decode(t, &reconf)
			if reconf.Name != "Renamed" || reconf.Config.ModelID() != "openai/gpt-5-mini" || len(configMap(t, reconf.Config)) != 1 {
				t.Errorf("config replace: %+v", reconf)
			}
			after := map[string]hosts.Host{}
			for _, h := range listHosts(t, tg, base, ws.APIKey) {
				after[h.ID] = h
			}
			if a := after[second.ID]; a.HostConfigID == h2.HostConfigID || a.ServerCount != 0 || a.UpdatedAt == a.CreatedAt {
				t.Errorf("after config edit: %+v", a)
			}

			// Delete, then it is gone.
			var del hosts.Deleted
			tg.call(t, "DELETE", base+"/"+third.ID, ws.APIKey, nil).decode(t, &del)
			if del != (hosts.Deleted{ID: third.ID, Deleted: true}) {
				t.Errorf("delete = %+v", del)
			}
			tg.call(t, "GET", base+"/"+third.ID, ws.APIKey, nil).wantError(t, apierr.CodeNotFound)
			tg.call(t, "DELETE", base+"/"+third.ID, ws.APIKey, nil).wantError(t, apierr.CodeNotFound)
		})
	}
}

func listHosts(t *testing.T, tg target, base, key string) []hosts.Host {
	t.Helper()
	var page hosts.Page[hosts.Host]
	tg.call(t, "GET", base, key, nil).decode(t, &page)
	return page.Items
}

func TestHostDeleteReferenced(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	str := must[string](t)
	host := str(srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "Ref", Template: hosts.TemplateChatGPT}))
	suite := str(srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: ws.ProjectID, Name: "Smoke", HostID: host}))
	cbx := str(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "Bot", HostID: host}))
	free := str(srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "Free", Template: hosts.TemplateN8N}))
	tg := inproc(srv)
	path := "/projects/" + ws.ProjectID + "/hosts/"

	for _, body := range []any{nil, map[string]any{}, map[string]any{"force": false}} {
		b := tg.call(t, "DELETE", path+host, ws.APIKey, body).wantError(t, apierr.CodeConflict)
		want := []any{
			map[string]any{"type": "evalSuite", "id": suite, "name": "Smoke"},
			map[string]any{"type": "chatbox", "id": cbx, "name": "Bot"},
		}
		if diff := cmp.Diff(want, b.Details["references"]); diff != "" {
			t.Errorf("references (-want +got):\n%s", diff)
		}
	}
	// An unreferenced host needs no force.
	if r := tg.call(t, "DELETE", path+free, ws.APIKey, nil); r.status != 200 {
		t.Errorf("unreferenced delete: %d %s", r.status, r.body)
	}
	if r := tg.call(t, "DELETE", path+host, ws.APIKey, map[string]any{"force": true}); r.status != 200 {
		t.Fatalf("forced delete: %d %s", r.status, r.body)
	}
	var cb catalog.ChatboxDetail
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/chatboxes/"+cbx, ws.APIKey, nil).decode(t, &cb)
	if cb.HostID != "" || cb.HostName != "" {
		t.Errorf("chatbox still points at the deleted host: %+v", cb.Chatbox)
	}
}

func TestHostTemplateUsesLiveCatalog(t *testing.T) {
	t.Parallel()
	live := liveCatalog(t, "anthropic/claude-opus-4.1")
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithHostCatalogSource(
		func(context.Context) ([]byte, error) { return live, nil }))
	ws := srv.Default()
	tg := inproc(srv)
	var d hosts.HostDetail
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, hosts.CreateParams{Name: "L", Template: hosts.TemplateClaude}).decode(t, &d)
	if d.Config.ModelID() != "anthropic/claude-opus-4.1" || configMap(t, d.Config)["theme"] != "light" {
		t.Errorf("config not seeded from the live catalog: %v", d.Config)
	}
	// A template the live catalog lacks falls back to the bundled entry.
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, hosts.CreateParams{Name: "P", Template: hosts.TemplatePerplexity}).decode(t, &d)
	if d.Config.ModelID() != "perplexity/sonar-pro" {
		t.Errorf("fallback config: %v", d.Config)
	}

	failing := projectopstest.NewTestServer(t, noLimit, projectopstest.WithHostCatalogSource(
		func(context.Context) ([]byte, error) { return nil, errors.New("unreachable") }))
	fws := failing.Default()
	inproc(failing).call(t, "POST", "/projects/"+fws.ProjectID+"/hosts", fws.APIKey, hosts.CreateParams{Name: "B", Template: hosts.TemplateClaude}).decode(t, &d)
	if d.Config.ModelID() != "anthropic/claude-sonnet-4.5" {
		t.Errorf("bundled fallback config: %v", d.Config)
	}
}

// liveCatalog is a published catalog whose claude entry pins model.
func liveCatalog(t *testing.T, model string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"schemaVersion": 2, "version": 42, "contentHash": "abc123", "publishedAt": 1782000000000, "source": "bundled",
		"catalog": map[string]any{"hostsById": map[string]any{
			"claude": map[string]any{"id": "claude", "label": "Claude", "provenance": "observed", "rendersMcpApps": true,
				"hostStyle": "claude", "modelId": model},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHostCatalog(t *testing.T) {
	t.Parallel()
	bundled := projectopstest.NewTestServer(t)
	for _, tg := range targets(t, bundled) {
		var c catalog.HostCatalog
		tg.call(t, "GET", "/host-catalog", "", nil).decode(t, &c) // public: no key
		if c.Source != catalog.SourceBundled || c.Version != 0 || c.ContentHash != "" || c.PublishedAt != 0 || c.SchemaVersion != 2 {
			t.Errorf("%s: envelope = %+v", tg.name, c)
		}
		var ids []string
		for id, h := range c.Catalog.HostsByID {
			ids = append(ids, id)
			if h.ID != id || h.Label == "" || h.HostStyle == "" || h.Provenance == "" || len(h.SupportedProtocolVersions) == 0 {
				t.Errorf("entry %s incomplete: %+v", id, h)
			}
			if _, ok := h.Extra["modelId"]; !ok {
				t.Errorf("entry %s has no modelId creation field", id)
			}
		}
		var want []string
		for _, tpl := range hosts.Templates {
			want = append(want, string(tpl))
		}
		slices.Sort(ids)
		slices.Sort(want)
		if diff := cmp.Diff(want, ids); diff != "" {
			t.Errorf("catalog hosts (-templates +catalog):\n%s", diff)
		}
	}

	tests := []struct {
		name string
		src  func(context.Context) ([]byte, error)
		want catalog.HostCatalog // envelope only
	}{
		{"live", func(context.Context) ([]byte, error) { return liveCatalog(t, "m"), nil },
			catalog.HostCatalog{SchemaVersion: 2, Version: 42, ContentHash: "abc123", PublishedAt: 1782000000000, Source: "live"}},
		{"source error", func(context.Context) ([]byte, error) { return nil, errors.New("down") },
			catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}},
		{"garbage", func(context.Context) ([]byte, error) { return []byte("<html>"), nil },
			catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}},
		{"empty catalog", func(context.Context) ([]byte, error) { return []byte(`{"catalog":{"hostsById":{}}}`), nil },
			catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := projectopstest.NewTestServer(t, projectopstest.WithHostCatalogSource(tt.src))
			var c catalog.HostCatalog
			inproc(srv).call(t, "GET", "/host-catalog", "", nil).decode(t, &c)
			c.Catalog = catalog.HostCatalogContent{}
			if diff := cmp.Diff(tt.want, c); diff != "" {
				t.Errorf("envelope (-want +got):\n%s", diff)
			}
		})
	}
}

// configMap decodes a host config for assertions.
func configMap(t *testing.T, c hosts.Config) map[string]any {
	t.Helper()
	var m map[string]any
	if err := c.Decode(&m); err != nil {
		t.Fatalf("config %s: %v", c, err)
	}
	return m
}
