package projectopstest_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/shared"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

// configIDs is a config's serverIds.
func configIDs(t *testing.T, c hosts.Config) []any {
	t.Helper()
	ids, _ := configMap(t, c)["serverIds"].([]any)
	return ids
}

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
			hc, _ := cfg["hostContext"].(map[string]any)
			if _, top := cfg["theme"]; top || cfg["hostStyle"] != "claude" || cfg["modelId"] != "anthropic/claude-haiku-4.5" || hc["theme"] != "dark" {
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
			full := sdktest.HostConfig(map[string]any{"hostStyle": "chatgpt", "serverIds": []string{srvID}})
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
				ServerCount: 1, CreatedAt: shared.Millis(clock.Now().UnixMilli()), UpdatedAt: shared.Millis(clock.Now().UnixMilli())}
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
			tg.call(t, "PATCH", base+"/"+second.ID, ws.APIKey, hosts.UpdateParams{Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"modelId": "openai/gpt-5-mini"}))}).decode(t, &reconf)
			if reconf.Name != "Renamed" || reconf.Config.ModelID() != "openai/gpt-5-mini" || len(configIDs(t, reconf.Config)) != 0 {
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
			tg.call(t, "GET", base+"/"+third.ID, ws.APIKey, nil).wantError(t, shared.CodeNotFound)
			tg.call(t, "DELETE", base+"/"+third.ID, ws.APIKey, nil).wantError(t, shared.CodeNotFound)
		})
	}
}

func listHosts(t *testing.T, tg target, base, key string) []hosts.Host {
	t.Helper()
	var page shared.Page[hosts.Host]
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
		b := tg.call(t, "DELETE", path+host, ws.APIKey, body).wantError(t, shared.CodeValidation)
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
	live := liveCatalog(t, 42, "anthropic/claude-opus-4.1")
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithHostCatalogSource(
		func(context.Context) ([]byte, error) { return live, nil }))
	ws := srv.Default()
	tg := inproc(srv)
	var d hosts.HostDetail
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, hosts.CreateParams{Name: "L", Template: hosts.TemplateClaude}).decode(t, &d)
	if d.Config.ModelID() != "anthropic/claude-opus-4.1" {
		t.Errorf("config not seeded from the live catalog: %s", d.Config.ModelID())
	}
	// A template the live catalog lacks falls back to the bundled entry.
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, hosts.CreateParams{Name: "P", Template: hosts.TemplatePerplexity}).decode(t, &d)
	if d.Config.ModelID() != "openai/gpt-5-nano" {
		t.Errorf("fallback config: %s", d.Config.ModelID())
	}
	// An id in neither catalog is refused, naming the template.
	r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, map[string]any{"name": "X", "template": "netscape"})
	if r.status != 400 || !strings.Contains(string(r.body), "Unknown host template: netscape") {
		t.Errorf("unknown template: %d %s", r.status, r.body)
	}

	failing := projectopstest.NewTestServer(t, noLimit, projectopstest.WithHostCatalogSource(
		func(context.Context) ([]byte, error) { return nil, errors.New("unreachable") }))
	fws := failing.Default()
	inproc(failing).call(t, "POST", "/projects/"+fws.ProjectID+"/hosts", fws.APIKey, hosts.CreateParams{Name: "B", Template: hosts.TemplateClaude}).decode(t, &d)
	if d.Config.ModelID() != "anthropic/claude-haiku-4.5" {
		t.Errorf("bundled fallback config: %s", d.Config.ModelID())
	}
}

// bundledEntry is the bundled catalog's entry for id, as served.
func bundledEntry(t *testing.T, id string) map[string]any {
	t.Helper()
	var env struct {
		Catalog struct {
			HostsByID map[string]map[string]any `json:"hostsById"`
		} `json:"catalog"`
	}
	inproc(projectopstest.NewTestServer(t)).call(t, "GET", "/host-catalog", "", nil).decode(t, &env)
	return env.Catalog.HostsByID[id]
}

