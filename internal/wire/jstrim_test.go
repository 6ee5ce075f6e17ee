package wire

import "testing"

func TestTrimJS(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"  a b \t\n": "a b", "\ufeffbom": "bom", "nel\u0085": "nel\u0085", "\u00a0x\u2028": "x", "\u3000": "", "": "",
	} {
		if got := TrimJS(in); got != want {
			t.Errorf("TrimJS(%q) = %q, want %q", in, got, want)
		}
	}
}
