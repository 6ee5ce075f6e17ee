package projectopstest

import (
	"strings"
	"testing"
)

// FuzzShownPath: whatever surrounds a key-shaped segment (invalid UTF-8,
// runes whose lower case has another length), shownPath never panics and
// never shows the key, and a path with no "sk_" (any case) and no upload
// token is shown unchanged.
func FuzzShownPath(f *testing.F) {
	for _, seed := range []struct{ before, after string }{
		{"/api/v1/x", "y"},
		{"/api/v1/x/" + strings.Repeat("\xff", 20), ""},
		{"/api/v1/x/İİİ", "y"},
		{"/api/v1/x/ẞẞ", ""},
		{"/api/v1/x/\u212a\u212a\u212a\u212a", "y"}, // the Kelvin sign
		{"\xc4", "\xff\xfe"},
		{"/task_runner/DISK_1/ſ", "risk_x"},
		{"/eval-ingest-uploads", "tok"},
	} {
		f.Add(seed.before, seed.after)
	}
	const tail = "SEKRITSEKRITSEKRIT"
	f.Fuzz(func(t *testing.T, before, after string) {
		if strings.Contains(before+after, "SEKRIT") {
			t.Skip()
		}
		for _, p := range []string{before + "/sk_" + tail + "/" + after, before + "/SK_" + tail, before + "=sK_" + tail + "/" + after} {
			if got := shownPath(p); strings.Contains(got, "SEKRIT") {
				t.Errorf("shownPath(%q) = %q shows the key", p, got)
			}
		}
		p := before + "/" + after
		if !strings.Contains(strings.ToLower(p), "sk_") && !strings.Contains(p, "eval-ingest-uploads") {
			if got := shownPath(p); got != p {
				t.Errorf("shownPath(%q) = %q, want it unchanged", p, got)
			}
		}
	})
}
