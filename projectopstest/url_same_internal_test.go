package projectopstest

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/projectops/projectops-go/internal/wire"
)

// The URLs import-tokens compares name the same server in any case of
// scheme and host, with or without a trailing slash or the tunnel's ?k=
// secret; any other difference is another server.
func TestSameServerURL(t *testing.T) {
	t.Parallel()
	saved := "https://Example.com/mcp?k=S3CRET&x=1"
	for _, tt := range []struct {
		given string
		same  bool
	}{
		{"https://example.com/mcp?k=S3CRET&x=1", true},
		{"HTTPS://EXAMPLE.COM/mcp?x=1&k=REDACTED", true},
		{"https://example.com/mcp/?x=1", false}, // the slash before the query is not trailing
		{"https://example.com/MCP?x=1", false},
		{"https://example.com/mcp?x=2", false},
		{"https://other.example/mcp?x=1", false},
	} {
		if got := sameServerURL(tt.given, saved); got != tt.same {
			t.Errorf("sameServerURL(%q, saved) = %v, want %v", tt.given, got, tt.same)
		}
	}
	// k goes from the query as written: the rest is compared as is,
	// whichever side had it.
	for _, tt := range []struct{ a, b string }{
		{"https://example.com/mcp?y=1&x=1", "https://example.com/mcp?y=1&x=1&k=S3CRET"},
		{"https://example.com/mcp?y=1&x=1&k=REDACTED", "https://example.com/mcp?y=1&x=1"},
		{"https://example.com/mcp?q=a%20b", "https://example.com/mcp?k=S3CRET&q=a%20b"},
	} {
		if !sameServerURL(tt.a, tt.b) {
			t.Errorf("sameServerURL(%q, %q) = false; they differ only in k", tt.a, tt.b)
		}
	}
	if a, b := "https://example.com/mcp?x=1&y=1", "https://example.com/mcp?y=1&x=1"; sameServerURL(a, b) || sameServerURL(a, b+"&k=S") {
		t.Errorf("%q and %q compared equal with or without k", a, b)
	}
	// A URL as the SDK prints it (wire.RedactSecretQuery) names the saved one.
	for _, saved := range []string{
		"https://example.com/mcp?y=1&k=S3CRET&x=1",
		"https://example.com/mcp?k=S3CRET&q=a%20b",
		"https://alice:pw@example.com/mcp?k=S3CRET",
	} {
		if printed := wire.RedactSecretQuery(saved); !sameServerURL(printed, saved) {
			t.Errorf("sameServerURL(%q, %q) = false; the printed URL must name the saved one", printed, saved)
		}
	}
	if !sameServerURL("https://example.com/mcp/", "https://EXAMPLE.com/mcp") {
		t.Error("a trailing slash or the host's case made another server")
	}
	if sameServerURL("http://[::1/a", "http://[::1/b") {
		t.Error("two different unparsable URLs compared equal")
	}
}

// A tunnel's old and new URL are the same endpoint, and the grant has no
// previousUrl, when their WHATWG origin and pathname agree, as the
// service's sameEndpoint compares them: the query (the rotated ?k= secret
// and any other), the fragment, userinfo and a scheme's default port
// written out make no difference; the path is compared as written.
func TestSameTunnelEndpoint(t *testing.T) {
	t.Parallel()
	const grant = "http://projectops.test/tunnels/t1/api/mcp/adapter-http/srv_1?k=new"
	for _, tt := range []struct {
		old  string
		same bool
	}{
		{"http://projectops.test/tunnels/t1/api/mcp/adapter-http/srv_1?k=old", true},
		{"http://projectops.test:80/tunnels/t1/api/mcp/adapter-http/srv_1?k=old", true},
		{"http://projectops.test:080/tunnels/t1/api/mcp/adapter-http/srv_1", true},
		{"HTTP://ProjectOps.TEST/tunnels/t1/api/mcp/adapter-http/srv_1", true},
		{"http://projectops.test/tunnels/t1/api/mcp/adapter-http/srv_1?k=old&x=1#frag", true},
		{"http://alice:pw@projectops.test/tunnels/t1/api/mcp/adapter-http/srv_1", true},
		{"http://projectops.test/tunnels/t1/api/x/../mcp/adapter-http/srv_1", true},
		{"http://projectops.test:8080/tunnels/t1/api/mcp/adapter-http/srv_1?k=old", false},
		{"https://projectops.test/tunnels/t1/api/mcp/adapter-http/srv_1?k=old", false},
		{"http://projectops.test:443/tunnels/t1/api/mcp/adapter-http/srv_1", false},
		{"http://127.0.0.1:80/tunnels/t1/api/mcp/adapter-http/srv_1", false},
		{"http://projectops.test/tunnels/t1/api/mcp/adapter-http/srv_1/", false},
		{"http://projectops.test/tunnels/t1/api/mcp/adapter-http/SRV_1", false},
		{"http://projectops.test/tunnels/t1/api/mcp/adapter-http/srv%5F1", false}, // an escape is not decoded
		{"ftp://projectops.test/tunnels/t1/api/mcp/adapter-http/srv_1", false},
		{"not a url", false},
	} {
		if got := sameTunnelURL(tt.old, grant); got != tt.same {
			t.Errorf("sameTunnelURL(%q, grant) = %v, want %v", tt.old, got, tt.same)
		}
	}
	for _, tt := range []struct{ a, b string }{
		{"https://h.example:443", "https://h.example/"},
		{"https://h.example/a b", "https://h.example/a%20b"},
		{"https://[::1]:443/mcp", "https://[::1]/mcp"},
		{"unparsable %", "unparsable %"},
	} {
		if !sameTunnelURL(tt.a, tt.b) {
			t.Errorf("sameTunnelURL(%q, %q) = false, want true", tt.a, tt.b)
		}
	}
}

// sameTunnelURL answers as the service's sameEndpoint does under Node 20
// for each pair of testdata/tunnel_url_pairs.json, which
// testdata/tunnel_url_pairs.js generated with Node's WHATWG URL (run it
// again with node to extend the table). The pairs it answers otherwise are
// the divergences endpointKey and sameTunnelURL document, each listed
// here: an IDN host left out of punycode form, and schemes other than
// http(s), compared as text (never the grant's scheme).
func TestSameTunnelURLMatchesWHATWG(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/tunnel_url_pairs.json")
	if err != nil {
		t.Fatal(err)
	}
	var pairs []struct {
		A, B string
		Same bool
	}
	if err := json.Unmarshal(b, &pairs); err != nil {
		t.Fatal(err)
	}
	diverges := map[[2]string]bool{
		{"http://bücher.example/", "http://xn--bcher-kva.example/"}: true,
		{"mailto:a", "mailto:a?x"}:                                  true,
		{"foo://a/x?q", "foo://b/x"}:                                true,
	}
	for _, p := range pairs {
		want := p.Same
		if diverges[[2]string{p.A, p.B}] {
			want = !want
		}
		if got := sameTunnelURL(p.A, p.B); got != want {
			ka, _ := endpointKey(p.A)
			kb, _ := endpointKey(p.B)
			t.Errorf("sameTunnelURL(%q, %q) = %v, want %v (WHATWG %v; keys %q %q)", p.A, p.B, got, want, p.Same, ka, kb)
		}
	}
}
