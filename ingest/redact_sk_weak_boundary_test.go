package ingest

import (
	"strings"
	"testing"
)

// The service's keys are "sk_" + 43 base64url characters (projectopstest
// newKeySecret); about 1 in 1500 holds no digit. After '_' (go test's
// subtest name, an env-style identifier) such a key is now kept whole,
// where 7f6be3e redacted it: a 46-character random token is no snake_case
// word, yet the "a digit" condition lets it through.
func TestSKWeakBoundaryDigitlessRealKey(t *testing.T) {
	key := "sk_AbCdEfGhIjKlMnOpQrStUvWxYz-_AbCdEfGhIjKlMnO" // 3+43, base64url, no digit
	if len(key) != 46 {
		t.Fatalf("len %d", len(key))
	}
	for _, in := range []string{
		"--- FAIL: TestUpload/key_" + key + " (0.00s)",
		"STRIPE_KEY_" + key,
		`{"name":"TestX/with_` + key + `"}`,
	} {
		if got := string(redactor{}.text(in)); strings.Contains(got, key[3:]) {
			t.Errorf("key after '_' kept:\n in  %q\n out %q", in, got)
		}
	}
}

// After '_' a key needs 16+ characters and an uppercase letter, a digit or
// '-' after "sk_", or 40+ characters whatever they are; snake_case words
// shorter than that are kept.
func TestSKWeakBoundaryMarksAndLongRuns(t *testing.T) {
	for _, key := range []string{
		"sk_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnop", // 46, all lowercase and '_'
		"sk_abcdefghijkl-mn", "sk_abcdefghijklMn", "sk_test_SECRET123", "sk_demo_admin_0001",
	} {
		for _, in := range []string{"TestX/key_" + key, "API_KEY_" + key + " x", `{"n":"with_` + key + `"}`} {
			if got := string(redactor{}.text(in)); strings.Contains(got, key[3:]) {
				t.Errorf("key after '_' kept:\n in  %q\n out %q", in, got)
			}
		}
	}
	for _, in := range []string{"TestCfg/use_sk_prefix_for_keys", "task_sk_items_list_long",
		"TestX/disk_sk_backup_for_tenants_and_owners", "mask_sk_prefix_override_value"} {
		if got := string(redactor{}.text(in)); got != in {
			t.Errorf("snake_case word redacted: %q -> %q", in, got)
		}
	}
}
