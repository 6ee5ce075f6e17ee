package edge

import "testing"

// ClampLimit reads a limit as the service's Math.min(Math.max(Number(s) ||
// 50, 1), 200) does (the expected values are Node's).
func TestClampLimitIsJavaScripts(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]int{
		"": 50, " 5 ": 5, "0": 50, "-0": 50, "7": 7, "+5": 5, "0.5": 1, "2.9": 2, "1e3": 200, "-5": 1,
		"Infinity": 200, "-Infinity": 1, "5abc": 50, "NaN": 50, "abc": 50,
		"0x10": 16, "0b101": 5, "0o17": 15, "-0x10": 50, "0x1p4": 50, "infinity": 50, "Inf": 50,
		"1_0": 50, "1e400": 200, "-1e400": 1, "\ufeff5": 5, "\u00855": 50,
	} {
		if got := ClampLimit(raw, 50, 200); got != want {
			t.Errorf("ClampLimit(%q) = %d, the service's %d", raw, got, want)
		}
	}
}
