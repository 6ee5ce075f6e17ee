package tunnels

import (
	"context"
	"net/http"
	"net/url"
	"testing"
)

// A relayed request's URL reads as url.ParseRequestURI reads its
// origin-form target, whichever way newServerRequest builds it.
func TestNewServerRequestReadsAsParseRequestURI(t *testing.T) {
	t.Parallel()
	for _, uri := range []string{
		"/", "/mcp", "/mcp?x=1&k=2", "/a%20b/c?q=%2F", "//x/mcp", "///mcp", "/mcp#frag", "/a#b?c",
		"/%2e%2e/x", "/a:b", "/mcp?", "/caf%C3%A9", "*",
	} {
		want, werr := url.ParseRequestURI(uri)
		req, err := newServerRequest(context.Background(), http.MethodPost, uri, http.NoBody)
		if (err != nil) != (werr != nil) {
			t.Errorf("%q: err %v, ParseRequestURI's %v", uri, err, werr)
			continue
		}
		if err != nil {
			continue
		}
		got, w := *req.URL, *want
		if got.User.String() != w.User.String() {
			t.Errorf("%q: userinfo %v, want %v", uri, got.User, w.User)
		}
		got.User, w.User = nil, nil // pointers: compared by what they hold above
		if got != w {
			t.Errorf("%q: URL %#v, want %#v", uri, got, w)
		}
	}
	for _, uri := range []string{"/a%zz", "/a\x7f", "/a\nb"} {
		if _, err := newServerRequest(context.Background(), http.MethodGet, uri, nil); err == nil {
			t.Errorf("%q: no error", uri)
		}
	}
}

// withoutSecret drops k however encoded and any part carrying the known
// secret, under any name or spelling; a host that does not know its secret
// drops K by name too.
func TestWithoutSecretDropsSecretSpellings(t *testing.T) {
	t.Parallel()
	const sec = "s3cretS3cretS3cret"
	for _, c := range []struct{ raw, secret, want string }{
		{"k=" + sec, sec, ""},
		{"k=" + sec + "&K=" + sec + "&a=1", sec, "a=1"},
		{"%6B=x&%4b=" + sec + "&b=2", sec, "b=2"},
		{"k=" + sec + "&t=%73" + sec[1:], sec, ""},
		{"k=" + sec + "&t=%2573" + sec[1:], sec, ""},
		{"k=" + sec + "&K=mine&kk=1", sec, "K=mine&kk=1"},
		{"k=" + sec + "&K=mine&kk=1", "", "kk=1"},
		{"k=x&%4B=y&a=1", "", "a=1"},
		// ';' separates parts too: the rest of the part is kept.
		{"k=" + sec + "&a=1;K=" + sec + "&b=2", sec, "a=1&b=2"},
		{"a=1;k=x;c=3&b=2", "", "a=1;c=3&b=2"},
		{"a=1;t=%73" + sec[1:] + ";;c=3", sec, "a=1;;c=3"},
		{"k=" + sec + "&;", sec, ";"},
		{"k=" + sec + ";;&b=2", sec, "b=2"},
	} {
		if got := withoutSecret(c.raw, c.secret); got != c.want {
			t.Errorf("withoutSecret(%q, %q) = %q, want %q", c.raw, c.secret, got, c.want)
		}
	}
	if got := grantSecret(&Grant{URL: "https://x/p?a=1&k=" + sec}); got != sec {
		t.Errorf("grantSecret: %q", got)
	}
	if got := grantSecret(&Grant{URL: "https://x/p?k=short"}); got != "" {
		t.Errorf("grantSecret of a short secret: %q, want none", got)
	}
}

// A query, or the rest of one, that carries no secret reaches the handler
// byte for byte: empty parts and a trailing '&' or ';' are kept, and a
// ';' inside a value is not read as a separator unless a sub-part after
// it carries the known secret (a server that does not split on ';' reads
// sql=select+1;k=2 as one value). Only a host that does not know its
// secret drops a k sub-part by name.
func TestWithoutSecretKeepsQueryAsWritten(t *testing.T) {
	t.Parallel()
	const sec = "s3cretS3cretS3cret"
	for _, q := range []string{
		"a=1;;b=2",
		"q=x;",
		";a=1",
		";",
		"a=1&&b=2",
		"a=1&",
		"&a=1",
		"q=100%25",
		"q=%2525",
		"v=%252541",
		"sql=select+1;k=2",
		"sql=select+1;K=2;;",
	} {
		if got := withoutSecret(q, sec); got != q {
			t.Errorf("withoutSecret(%q, secret) = %q, want it unchanged", q, got)
		}
		if got := withoutSecret("k="+sec+"&"+q, sec); got != q {
			t.Errorf("withoutSecret(k=secret&%q, secret) = %q, want %q", q, got, q)
		}
	}
	for _, c := range []struct{ raw, secret, want string }{
		{"sql=select+1;t=" + sec + ";;x=1", sec, "sql=select+1;;x=1"},
		{"q=x;" + sec + ";", sec, "q=x;"},
		{"a=1;;k=x;", "", "a=1;;"},
		{";a=1;K=x&b=2;", "", ";a=1&b=2;"},
		{"a=1;;b=2&q=x;&k=x", "", "a=1;;b=2&q=x;"},
	} {
		if got := withoutSecret(c.raw, c.secret); got != c.want {
			t.Errorf("withoutSecret(%q, %q) = %q, want %q", c.raw, c.secret, got, c.want)
		}
	}
}