// liveCatalog is a published catalog of one host, claude, pinning model.
func liveCatalog(t *testing.T, version int, model string) []byte {
	t.Helper()
	claude := bundledEntry(t, "claude")
	claude["modelId"] = model
	b, err := json.Marshal(map[string]any{
		"schemaVersion": 2, "version": version, "contentHash": "abc123", "publishedAt": 1782000000000,
		"catalog": map[string]any{"hostsById": map[string]any{"claude": claude}},
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
		r := tg.call(t, "GET", "/host-catalog", "", nil) // public: no key
		var c catalog.HostCatalog
		r.decode(t, &c)
		if c.Source != catalog.SourceBundled || c.Version != 0 || c.ContentHash != "" || c.PublishedAt != 0 || c.SchemaVersion != 2 {
			t.Errorf("%s: envelope = %+v", tg.name, c)
		}
		if cc := r.header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s: bundled Cache-Control = %q", tg.name, cc)
		}
		var ids []string
		for id, h := range c.Catalog.HostsByID {
			ids = append(ids, id)
			if h.ID != id || h.Label == "" || h.HostStyle == "" || h.Provenance == "" || len(h.ImageSupport) == 0 {
				t.Errorf("entry %s incomplete: %+v", id, h)
			}
			if h.ModelID == "" || h.Temperature == 0 || h.ConnectionDefaults.RequestTimeout == 0 ||
				h.ClientCapabilities == nil || h.HostContext == nil || len(h.Extra) != 0 {
				t.Errorf("entry %s creation fields incomplete or untyped: %+v", id, h)
			}
		}
		slices.Sort(ids)
		want := []string{"agentcore", "chatgpt", "claude", "claude-code", "cline", "codex", "copilot", "cursor",
			"goose", "mcpjam", "mistral", "n8n", "notion", "perplexity", "slack", "vscode"}
		if diff := cmp.Diff(want, ids); diff != "" {
			t.Errorf("catalog hosts (-want +got):\n%s", diff)
		}
	}

	tests := []struct {
		name  string
		src   func(context.Context) ([]byte, error)
		want  catalog.HostCatalog // envelope only
		cache string
	}{
		{"live", func(context.Context) ([]byte, error) { return liveCatalog(t, 42, "m"), nil },
			catalog.HostCatalog{SchemaVersion: 2, Version: 42, ContentHash: "abc123", PublishedAt: 1782000000000, Source: "live"}, "public, max-age=300"},
		{"source error", func(context.Context) ([]byte, error) { return nil, errors.New("down") },
			catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}, "no-store"},
		{"garbage", func(context.Context) ([]byte, error) { return []byte("<html>"), nil },
			catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}, "no-store"},
		{"another schema version", func(context.Context) ([]byte, error) {
			return []byte(strings.Replace(string(liveCatalog(t, 42, "m")), `"schemaVersion":2`, `"schemaVersion":3`, 1)), nil
		}, catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}, "no-store"},
		{"an entry the reader refuses", func(context.Context) ([]byte, error) {
			return []byte(strings.Replace(string(liveCatalog(t, 42, "m")), `"label":"Claude"`, `"label":7`, 1)), nil
		}, catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}, "no-store"},
		{"empty catalog", func(context.Context) ([]byte, error) { return []byte(`{"catalog":{"hostsById":{}}}`), nil },
			catalog.HostCatalog{SchemaVersion: 2, Source: "bundled"}, "no-store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := projectopstest.NewTestServer(t, projectopstest.WithHostCatalogSource(tt.src))
			var c catalog.HostCatalog
			r := inproc(srv).call(t, "GET", "/host-catalog", "", nil)
			r.decode(t, &c)
			c.Catalog = catalog.HostCatalogContent{}
			if diff := cmp.Diff(tt.want, c); diff != "" {
				t.Errorf("envelope (-want +got):\n%s", diff)
			}
			if cc := r.header.Get("Cache-Control"); cc != tt.cache {
				t.Errorf("Cache-Control = %q, want %q", cc, tt.cache)
			}
		})
	}
}

