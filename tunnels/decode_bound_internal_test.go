package tunnels

import (
	"strings"
	"testing"
)

// nestedPercent is "%" followed by n "25"s: decoded once per level, it
// takes n passes to reach a lone "%", each a copy of what is left.
func nestedPercent(n int) string { return "%" + strings.Repeat("25", n) }

// withoutSecret and redactReferer run on every relayed request: a part
// nested in %25 escapes is decoded a bounded number of times (not once
// per level, quadratic in its length), and what is still encoded after
// that is read as suspect: dropped from the query, redacted from the
// Referer. Ordinary escapes, nested up to the bound, are kept.
func TestWithoutSecretBoundsDecodingOfNestedEscapes(t *testing.T) {
	const sec = "sk0123456789abcdef"
	deep := "a=" + nestedPercent(2048)
	allocs := testing.AllocsPerRun(5, func() {
		_ = withoutSecret("k="+sec+"&"+deep, sec)
		_ = redactReferer("https://x.test/p?"+deep, sec)
	})
	if allocs > 30 {
		t.Errorf("withoutSecret+redactReferer on a %d-byte nested-%%25 part: %v allocations, want a bounded few (one copy per nesting level is quadratic)", len(deep), allocs)
	}
	for _, c := range []struct{ raw, want string }{
		{"k=" + sec + "&" + deep + "&b=2", "b=2"},
		{"k=" + sec + "&a=" + nestedPercent(maxDecodes+1) + "41&b=2", "b=2"},
		{"k=" + sec + "&a=100" + nestedPercent(maxDecodes-1) + "41&b=2", "a=100" + nestedPercent(maxDecodes-1) + "41&b=2"},
		{"k=" + sec + "&a=100%25off&b=%2F", "a=100%25off&b=%2F"},
	} {
		if got := withoutSecret(c.raw, sec); got != c.want {
			t.Errorf("withoutSecret(%.60q…) = %.60q, want %.60q", c.raw, got, c.want)
		}
	}
	if got := redactReferer("https://x.test/p?"+deep, sec); got != "https://x.test/p" {
		t.Errorf("redactReferer with a deeply nested query = %.60q, want its origin and path", got)
	}
	if got := redactReferer("https://x.test/p?q=100%25off", sec); got != "https://x.test/p?q=100%25off" {
		t.Errorf("redactReferer of an ordinary Referer = %q, want it unchanged", got)
	}
}

// exposedOnly's stillEncoded decodes a path a bounded number of times too:
// one nested deeper than that is refused, not decoded once per level.
func TestStillEncodedBoundsDecodingOfNestedEscapes(t *testing.T) {
	deep := "/mcp/a" + nestedPercent(2048)
	allocs := testing.AllocsPerRun(5, func() { _ = stillEncoded(deep) })
	if allocs > 10 {
		t.Errorf("stillEncoded on a %d-byte nested-%%25 path: %v allocations, want a bounded few", len(deep), allocs)
	}
	if !stillEncoded(deep) {
		t.Errorf("stillEncoded(%.40q…) = false, want a path nested past the bound refused", deep)
	}
	for _, c := range []struct {
		p    string
		want bool
	}{
		{"/mcp/100%off", false},
		{"/mcp/a" + nestedPercent(maxDecodes-1) + "41", false},
		{"/mcp/a" + nestedPercent(maxDecodes) + "41", true},
		{"/mcp/a%2Fb", true},
		{"/mcp/%252e%252e", true},
	} {
		if got := stillEncoded(c.p); got != c.want {
			t.Errorf("stillEncoded(%q) = %v, want %v", c.p, got, c.want)
		}
	}
}
