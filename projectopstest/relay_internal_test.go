package projectopstest

import (
	"net/url"
	"testing"
)

// tunnelQuery's shortcut for a query that is the secret alone splits it as
// url.ParseQuery does.
func TestTunnelQuery(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"", "k=abc", "k=a=b", "k=", "k=a%2Fb", "k=a+b", "k=a&x=1", "x=1&k=a", "k=a;x=1",
		"k=a&k=b", "kk=a", "x=2&y=1"} {
		q, _ := url.ParseQuery(raw)
		wantK := q.Get("k")
		q.Del("k")
		k, rest := tunnelQuery(raw)
		if k != wantK || rest != q.Encode() {
			t.Errorf("tunnelQuery(%q) = %q, %q; want %q, %q", raw, k, rest, wantK, q.Encode())
		}
	}
}
