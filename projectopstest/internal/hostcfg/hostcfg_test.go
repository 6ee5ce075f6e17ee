package hostcfg

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/hostconfig"
)

func TestBundledIsTheServiceCatalog(t *testing.T) {
	c := Bundled()
	want := []string{"mcpjam", "claude", "claude-code", "chatgpt", "mistral", "goose", "slack", "cursor",
		"codex", "copilot", "vscode", "agentcore", "n8n", "perplexity", "cline", "notion"}
	if got := c.IDs(); !slices.Equal(got, want) {
		t.Errorf("ids = %v, want %v", got, want)
	}
	ref, err := os.ReadFile("data/host-catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c.Envelope("bundled"), ref) {
		t.Error("the bundled envelope is not served byte for byte")
	}
	// The notes: every entry's host-config half passes the canonicalizer.
	for _, id := range c.IDs() {
		cfg, _ := c.Template(id, "")
		if _, err := hostconfig.Canonicalize(cfg); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

func TestTemplate(t *testing.T) {
	c := Bundled()
	cc, ok := c.Template("claude-code", "")
	if !ok {
		t.Fatal("no claude-code")
	}
	for _, k := range displayKeys {
		if _, present := cc[k]; present {
			t.Errorf("display key %s kept in the config", k)
		}
	}
	if cc["harness"] != "claude-code" || cc["computer"].(map[string]any)["kind"] != "personal" {
		t.Errorf("claude-code config = %v", cc)
	}
	if _, present := cc["theme"]; present {
		t.Error("a top-level theme key was written")
	}
	light, _ := c.Template("claude", "light")
	if light["hostContext"].(map[string]any)["theme"] != "light" {
		t.Errorf("hostContext = %v", light["hostContext"])
	}
	dark, _ := c.Template("claude", "")
	if dark["hostContext"].(map[string]any)["theme"] != "dark" {
		t.Errorf("the template's own theme changed: %v", dark["hostContext"])
	}
	n8n, _ := c.Template("n8n", "dark")
	if hc := n8n["hostContext"].(map[string]any); len(hc) != 1 || hc["theme"] != "dark" {
		t.Errorf("n8n hostContext = %v", hc)
	}
	// Templates are copies: changing one leaves the catalog alone.
	light["hostContext"].(map[string]any)["theme"] = "x"
	if again, _ := c.Template("claude", ""); again["hostContext"].(map[string]any)["theme"] != "dark" {
		t.Error("a template aliases the catalog")
	}
	if _, ok := c.Template("nope", ""); ok {
		t.Error("unknown template found")
	}
}

// base is a minimal valid config.
func base() map[string]any {
	return map[string]any{
		"temperature": 0.7, "connectionDefaults": map[string]any{"headers": map[string]any{}, "requestTimeout": 10000.0},
		"hostContext": map[string]any{}, "clientCapabilities": map[string]any{},
	}
}

func TestCanonicalizeRefuses(t *testing.T) {
	tests := []struct {
		name string
		edit func(map[string]any)
		msg  string
	}{
		{"no temperature", func(m map[string]any) { delete(m, "temperature") }, "temperature must be finite"},
		{"temperature string", func(m map[string]any) { m["temperature"] = "hot" }, "temperature must be finite"},
		{"temperature overflow", func(m map[string]any) { m["temperature"] = json.Number("1e400") }, "temperature must be finite"},
		{"no connectionDefaults", func(m map[string]any) { delete(m, "connectionDefaults") }, "connectionDefaults is required"},
		{"no requestTimeout", func(m map[string]any) { m["connectionDefaults"] = map[string]any{} }, "connectionDefaults.requestTimeout must be finite"},
		{"override not an object", func(m map[string]any) { m["chatUiOverride"] = []any{} }, "chatUiOverride must be a plain object"},
		{"harness", func(m map[string]any) { m["harness"] = "cursor" }, `harness must be "claude-code" or "codex"`},
		{"no hostContext", func(m map[string]any) { delete(m, "hostContext") }, "hostContext is required"},
		{"hostContext array", func(m map[string]any) { m["hostContext"] = []any{} }, "hostContext must be a plain object"},
		{"image key", func(m map[string]any) {
			m["modelVisibleMcpToolResults"] = map[string]any{"directContent": map[string]any{"video": true}}
		}, "modelVisibleMcpToolResults.directContent.video is not supported"},
		{"placement", func(m map[string]any) { m["mcpToolResultImageRendering"] = map[string]any{"placement": "float"} }, "mcpToolResultImageRendering.placement must be one of"},
		{"computer kind", func(m map[string]any) { m["computer"] = map[string]any{"kind": "shared"} }, `computer.kind must be "personal"`},
		{"empty tool id", func(m map[string]any) { m["builtInToolIds"] = []any{""} }, "builtInToolIds must contain only non-empty strings"},
		{"no clientCapabilities", func(m map[string]any) { delete(m, "clientCapabilities") }, "clientCapabilities is required"},
		{"profile version", func(m map[string]any) { m["mcpProfile"] = map[string]any{"profileVersion": 2.0} }, "mcpProfile.profileVersion must be 1"},
		{"protocol pin", func(m map[string]any) {
			m["mcpProfile"] = map[string]any{"profileVersion": 1.0, "mcpProtocolVersion": "auto"}
		}, "mcpProfile.mcpProtocolVersion is not a known protocol version"},
		{"conflicting pin", func(m map[string]any) {
			m["mcpProfile"] = map[string]any{"profileVersion": 1.0, "mcpProtocolVersion": "2025-06-18",
				"initialize": map[string]any{"supportedProtocolVersions": []any{"2025-11-25"}}}
		}, "ConflictingProtocolVersionPin"},
		{"HEAD-only apps override", func(m map[string]any) {
			m["mcpProfile"] = map[string]any{"profileVersion": 1.0, "apps": map[string]any{"mcpAppsOverrides": map[string]any{"cspConnectDomains": map[string]any{}}}}
		}, "mcpProfile.apps.mcpAppsOverrides.cspConnectDomains is not supported"},
		{"client info", func(m map[string]any) {
			m["mcpProfile"] = map[string]any{"profileVersion": 1.0, "initialize": map[string]any{"clientInfo": map[string]any{"name": "x"}}}
		}, "mcpProfile.initialize.clientInfo.version must be a non-empty string"},
		{"override of a foreign server", func(m map[string]any) {
			m["serverIds"] = []any{"srv_a"}
			m["serverConnectionOverrides"] = map[string]any{"srv_b": map[string]any{"requestTimeoutOverride": 5.0}}
		}, "serverConnectionOverrides.srv_b is not one of serverIds or optionalServerIds"},
		{"modelId type", func(m map[string]any) { m["modelId"] = 5.0 }, "modelId must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base()
			tt.edit(cfg)
			_, err := hostconfig.Canonicalize(cfg)
			if err == nil || !strings.HasPrefix(err.Error(), "hostConfigV2: "+tt.msg) {
				t.Fatalf("err = %v, want hostConfigV2: %s", err, tt.msg)
			}
		})
	}
}

func TestCanonicalizeNormalizes(t *testing.T) {
	cfg := base()
	cfg["builtInToolIds"] = []any{"b", "a", "b"}
	cfg["optionalServerIds"] = []any{"s2", "s1"}
	cfg["computer"] = map[string]any{"kind": "personal", "toolset": "bash", "workdir": "  "}
	cfg["unknownTopLevel"] = true
	cfg["mcpProfile"] = map[string]any{"profileVersion": 1.0, "mcpProtocolVersion": "2025-06-18",
		"apps": map[string]any{"sandbox": map[string]any{
			"csp":           map[string]any{"mode": "declared", "restrictTo": map[string]any{"connectDomains": []any{" b.example ", "a.example", "b.example"}}},
			"allowFeatures": map[string]any{"camera": "*", "fullscreen": "self"}}}}
	got, err := hostconfig.Canonicalize(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got["schemaVersion"] != hostconfig.SchemaVersion {
		t.Errorf("schemaVersion = %v", got["schemaVersion"])
	}
	check := func(name string, v, want any) {
		t.Helper()
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(want)
		if !bytes.Equal(a, b) {
			t.Errorf("%s = %s, want %s", name, a, b)
		}
	}
	check("builtInToolIds", got["builtInToolIds"], []string{"a", "b"})
	check("optionalServerIds", got["optionalServerIds"], []string{"s1", "s2"})
	check("serverIds", got["serverIds"], []string{})
	check("computer", got["computer"], map[string]any{"kind": "personal"})
	profile := got["mcpProfile"].(map[string]any)
	check("pin added", profile["initialize"], map[string]any{"supportedProtocolVersions": []string{"2025-06-18"}})
	sb := profile["apps"].(map[string]any)["sandbox"].(map[string]any)
	check("restrictTo", sb["csp"].(map[string]any)["restrictTo"], map[string]any{"connectDomains": []string{"a.example", "b.example"}})
	check("allowFeatures", sb["allowFeatures"], map[string]any{"fullscreen": "self"})
	if _, present := got["unknownTopLevel"]; present {
		t.Error("an unknown top-level key was copied")
	}
	if _, present := cfg["mcpProfile"].(map[string]any)["initialize"]; present {
		t.Error("Canonicalize changed its input")
	}
	cfg2 := base()
	cfg2["builtInToolIds"] = []any{}
	got2, _ := hostconfig.Canonicalize(cfg2)
	if _, present := got2["builtInToolIds"]; present {
		t.Error("an empty builtInToolIds was kept")
	}
}

func TestID(t *testing.T) {
	a, _ := hostconfig.Canonicalize(base())
	b := base()
	b["builtInToolIds"] = []any{} // canonicalizes away
	bc, _ := hostconfig.Canonicalize(b)
	if hostconfig.ID(a) != hostconfig.ID(bc) {
		t.Error("equal canonical configs have different ids")
	}
	c := base()
	c["temperature"] = 1.0
	cc, _ := hostconfig.Canonicalize(c)
	if hostconfig.ID(a) == hostconfig.ID(cc) || len(hostconfig.ID(a)) != 64 {
		t.Errorf("ids %s %s", hostconfig.ID(a), hostconfig.ID(cc))
	}
}

func TestParseLikeTheServiceReader(t *testing.T) {
	entry := func(extra string) string {
		return `{"schemaVersion":2,"version":3,"contentHash":"h","publishedAt":1,"source":"whatever","catalog":{"hostsById":{"x":{` +
			`"id":"x","label":"X","rendersMcpApps":false,"hostStyle":"x","modelId":"m","systemPrompt":"","temperature":1,` +
			`"requireToolApproval":false,"respectToolVisibility":true,"serverIds":[],"optionalServerIds":[],"builtInToolIds":[],` +
			`"connectionDefaults":{"headers":{},"requestTimeout":1000},"clientCapabilities":{},"hostContext":{}` + extra + `}}}}`
	}
	c, err := Parse([]byte(entry(`,"provenance":"rumour","futureKey":1,"imageSupport":{"toolImageContent":{"model":true,"ui":false},` +
		`"embeddedResourceImages":{"model":false,"ui":false},"resourceLinkImages":{"model":false,"ui":true},"placement":"sideways"},` +
		`"mcpProfile":{"profileVersion":1,"custom":{"kept":true},"apps":{"mcpAppsOverrides":{"availableDisplayModes":["inline","hologram"],"widgetDisplayModeRequests":"maybe","cspConnectDomains":{"fetch":true}}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != 3 {
		t.Errorf("version = %v", c.Version)
	}
	e := c.hosts["x"]
	if e["provenance"] != "assumed" {
		t.Errorf("provenance = %v", e["provenance"])
	}
	if _, present := e["futureKey"]; present {
		t.Error("an unknown key was kept")
	}
	o := e["mcpProfile"].(map[string]any)["apps"].(map[string]any)["mcpAppsOverrides"].(map[string]any)
	if modes := o["availableDisplayModes"].([]any); len(modes) != 1 || modes[0] != "inline" {
		t.Errorf("display modes = %v", modes)
	}
	if _, present := o["widgetDisplayModeRequests"]; present {
		t.Error("an unknown widgetDisplayModeRequests was kept")
	}
	if _, present := o["cspConnectDomains"]; present {
		t.Error("an unknown mcpAppsOverrides key was kept")
	}
	if e["mcpProfile"].(map[string]any)["custom"] == nil {
		t.Error("mcpProfile did not pass through")
	}
	render := e["mcpToolResultImageRendering"].(map[string]any)
	if render["placement"] != "none" || render["linkedResources"].(map[string]any)["blob"].(map[string]any)["image"] != true {
		t.Errorf("hydrated rendering = %v", render)
	}
	for name, bad := range map[string]string{
		"schema version": strings.Replace(entry(""), `"schemaVersion":2`, `"schemaVersion":3`, 1),
		"label type":     strings.Replace(entry(""), `"label":"X"`, `"label":5`, 1),
		"missing field":  strings.Replace(entry(""), `"systemPrompt":"",`, ``, 1),
		"id mismatch":    strings.Replace(entry(""), `"id":"x"`, `"id":"y"`, 1),
		"harness":        entry(`,"harness":"cursor"`),
		"override type":  entry(`,"mcpProfile":{"profileVersion":1,"apps":{"mcpAppsOverrides":{"logging":"yes"}}}`),
		"apps type":      entry(`,"mcpProfile":{"profileVersion":1,"apps":[]}`),
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// A full config's numbers are stored as JSON.stringify writes them, in
// free-form objects too: shortest digits, 1e+21, -0 as 0, and a number too
// large for a double (Infinity to JavaScript) as null.
func TestCanonicalConfigSpellsNumbersAsJavaScript(t *testing.T) {
	raw := `{"modelId":"m","temperature":0.70,"connectionDefaults":{"headers":{},"requestTimeout":1e4},` +
		`"clientCapabilities":{},"hostContext":{"a":[1.0,-0,1e21,1E-7,1e400],"b":{"c":2.50}}}`
	canon, herr := CanonicalConfig("config", json.RawMessage(raw))
	if herr != nil {
		t.Fatal(herr)
	}
	got, err := json.Marshal(map[string]any{"t": canon["temperature"], "cd": canon["connectionDefaults"], "hc": canon["hostContext"]})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"cd":{"headers":{},"requestTimeout":10000},"hc":{"a":[1,0,1e+21,1e-7,null],"b":{"c":2.5}},"t":0.7}`
	if string(got) != want {
		t.Errorf("canonical numbers:\n got %s\nwant %s", got, want)
	}
}

// The input keys the double accepts cover every key the service's own
// templates carry and every key the validator writes back (less the
// read-back-only schemaVersion), and the defaults: refusing unknown keys
// never refuses a config the service itself made.
func TestInputFieldsCoverTemplatesAndCanonicalKeys(t *testing.T) {
	c := Bundled()
	for _, id := range c.IDs() {
		cfg, ok := c.Template(id, "dark")
		if !ok {
			t.Fatalf("template %s missing", id)
		}
		if herr := unknownField("config", cfg); herr != nil {
			t.Errorf("template %s: %s", id, herr.Body.Message)
		}
		canon, err := canonicalize(cfg)
		if err != nil {
			t.Fatalf("template %s: %v", id, err)
		}
		delete(canon, "schemaVersion")
		if herr := unknownField("config", canon); herr != nil {
			t.Errorf("template %s canonical: %s", id, herr.Body.Message)
		}
	}
	if herr := unknownField("config", Defaults()); herr != nil {
		t.Errorf("defaults: %s", herr.Body.Message)
	}
	if herr := unknownField("config", map[string]any{"schemaVersion": 2}); herr == nil {
		t.Error("schemaVersion accepted as input")
	}
}
