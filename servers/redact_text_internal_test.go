package servers

import "testing"

// A userinfo password in free text is replaced wherever a URL quotes one,
// up to the userinfo's last '@', and nothing else is touched.
func TestRedactURLPasswords(t *testing.T) {
	for in, want := range map[string]string{
		"no URL here": "no URL here",
		"mail a@b.example, see https://h.example/x":   "mail a@b.example, see https://h.example/x",
		"at https://user:pw@h.example/x.":             "at https://user:REDACTED@h.example/x.",
		"https://u:p@ss@h.example/x":                  "https://u:REDACTED@h.example/x",
		"https://user@h.example/x (no password)":      "https://user@h.example/x (no password)",
		"https://h.example:8443/x?to=a@b":             "https://h.example:8443/x?to=a@b",
		"two: http://a:1x@h/ and wss://b:2y@[::1]:9/": "two: http://a:REDACTED@h/ and wss://b:REDACTED@[::1]:9/",
		`"https://u:pw@h" quoted`:                     `"https://u:REDACTED@h" quoted`,
		"already https://u:REDACTED@h.example/x":      "already https://u:REDACTED@h.example/x",
		"trailing https://":                           "trailing https://",
	} {
		if got := redactURLPasswords(in); got != want {
			t.Errorf("redactURLPasswords(%q) = %q, want %q", in, got, want)
		}
	}
}