// The live catalog is cached for five minutes; an older version never
// replaces a newer one; a failed refresh serves the stale catalog with
// no-cache.
func TestHostCatalogCache(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	var mu sync.Mutex
	calls, replies := 0, []any{liveCatalog(t, 5, "a"), liveCatalog(t, 4, "b"), errors.New("down"), liveCatalog(t, 6, "c")}
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now), projectopstest.WithHostCatalogSource(
		func(context.Context) ([]byte, error) {
			mu.Lock()
			defer mu.Unlock()
			r := replies[min(calls, len(replies)-1)]
			calls++
			if err, ok := r.(error); ok {
				return nil, err
			}
			return r.([]byte), nil
		}))
	get := func() (int64, string) {
		r := inproc(srv).call(t, "GET", "/host-catalog", "", nil)
		var c catalog.HostCatalog
		r.decode(t, &c)
		return c.Version, r.header.Get("Cache-Control")
	}
	steps := []struct {
		advance time.Duration
		version int64
		cache   string
		calls   int
	}{
		{0, 5, "public, max-age=300", 1},
		{4 * time.Minute, 5, "public, max-age=300", 1}, // cached
		{2 * time.Minute, 5, "public, max-age=300", 2}, // refreshed: version 4 is older, kept 5
		{6 * time.Minute, 5, "no-cache", 3},            // refresh failed: stale
		{time.Second, 6, "public, max-age=300", 4},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		v, cc := get()
		mu.Lock()
		n := calls
		mu.Unlock()
		if v != st.version || cc != st.cache || n != st.calls {
			t.Errorf("step %d: version %d, %q after %d fetches; want %d, %q after %d", i, v, cc, n, st.version, st.cache, st.calls)
		}
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

// createConfigHost creates a host from cfg; on 201 it returns the detail and
// the config's content address (config.id), else the body.
func createConfigHost(t *testing.T, tg target, base, key string, cfg map[string]any) (int, hosts.HostDetail, string, string) {
	t.Helper()
	r := tg.call(t, "POST", base, key, map[string]any{"name": "h", "config": cfg})
	var d hosts.HostDetail
	if r.status != 201 {
		return r.status, d, "", string(r.body)
	}
	r.decode(t, &d)
	m := map[string]any{}
	_ = json.Unmarshal(d.Config, &m)
	id, _ := m["id"].(string)
	return r.status, d, id, string(r.body)
}

// appsProfileConfig is a minimal config whose mcpProfile has these apps.
func appsProfileConfig(apps map[string]any) map[string]any {
	return sdktest.HostConfig(map[string]any{"mcpProfile": map[string]any{"profileVersion": 1, "apps": apps}})
}

// Image objects with no leaf canonicalize away, as the service's
// canonicalizer drops them: the config is the plain one, same content
// address, and reads back without them.
func TestHostEmptyImageObjectsCollapse(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, base := inproc(srv), "/projects/"+ws.ProjectID+"/hosts"
	_, _, plain, body := createConfigHost(t, tg, base, ws.APIKey, sdktest.HostConfig(nil))
	st, d, empty, body2 := createConfigHost(t, tg, base, ws.APIKey, sdktest.HostConfig(map[string]any{
		"modelVisibleMcpToolResults":  map[string]any{"directContent": map[string]any{}},
		"mcpToolResultImageRendering": map[string]any{}}))
	if st != 201 || plain == "" || empty != plain {
		t.Fatalf("ids %q %q (%d %s %s)", plain, empty, st, body, body2)
	}
	cfg := configMap(t, d.Config)
	for _, k := range []string{"modelVisibleMcpToolResults", "mcpToolResultImageRendering"} {
		if _, present := cfg[k]; present {
			t.Errorf("stored config keeps an empty %s: %v", k, cfg[k])
		}
	}
}

// sandboxAttrs are trimmed, emptied of blanks, deduplicated and sorted, and
// a sandbox whose allowFeatures hold only spec features collapses, as the
// service's canonicalizer does.
func TestHostSandboxNormalization(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, base := inproc(srv), "/projects/"+ws.ProjectID+"/hosts"
	id := func(cfg map[string]any) string {
		t.Helper()
		st, _, id, body := createConfigHost(t, tg, base, ws.APIKey, cfg)
		if st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		return id
	}
	sorted := id(appsProfileConfig(map[string]any{"sandbox": map[string]any{"sandboxAttrs": []any{"allow-forms", "allow-popups"}}}))
	messy := id(appsProfileConfig(map[string]any{"sandbox": map[string]any{"sandboxAttrs": []any{" allow-popups ", "allow-forms", "allow-forms", ""}}}))
	if sorted != messy {
		t.Errorf("sandboxAttrs: %s != %s", sorted, messy)
	}
	bare := id(sdktest.HostConfig(map[string]any{"mcpProfile": map[string]any{"profileVersion": 1}}))
	specOnly := id(appsProfileConfig(map[string]any{"sandbox": map[string]any{"allowFeatures": map[string]any{"camera": "*"}}}))
	if bare != specOnly {
		t.Errorf("spec-only allowFeatures: %s != %s", bare, specOnly)
	}
}

// csp.mode, permissions.mode and uiInitialize.hostInfo are optional.
func TestHostOptionalProfileFieldsAccepted(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, base := inproc(srv), "/projects/"+ws.ProjectID+"/hosts"
	for _, apps := range []map[string]any{
		{"sandbox": map[string]any{"csp": map[string]any{"restrictTo": map[string]any{"connectDomains": []any{"https://a.example"}}}}},
		{"sandbox": map[string]any{"permissions": map[string]any{"allow": map[string]any{"camera": true}}}},
		{"uiInitialize": map[string]any{}},
	} {
		if st, _, _, body := createConfigHost(t, tg, base, ws.APIKey, appsProfileConfig(apps)); st != 201 {
			t.Errorf("%v: %d %s", apps, st, body)
		}
	}
}

// openaiAppsOverrides are checked whatever openaiApps says, and kept unless
// openaiApps is false.
func TestHostOpenAIAppsOverrides(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, base := inproc(srv), "/projects/"+ws.ProjectID+"/hosts"
	compat := func(cr map[string]any) map[string]any { return appsProfileConfig(map[string]any{"compatRuntime": cr}) }
	for _, tt := range []struct {
		cr   map[string]any
		want string
	}{
		{map[string]any{"openaiApps": true, "openaiAppsOverrides": map[string]any{"callTool": "yes"}}, "openaiAppsOverrides.callTool must be a boolean"},
		{map[string]any{"openaiApps": false, "openaiAppsOverrides": map[string]any{"bogus": true}}, "bogus"},
	} {
		st, _, _, body := createConfigHost(t, tg, base, ws.APIKey, compat(tt.cr))
		if st != 400 || !strings.Contains(body, string(shared.CodeValidation)) || !strings.Contains(body, tt.want) {
			t.Errorf("%v: %d %s", tt.cr, st, body)
		}
	}
	st, d, _, body := createConfigHost(t, tg, base, ws.APIKey, compat(map[string]any{"openaiAppsOverrides": map[string]any{"callTool": true}}))
	if st != 201 {
		t.Fatalf("overrides without openaiApps: %d %s", st, body)
	}
	apps, _ := configMap(t, d.Config)["mcpProfile"].(map[string]any)["apps"].(map[string]any)
	cr, _ := apps["compatRuntime"].(map[string]any)
	if diff := cmp.Diff(map[string]any{"callTool": true}, cr["openaiAppsOverrides"]); diff != "" {
		t.Errorf("stored openaiAppsOverrides (-want +got):\n%s", diff)
	}
}

// A null mcpProfile or harness is refused, as the service's canonicalizer
// refuses anything but absent or a valid value.
func TestHostNullProfileAndHarnessRefused(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, base := inproc(srv), "/projects/"+ws.ProjectID+"/hosts"
	for _, k := range []string{"mcpProfile", "harness"} {
		st, _, _, body := createConfigHost(t, tg, base, ws.APIKey, sdktest.HostConfig(map[string]any{k: nil}))
		if st != 400 || !strings.Contains(body, string(shared.CodeValidation)) {
			t.Errorf("%s: null: %d %s", k, st, body)
		}
	}
}

// The live catalog reader strips mcpAppsOverrides keys it does not know
// (the service's zod schema does), so a newer catalog's cspConnectDomains
// is neither served nor breaks template creation.
func TestHostLiveCatalogStripsUnknownAppsOverrides(t *testing.T) {
	t.Parallel()
	claude := bundledEntry(t, "claude")
	claude["modelId"] = "anthropic/claude-opus-4.1"
	p := claude["mcpProfile"].(map[string]any)
	apps, _ := p["apps"].(map[string]any)
	if apps == nil {
		apps = map[string]any{}
		p["apps"] = apps
	}
	o, _ := apps["mcpAppsOverrides"].(map[string]any)
	if o == nil {
		o = map[string]any{}
		apps["mcpAppsOverrides"] = o
	}
	o["cspConnectDomains"] = map[string]any{"fetch": true, "xhr": true, "websocket": false}
	live, err := json.Marshal(map[string]any{
		"schemaVersion": 2, "version": 7, "contentHash": "abc", "publishedAt": 1782000000000,
		"catalog": map[string]any{"hostsById": map[string]any{"claude": claude}},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithHostCatalogSource(
		func(context.Context) ([]byte, error) { return live, nil }))
	ws := srv.Default()
	tg := inproc(srv)
	r := tg.call(t, "GET", "/host-catalog", "", nil)
	if r.status != 200 || !strings.Contains(string(r.body), `"source":"live"`) || strings.Contains(string(r.body), "cspConnectDomains") {
		t.Errorf("served catalog: %d, cspConnectDomains served or not live: %.300s", r.status, r.body)
	}
	r = tg.call(t, "POST", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, hosts.CreateParams{Name: "L", Template: hosts.TemplateClaude})
	if r.status != 201 {
		t.Fatalf("template create: %d %s", r.status, r.body)
	}
	var d hosts.HostDetail
	r.decode(t, &d)
	if d.Config.ModelID() != "anthropic/claude-opus-4.1" {
		t.Errorf("not seeded from the live entry: %s", d.Config.ModelID())
	}
}

// A harness runs inside the host's computer: the service's backend refuses
// a host config with a harness and no computer, on create and on update,
// and takes one with both.
func TestHostHarnessNeedsComputer(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/hosts"
	bare := sdktest.HostConfig(map[string]any{"harness": "claude-code"})
	r := tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "h", "config": bare})
	if r.status != 400 || !strings.Contains(string(r.body), `"config.harness"`) {
		t.Errorf("create with a harness and no computer: %d %s", r.status, r.body)
	}
	full := sdktest.HostConfig(map[string]any{"harness": "claude-code", "computer": map[string]any{"kind": "personal"}})
	var h struct{ ID string }
	tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "h", "config": full}).decode(t, &h)
	r = tg.call(t, "PATCH", base+"/"+h.ID, ws.APIKey, map[string]any{"config": bare})
	if r.status != 400 || !strings.Contains(string(r.body), `"config.harness"`) {
		t.Errorf("update to a harness and no computer: %d %s", r.status, r.body)
	}
}

