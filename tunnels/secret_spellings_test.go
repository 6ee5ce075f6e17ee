package tunnels_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/tunnels"
)

// seenRequest is what a handler was given.
type seenRequest struct {
	rawQuery, referer string
}

// recordRequests answers ok and sends what it saw on seen.
func recordRequests(seen chan<- seenRequest) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- seenRequest{rawQuery: r.URL.RawQuery, referer: r.Header.Get("Referer")}
		_, _ = io.WriteString(w, "ok")
	})
}

// publicBase is g's public URL without its query.
func publicBase(g *tunnels.Grant) string { return strings.SplitN(g.URL, "?", 2)[0] }

// encodeFirst percent-encodes the first byte of s, a spelling of s that
// any server decodes back to s.
func encodeFirst(s string) string { return fmt.Sprintf("%%%02X", s[0]) + s[1:] }

// masked is s with the secret k, and its tail (what encodeFirst leaves
// verbatim), shown as SECRET.
func masked(s, k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, k, "SECRET"), k[1:], "SECRET")
}

// The relay reads the secret from k alone; a caller that repeats it under
// another name (K, %4B, any name, or percent-encoded) still never hands
// it to the handler, while a K of the caller's own reaches it.
func TestSecretUnderAnotherNameNeverReachesHandler(t *testing.T) {
	f := setup(t)
	g := create(t, f, "spellings")
	k := secretOf(t, g)
	seen := make(chan seenRequest, 1)
	serve(t, f, g, recordRequests(seen))
	for _, c := range []struct{ q, want string }{
		{"k=" + k + "&K=" + k, ""},
		{"k=" + k + "&%4B=" + k + "&a=1", "a=1"},
		{"k=" + k + "&%4b=" + k, ""},
		{"k=" + k + "&token=" + k, ""},
		{"k=" + k + "&K=" + encodeFirst(k), ""},
		{"k=" + k + "&K=" + url.QueryEscape(encodeFirst(k)), ""},
		{"k=" + k + "&next=" + url.QueryEscape(publicBase(g)+"?k="+k), ""},
		{"k=" + k + "&K=mine&b=2", "K=mine&b=2"},
	} {
		st, body := get(t, f, http.MethodGet, publicBase(g)+"?"+c.q, "")
		if st != http.StatusOK {
			t.Errorf("%s: %d %q", tunnels.RedactURL("?"+c.q), st, body)
			continue
		}
		if s := <-seen; s.rawQuery != c.want {
			t.Errorf("query %q: handler saw %q, want %q", masked(c.q, k), masked(s.rawQuery, k), c.want)
		}
	}
}

// A Referer naming the public URL never shows the handler the secret,
// however the URL spells it.
func TestRefererNeverShowsSecret(t *testing.T) {
	f := setup(t)
	g := create(t, f, "spellings")
	k := secretOf(t, g)
	seen := make(chan seenRequest, 1)
	serve(t, f, g, recordRequests(seen))
	pub := publicBase(g)
	for _, ref := range []string{
		g.URL,
		g.URL + "#frag",
		pub + "?k=" + k + "&k=" + k,
		pub + "?x=1&%6b=" + k,
		pub + "?K=" + k,
		pub + "/sub/path?k=" + k,
		strings.ToUpper(pub[:4]) + pub[4:] + "?k=" + k,
		pub + "?k=" + k + ";x=1",
		pub + "?k%3D" + k,
		pub + "?k%3d" + k + "&x=1",
		pub + "?token=" + k,
		pub + "?token=" + encodeFirst(k) + "&x=1",
		pub + "?k=" + url.QueryEscape(encodeFirst(k)),
		pub + "#k=" + encodeFirst(k),
		pub + "/" + encodeFirst(k),
		"/relative?k=" + k,
		"android-app://x/?k=" + k,
		"not a url ?k=" + k,
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Referer", ref)
		resp, err := f.Srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d", resp.StatusCode)
			continue
		}
		s := <-seen
		if got := s.referer; strings.Contains(got, k) || strings.Contains(got, k[1:]) || got == "" {
			t.Errorf("Referer %q reached the handler as %q", masked(ref, k), masked(got, k))
		}
	}
	// A Referer without the secret is left as it was.
	ref := pub + "?x=1&next=%2Fa"
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
	req.Header.Set("Referer", ref)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if s := <-seen; s.referer != ref {
		t.Errorf("Referer %q reached the handler as %q", ref, s.referer)
	}
}
