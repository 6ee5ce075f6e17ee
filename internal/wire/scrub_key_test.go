package wire

import "testing"

// KeyValues finds a key of 8 bytes or more in any spelling, a shorter one
// as written and as a URL path and query escape it (a shorter one in any
// spelling could be part of any word), and an empty key not at all.
func TestKeyValues(t *testing.T) {
	for _, c := range []struct{ key, in, want string }{
		{"sk_live_ABC", "<%73k_live_ABC>", "<K>"},
		{"sk_live_ABC", `<sk\u005flive_ABC>`, "<K>"},
		{"sk_live_ABC", "<sk_live_AB%2543>", "<K>"},
		{"k/ b", "<k/ b> <k%2F%20b> <k%2F+b>", "<K> <K> <K>"},
		{"k/ b", "<%6b/ b>", "<%6b/ b>"},
	} {
		if got := NewScrubber(KeyValues(c.key, "K")).Scrub(c.in); got != c.want {
			t.Errorf("key %q: Scrub(%q) = %q, want %q", c.key, c.in, got, c.want)
		}
	}
	if sc := NewScrubber(KeyValues("", "K")); sc != nil {
		t.Errorf("an empty key gives a scrubber")
	}
}
