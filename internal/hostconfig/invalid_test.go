package hostconfig

import "testing"

func TestInvalidNamesTheField(t *testing.T) {
	for msg, want := range map[string]string{
		"temperature must be finite":                                       "temperature",
		"connectionDefaults.headers.X-Api-Key must be a string":            "connectionDefaults.headers.X-Api-Key",
		"mcpProfile.apps.sandbox.csp.cspDirectives.Bad: directive names":   "mcpProfile.apps.sandbox.csp.cspDirectives.Bad",
		"ConflictingProtocolVersionPin: mcpProfile.mcpProtocolVersion x y": "mcpProfile.mcpProtocolVersion",
	} {
		if got := (&Invalid{msg}).Field(); got != want {
			t.Errorf("Field(%q) = %q, want %q", msg, got, want)
		}
	}
}