// Hosts and computer environments validate a body before they look the
// resource up, as the service does: a bad body on a missing resource is
// 400, not 404; a good one on a missing resource is still 404.
func TestBodyCheckedBeforeLookup(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	p := "/projects/" + ws.ProjectID
	for _, c := range []struct {
		m, path string
		body    any
		status  int
	}{
		{"DELETE", p + "/computer-environments/missing", `{"x":1}`, 400},
		{"POST", p + "/computer-environments/missing/build", `{"x":1}`, 400},
		{"POST", p + "/computer-environments/missing/use", `{"x":1}`, 400},
		{"POST", p + "/computer-environments/missing/promote", `{"x":1}`, 400},
		{"PATCH", p + "/computer-environments/missing", `{}`, 400},
		{"PATCH", p + "/hosts/missing", `{"bogus":1}`, 400},
		{"DELETE", p + "/hosts/missing", `{"x":1}`, 400},
		{"PATCH", p + "/computer-environments/missing", `{"name":"n"}`, 404},
		{"PATCH", p + "/hosts/missing", `{"name":"n"}`, 404},
		{"DELETE", p + "/hosts/missing", nil, 404},
	} {
		if r := tg.call(t, c.m, c.path, ws.APIKey, c.body); r.status != c.status {
			t.Errorf("%s %s %v: %d %s, want %d", c.m, c.path, c.body, r.status, r.body, c.status)
		}
	}
}

