package hostconfig

import (
	"encoding/json"
	"testing"
)

// refusal is the error Canonicalize gives a minimal config with the
// mcpProfile JSON profile, or "" when it accepts it.
func refusal(t *testing.T, profile string) string {
	t.Helper()
	var in map[string]any
	if err := json.Unmarshal([]byte(`{`+base+`,"connectionDefaults":{"headers":{},"requestTimeout":10000},"mcpProfile":`+profile+`}`), &in); err != nil {
		t.Fatalf("%s: %v", profile, err)
	}
	if _, err := Canonicalize(in); err != nil {
		return err.Error()
	}
	return ""
}

// With several bad keys the service reports the first in
// Object.keys(...).sort() order (UTF-16 code units, so "😀" before
// "\uffff"), and so must the double, on every run.
func TestSeveralBadKeysReportTheServicesFirst(t *testing.T) {
	t.Parallel()
	const sb = `{"profileVersion":1,"apps":{"sandbox":`
	for _, tt := range []struct{ profile, want string }{
		{sb + `{"allowFeatures":{"zz":1,"mm":"a;b","Bad":"*","aa":2}}}}`,
			"hostConfigV2: mcpProfile.apps.sandbox.allowFeatures.Bad: keys are lowercase kebab-case Permissions Policy tokens"},
		{sb + `{"allowFeatures":{"zz":1,"mm":"a;b","camera":1,"gg":2}}}}`,
			"hostConfigV2: mcpProfile.apps.sandbox.allowFeatures.gg must be a string without ; or ,"},
		{sb + `{"csp":{"cspDirectives":{"script-src":1,"frame-src":"x","img-src":[1]}}}}}`,
			"hostConfigV2: mcpProfile.apps.sandbox.csp.cspDirectives.frame-src must be an array of strings"},
		{sb + `{"csp":{"cspDirectives":{"script-src":["a"],"Z":["a"],"9":["a"],"10":["a"]}}}}}`,
			"hostConfigV2: mcpProfile.apps.sandbox.csp.cspDirectives.10: directive names are lowercase kebab-case"},
		{sb + `{"permissions":{"allow":{"microphone":1,"geolocation":"yes","camera":true,"clipboard-write":0}}}}}`,
			"hostConfigV2: mcpProfile.apps.sandbox.permissions.allow.clipboard-write must be a boolean"},
		{sb + `{"permissions":{"allow":{"\uffff":1,"😀":1}}}}}`,
			"hostConfigV2: mcpProfile.apps.sandbox.permissions.allow.😀 must be a boolean"},
	} {
		for range 30 {
			if got := refusal(t, tt.profile); got != tt.want {
				t.Errorf("%s:\n got %q\nwant %q", tt.profile, got, tt.want)
				break
			}
		}
	}
}

// csp.extensions and permissions.extensions are plain objects when present.
func TestSandboxExtensionsArePlainObjects(t *testing.T) {
	t.Parallel()
	for _, block := range []string{"csp", "permissions"} {
		want := "hostConfigV2: mcpProfile.apps.sandbox." + block + ".extensions must be a plain object"
		for _, ext := range []string{`[]`, `5`, `"x"`, `null`, `true`} {
			profile := `{"profileVersion":1,"apps":{"sandbox":{"` + block + `":{"extensions":` + ext + `}}}}`
			if got := refusal(t, profile); got != want {
				t.Errorf("%s:\n got %q\nwant %q", profile, got, want)
			}
		}
		profile := `{"profileVersion":1,"apps":{"sandbox":{"` + block + `":{"extensions":{"io.example/x":[1]}}}}}`
		if got := refusal(t, profile); got != "" {
			t.Errorf("%s: %s", profile, got)
		}
	}
}

// With errors in two sections the service reports the one it checks first:
// in the profile apps before extensions; in apps the sandbox, then
// uiInitialize, compatRuntime and mcpAppsOverrides; in the sandbox csp
// (mode, restrictTo, cspDirectives, extensions), then permissions (mode,
// allow, extensions), sandboxAttrs and allowFeatures.
func TestTwoBadSectionsReportTheServicesFirst(t *testing.T) {
	t.Parallel()
	const p = "hostConfigV2: mcpProfile."
	for _, tt := range []struct{ profile, want string }{
		{`{"profileVersion":1,"extensions":[],"apps":5}`, p + "apps must be a plain object"},
		{`{"profileVersion":1,"extensions":[],"apps":{"sandbox":5}}`, p + "apps.sandbox must be a plain object"},
		{`{"profileVersion":1,"apps":{"uiInitialize":5,"sandbox":5}}`, p + "apps.sandbox must be a plain object"},
		{`{"profileVersion":1,"apps":{"compatRuntime":5,"sandbox":5}}`, p + "apps.sandbox must be a plain object"},
		{`{"profileVersion":1,"apps":{"mcpAppsOverrides":5,"compatRuntime":5,"uiInitialize":5}}`, p + "apps.uiInitialize must be a plain object"},
		{`{"profileVersion":1,"apps":{"mcpAppsOverrides":5,"compatRuntime":5}}`, p + "apps.compatRuntime must be a plain object"},
		{`{"profileVersion":1,"apps":{"mcpAppsOverrides":5,"sandbox":{"allowFeatures":5}}}`, p + "apps.sandbox.allowFeatures must be a plain object"},
		{`{"profileVersion":1,"apps":{"sandbox":{"permissions":5,"csp":{"extensions":[],"cspDirectives":5}}}}`,
			p + "apps.sandbox.csp.cspDirectives must be a plain object"},
		{`{"profileVersion":1,"apps":{"sandbox":{"permissions":5,"csp":{"extensions":[]}}}}`, p + "apps.sandbox.csp.extensions must be a plain object"},
		{`{"profileVersion":1,"apps":{"sandbox":{"allowFeatures":5,"sandboxAttrs":5,"permissions":{"extensions":[],"allow":5}}}}`,
			p + "apps.sandbox.permissions.allow must be a plain object"},
		{`{"profileVersion":1,"apps":{"sandbox":{"allowFeatures":5,"permissions":{"extensions":[]}}}}`,
			p + "apps.sandbox.permissions.extensions must be a plain object"},
	} {
		if got := refusal(t, tt.profile); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.profile, got, tt.want)
		}
	}
}
