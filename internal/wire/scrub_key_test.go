package wire

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

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

// A key holding what URLs and JSON escape (space, '/', '+', '=', '?', '&',
// '#', quotes, '\\', '<', non-ASCII) is found as written, path- and
// query-escaped, twice query-escaped and with lower-case hex, by Scrub and
// by ScrubRaw, which keeps the document JSON and its code.
func TestKeyValuesURLSpecialCharacters(t *testing.T) {
	for _, key := range []string{"sk_live a/b+c=d?e&f#g", `sk_"q"\x<y>&z`, "sk_live_ÄÖü😀xyz"} {
		sc := NewScrubber(KeyValues(key, "K"))
		for _, sp := range []string{key, url.PathEscape(key), url.QueryEscape(key), url.QueryEscape(url.QueryEscape(key)), strings.ToLower(url.QueryEscape(key))} {
			if got := sc.Scrub("<" + sp + ">"); got != "<K>" {
				t.Errorf("key %q spelt %q: Scrub gives %q", key, sp, got)
			}
			js, _ := json.Marshal(map[string]string{"code": "X", "m": "<" + sp + ">"})
			if got := sc.ScrubRaw(string(js)); !json.Valid([]byte(got)) || !strings.Contains(got, `"code":"X"`) || strings.Contains(got, "xyz") || strings.Contains(got, "live") {
				t.Errorf("key %q spelt %q: ScrubRaw gives %s", key, sp, got)
			}
		}
	}
}