// AddHost and seeds keep the harness rule too: a host the API would refuse
// cannot be seeded (its own config would then be refused back on PATCH).
func TestAddHostHarnessNeedsComputer(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	if id, err := srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "h",
		Config: map[string]any{"modelId": "openai/gpt-5", "harness": "claude-code"}}); err == nil || !strings.Contains(err.Error(), "config.computer") {
		t.Errorf("AddHost with a harness and no computer = %s, %v", id, err)
	}
}

// Create trims the name, the template and the config's modelId (as the
// service trims them: JavaScript's trim), and takes a theme beside a full
// config, ignoring it: the host's config is the one sent (api-spec.md §4.2,
// reference hosts create schema; the service's createHostSchema checks
// theme on both branches and uses it on the template one only).
func TestHostCreateTrimsAndTakesThemeWithConfig(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	p := "/projects/" + srv.Default().ProjectID + "/hosts"
	status, tpl := hostCall(t, srv, "POST", p, map[string]any{"name": "  Padded  ", "template": " \tclaude\n ", "theme": "light"})
	if status != 201 {
		t.Fatalf("padded template: %d %v", status, tpl)
	}
	cfg, _ := tpl["config"].(map[string]any)
	hc, _ := cfg["hostContext"].(map[string]any)
	if tpl["name"] != "Padded" || cfg["hostStyle"] != "claude" || hc["theme"] != "light" {
		t.Errorf("padded template: name %q, hostStyle %v, theme %v; want Padded, claude, light", tpl["name"], cfg["hostStyle"], hc["theme"])
	}

	full := sdktest.HostConfig(map[string]any{"modelId": "  openai/gpt-5  "})
	status, plain := hostCall(t, srv, "POST", p, map[string]any{"name": "Plain", "config": full})
	if status != 201 {
		t.Fatalf("config: %d %v", status, plain)
	}
	for _, theme := range []string{"dark", "light"} {
		status, themed := hostCall(t, srv, "POST", p, map[string]any{"name": " Themed ", "config": full, "theme": theme})
		if status != 201 {
			t.Fatalf("config with theme %s: %d %v", theme, status, themed)
		}
		if themed["name"] != "Themed" {
			t.Errorf("theme %s: name %q, want Themed", theme, themed["name"])
		}
		if diff := cmp.Diff(plain["config"], themed["config"]); diff != "" {
			t.Errorf("theme %s changed the config (-without +with):\n%s", theme, diff)
		}
	}
	if c, _ := plain["config"].(map[string]any); c["modelId"] != "openai/gpt-5" {
		t.Errorf("config.modelId = %q, want it trimmed", c["modelId"])
	}
	// Ignored is not unchecked: the service's schema still holds theme to
	// its two values.
	status, bad := hostCall(t, srv, "POST", p, map[string]any{"name": "Sepia", "config": full, "theme": "sepia"})
	if d, _ := bad["details"].(map[string]any); status != 400 || bad["code"] != "VALIDATION_ERROR" || d["field"] != "theme" {
		t.Errorf("config with theme sepia: %d %v, want 400 VALIDATION_ERROR field theme", status, bad)
	}
}
