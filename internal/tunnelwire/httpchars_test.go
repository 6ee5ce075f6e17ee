package tunnelwire

import (
	"net/http"
	"testing"
)

// The rules are Node's http: a method and header names are tokens, header
// values are tab, 20–7e and 80–ff, a path is 21–ff.
func TestValidReqAndHeader(t *testing.T) {
	t.Parallel()
	var printable []byte
	for c := 0x20; c < 0x100; c++ {
		if c != 0x7f {
			printable = append(printable, byte(c))
		}
	}
	for _, tc := range []struct {
		method, url string
		h           http.Header
		want        bool
	}{
		{"GET", "/p?q=caf\xc3\xa9\xff", http.Header{"X-V": {"\t" + string(printable)}}, true},
		{"", "", nil, true}, // Node sends GET /
		{"M-SEARCH", "/\x7f", http.Header{"X-!#$%&'*+-.^_`|~": {""}}, true},
		{"GET ", "/", nil, false},
		{"G\xe9T", "/", nil, false},
		{"GET", "/a b", nil, false},
		{"GET", "/a\tb", nil, false},
		{"GET", "/a\x00", nil, false},
		{"GET", "/", http.Header{"X-V": {"a\r\nX-Injected: 1"}}, false},
		{"GET", "/", http.Header{"X-V": {"ok", "a\x00b"}}, false},
		{"GET", "/", http.Header{"X-V": {"a\x7fb"}}, false},
		{"GET", "/", http.Header{"X-\xe9": {"v"}}, false},
		{"GET", "/", http.Header{"X r": {"v"}}, false},
		{"GET", "/", http.Header{"": {"v"}}, false},
		{"GET", "/", http.Header{"X:y": {"v"}}, false},
	} {
		if got := ValidReq(tc.method, tc.url, tc.h); got != tc.want {
			t.Errorf("ValidReq(%q, %q, %q) = %v, want %v", tc.method, tc.url, tc.h, got, tc.want)
		}
		if tc.method == "GET" && tc.url == "/" && ValidHeader(tc.h) != tc.want {
			t.Errorf("ValidHeader(%q) = %v, want %v", tc.h, !tc.want, tc.want)
		}
	}
}
