package ingest

import (
	"strings"
	"testing"
)

// 5c916c4: with '_' a boundary, ordinary snake_case words holding "_sk_"
// and 8 more word characters are redacted; go test subtest names are
// such words, so two distinct subtests are reported under one title
// (the old \bsk_ rule kept both).
func TestSKUnderscoreKeepsSubtestNames(t *testing.T) {
	var svc *Service
	a, b := "TestCfg/use_sk_prefix_for_keys", "TestCfg/use_sk_prefix_for_names"
	ra, rb := svc.RedactText(a), svc.RedactText(b)
	if ra == rb {
		t.Errorf("distinct subtests %q and %q both redact to %q", a, b, ra)
	}
	for _, s := range []string{a, b, "TestX/disk_sk_backup_for_tenants", "mask_sk_prefix_override_value"} {
		if got := svc.RedactText(s); got != s {
			t.Errorf("RedactText(%q) = %q, want it kept", s, got)
		}
	}
}

// The keys this project's tests and seeds use (digits in all but one, 16
// or more characters), and a random key's shape, are redacted in every
// position: after '_' (a subtest's name, an identifier), after a space,
// '/', '=', a line break, a JSON escape, and at the start.
func TestSKKeyShapesRedactedEverywhere(t *testing.T) {
	var svc *Service
	for _, key := range []string{"sk_test_SECRET123", "sk_seed_env_0000000000", "sk_test_0000000000",
		"sk_live_ABCDEF1234567890abcdef", "sk_demo_owner_0000000000000000", "sk_demo_admin_0001",
		"sk_live_SECRET123", "sk_Qm9vYmFyYmF6cXV4eHl6enkxMjM0NTY3ODkwYWJjZGVm"} {
		for _, s := range []string{key, "TestX/key_" + key, "TestX/key_" + key + "_more", "x " + key, "/v1/" + key + "/x",
			"k=" + key, "line\n" + key, "<" + key + ">", "API_KEY_" + key} {
			if got := svc.RedactText(s); strings.Contains(got, key[3:]) {
				t.Errorf("RedactText(%q) = %q: the key survives", s, got)
			}
			doc := []byte(`{"e":` + string(encodeString(s)) + `}`)
			if got := string(svc.RedactJSON(doc)); strings.Contains(got, key[3:]) {
				t.Errorf("RedactJSON(%s) = %s: the key survives", doc, got)
			}
		}
	}
}
