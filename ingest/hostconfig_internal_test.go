package ingest

import (
	"strings"
	"testing"
)

// hostConfigWith is a minimal host config with extra merged over it.
func hostConfigWith(extra map[string]any) HostConfig {
	cfg := HostConfig{"modelId": "openai/gpt-5", "temperature": 0.7, "hostContext": map[string]any{}, "clientCapabilities": map[string]any{},
		"connectionDefaults": map[string]any{"headers": map[string]any{}, "requestTimeout": 10000}}
	for k, v := range extra {
		cfg[k] = v
	}
	return cfg
}

func appsHostConfig(apps map[string]any) HostConfig {
	return hostConfigWith(map[string]any{"mcpProfile": map[string]any{"profileVersion": 1, "apps": apps}})
}

func hostConfigHash(t *testing.T, cfg HostConfig) string {
	t.Helper()
	p, err := RunParams{HostConfig: cfg}.withHostConfigHash()
	if err != nil {
		t.Fatalf("withHostConfigHash(%v): %v", map[string]any(cfg), err)
	}
	return p.HostConfigHash
}

// The service re-canonicalizes the host config and refuses a run whose
// hostConfigHash differs, so configs its canonicalizer makes equal must
// hash alike here.
func TestHostConfigHashMatchesTheServiceCanonicalForm(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		a, b HostConfig
	}{
		{"empty image objects", hostConfigWith(nil), hostConfigWith(map[string]any{
			"modelVisibleMcpToolResults": map[string]any{}, "mcpToolResultImageRendering": map[string]any{"directContent": map[string]any{}}})},
		{"sandboxAttrs as a set",
			appsHostConfig(map[string]any{"sandbox": map[string]any{"sandboxAttrs": []any{"allow-forms", "allow-popups"}}}),
			appsHostConfig(map[string]any{"sandbox": map[string]any{"sandboxAttrs": []any{" allow-popups ", "allow-forms", "allow-forms", ""}}})},
		{"spec-only allowFeatures",
			hostConfigWith(map[string]any{"mcpProfile": map[string]any{"profileVersion": 1}}),
			appsHostConfig(map[string]any{"sandbox": map[string]any{"allowFeatures": map[string]any{"camera": "*"}}})},
		{"spec feature dropped before its value is read",
			hostConfigWith(map[string]any{"mcpProfile": map[string]any{"profileVersion": 1}}),
			appsHostConfig(map[string]any{"sandbox": map[string]any{"allowFeatures": map[string]any{"camera": 1}}})},
		{"openaiAppsOverrides false-only drop",
			appsHostConfig(map[string]any{"compatRuntime": map[string]any{"openaiApps": false}}),
			appsHostConfig(map[string]any{"compatRuntime": map[string]any{"openaiApps": false, "openaiAppsOverrides": map[string]any{"callTool": true}}})},
	} {
		if a, b := hostConfigHash(t, tt.a), hostConfigHash(t, tt.b); a != b {
			t.Errorf("%s: %s != %s", tt.name, a, b)
		}
	}
	// openaiAppsOverrides are kept when openaiApps is absent.
	if a, b := hostConfigHash(t, appsHostConfig(map[string]any{"compatRuntime": map[string]any{}})),
		hostConfigHash(t, appsHostConfig(map[string]any{"compatRuntime": map[string]any{"openaiAppsOverrides": map[string]any{"callTool": true}}})); a == b {
		t.Error("openaiAppsOverrides without openaiApps were dropped from the hash")
	}
	// A csp without mode is accepted.
	hostConfigHash(t, appsHostConfig(map[string]any{"sandbox": map[string]any{"csp": map[string]any{"restrictTo": map[string]any{"connectDomains": []any{"https://a.example"}}}}}))
	// A feature token is ^[a-z][a-z0-9-]*$: a trailing hyphen is accepted.
	hostConfigHash(t, appsHostConfig(map[string]any{"sandbox": map[string]any{"allowFeatures": map[string]any{"foo-": "*"}}}))
	// What the service refuses is refused before anything is sent.
	for _, cfg := range []HostConfig{
		hostConfigWith(map[string]any{"mcpProfile": nil}),
		hostConfigWith(map[string]any{"harness": nil}),
		appsHostConfig(map[string]any{"compatRuntime": map[string]any{"openaiAppsOverrides": map[string]any{"callTool": "yes"}}}),
		appsHostConfig(map[string]any{"sandbox": map[string]any{"allowFeatures": map[string]any{"1foo": "*"}}}), // a leading digit
	} {
		if _, err := (RunParams{HostConfig: cfg}).withHostConfigHash(); err == nil || !strings.Contains(err.Error(), "hostConfigV2:") {
			t.Errorf("%v: err = %v", map[string]any(cfg), err)
		}
	}
}
