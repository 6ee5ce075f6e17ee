package catalog_test

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/catalog"
)

// referenceCatalogFile is the service's bundled catalog
// (reference-host-catalog.json, the double's embedded copy byte for byte).
const referenceCatalogFile = "../projectopstest/internal/hostcfg/data/host-catalog.json"

// referenceHosts reads the reference catalog's entries, raw.
func referenceHosts(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(referenceCatalogFile)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Catalog struct {
			HostsByID map[string]json.RawMessage `json:"hostsById"`
		} `json:"catalog"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatal(err)
	}
	if len(env.Catalog.HostsByID) == 0 {
		t.Fatal("the reference catalog has no hosts")
	}
	return env.Catalog.HostsByID
}

// roundTrip decodes raw into a CatalogHost, encodes it again and returns
// both sides decoded as generic maps, with the typed host.
func roundTrip(t *testing.T, raw []byte) (want, got map[string]any, h catalog.CatalogHost) {
	t.Helper()
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatalf("decode: %v", err)
	}
	out, err := json.Marshal(h)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	return want, got, h
}

// Every entry of the reference catalog survives decode + encode as a
// JSON-equal object, and every member it has is a typed field: nothing
// lands in Extra.
func TestCatalogHostRoundTripsReference(t *testing.T) {
	t.Parallel()
	for id, raw := range referenceHosts(t) {
		t.Run(id, func(t *testing.T) {
			want, got, h := roundTrip(t, raw)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("re-encoded entry differs (-reference +sdk):\n%s", diff)
			}
			if len(h.Extra) != 0 {
				t.Errorf("members left untyped in Extra: %v", slices.Sorted(maps.Keys(h.Extra)))
			}
		})
	}
}

// Typed fields read the reference's values.
func TestCatalogHostTypedFields(t *testing.T) {
	t.Parallel()
	hosts := map[string]catalog.CatalogHost{}
	for id, raw := range referenceHosts(t) {
		var h catalog.CatalogHost
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		hosts[id] = h
		if h.ConnectionDefaults.RequestTimeout != 10000 || h.ConnectionDefaults.Headers == nil {
			t.Errorf("%s: ConnectionDefaults = %+v, want {headers:{}, requestTimeout:10000}", id, h.ConnectionDefaults)
		}
		if h.ServerIDs == nil || h.OptionalServerIDs == nil || h.BuiltInToolIDs == nil {
			t.Errorf("%s: a present [] decoded as nil", id)
		}
		if h.ProgressiveToolDiscovery == nil {
			t.Errorf("%s: ProgressiveToolDiscovery absent", id)
		}
	}
	codex := hosts["codex"]
	if codex.Harness != "codex" || codex.Computer == nil || codex.Computer.Kind != "personal" ||
		codex.ModelID != "openai/gpt-5-nano" || codex.Temperature != 0.7 || !codex.RespectToolVisibility {
		t.Errorf("codex = harness %q, computer %+v, model %q, temperature %v, respectToolVisibility %t",
			codex.Harness, codex.Computer, codex.ModelID, codex.Temperature, codex.RespectToolVisibility)
	}
	if h := hosts["claude-code"]; h.Harness != "claude-code" || h.Computer == nil {
		t.Errorf("claude-code = harness %q, computer %+v", h.Harness, h.Computer)
	}
	if h := hosts["claude"]; h.Harness != "" || h.Computer != nil || h.Temperature != 1 {
		t.Errorf("claude = harness %q, computer %+v, temperature %v", h.Harness, h.Computer, h.Temperature)
	}
	if g := hosts["goose"].ProgressiveToolDiscovery; g == nil || !*g {
		t.Errorf("goose ProgressiveToolDiscovery = %v, want true", g)
	}
	for _, id := range []string{"cursor", "vscode"} {
		if hosts[id].RespectToolVisibility {
			t.Errorf("%s RespectToolVisibility = true, want false", id)
		}
	}
}

// Optional members: absent stays absent, a present {} or [] stays present,
// and a member the type does not model is kept in Extra.
func TestCatalogHostOptionalMembers(t *testing.T) {
	t.Parallel()
	const required = `"id":"x","label":"X","provenance":"assumed","rendersMcpApps":false,"hostStyle":"x",` +
		`"modelId":"","systemPrompt":"","temperature":0,"requireToolApproval":true,"respectToolVisibility":false,` +
		`"serverIds":[],"optionalServerIds":["s1"],"builtInToolIds":[],` +
		`"connectionDefaults":{"headers":{"X-A":"1"},"requestTimeout":2500},"clientCapabilities":{},"hostContext":{}`
	tests := []struct {
		name      string
		raw       string
		wantExtra []string
	}{
		{"required only", `{` + required + `}`, nil},
		{"empty optionals present", `{` + required + `,"supportedProtocolVersions":[],"imageSupport":{},` +
			`"progressiveToolDiscovery":false,"modelVisibleMcpToolResults":{},"mcpToolResultImageRendering":{},` +
			`"computer":{"kind":"personal","workdir":"/w"},"harness":"codex","hostCapabilitiesOverride":{},` +
			`"chatUiOverride":{},"mcpProfile":{},"serverConnectionOverrides":{}}`, nil},
		{"newer metadata", `{` + required + `,"compatibilityEvidence":{"tables":[1]},` +
			`"styleVariablesByTheme":{"dark":{"--bg":"#000"}},"serverConnectionOverrides":{"s1":{"requestTimeoutOverride":5}}}`,
			nil},
		{"unmodelled members", `{` + required + `,"futureField":{"a":1},"another":true}`,
			[]string{"another", "futureField"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, got, h := roundTrip(t, []byte(tt.raw))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("re-encoded entry differs (-given +sdk):\n%s", diff)
			}
			extra := slices.Sorted(maps.Keys(h.Extra))
			if diff := cmp.Diff(tt.wantExtra, extra); diff != "" {
				t.Errorf("Extra keys (-want +got):\n%s", diff)
			}
		})
	}
}

// The newer catalogs' metadata reads typed.
func TestCatalogHostNewerMetadataTyped(t *testing.T) {
	t.Parallel()
	var h catalog.CatalogHost
	if err := json.Unmarshal([]byte(`{"id":"x","styleVariablesByTheme":{"dark":{"--bg":"#000"}},"compatibilityEvidence":{"tables":[1]}}`), &h); err != nil {
		t.Fatal(err)
	}
	if h.StyleVariablesByTheme["dark"]["--bg"] != "#000" || h.CompatibilityEvidence["tables"] == nil {
		t.Errorf("decoded %+v", h)
	}
}
