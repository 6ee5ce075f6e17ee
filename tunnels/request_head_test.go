package tunnels_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"
)

// A relayed head reaches the handler as net/http's server would give it:
// Host moves into r.Host (the X-Forwarded-Host the edge sets still wins,
// as the public host) and is never in r.Header, Transfer-Encoding moves
// into r.TransferEncoding (the length then unknown), and the other
// hop-by-hop headers (Connection, Keep-Alive, Te, Upgrade) stay in
// r.Header. The relayed Host stayed in r.Header, and r.Host was "" with no
// X-Forwarded-Host.
func TestRelayedHeadMatchesNetHTTP(t *testing.T) {
	t.Parallel()
	f := setup(t)
	seen := make(chan string, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		seen <- fmt.Sprintf("host %q %q te %q %q len %d %q conn %q %q %q %q body %q %v", r.Host, r.Header["Host"],
			r.TransferEncoding, r.Header["Transfer-Encoding"], r.ContentLength, r.Header["Content-Length"],
			r.Header.Get("Connection"), r.Header.Get("Keep-Alive"), r.Header.Get("Te"), r.Header.Get("Upgrade"), b, err)
	})
	hop := func() http.Header {
		return http.Header{"host": {"slug0001.tunnels.example"}, "Connection": {"keep-alive, Upgrade"},
			"Keep-Alive": {"timeout=5"}, "Te": {"trailers"}, "Upgrade": {"foo"}}
	}
	const conn = `conn "keep-alive, Upgrade" "timeout=5" "trailers" "foo"`
	for _, tc := range []struct {
		name string
		hdr  http.Header
		body []byte
		want string
	}{
		{"host", hop(), nil,
			`host "slug0001.tunnels.example" [] te [] [] len 0 [] ` + conn + ` body "" <nil>`},
		{"forwarded host wins", func() http.Header {
			h := hop()
			h.Set("X-Forwarded-Host", "public.example")
			return h
		}(), nil, `host "public.example" [] te [] [] len 0 [] ` + conn + ` body "" <nil>`},
		{"chunked", func() http.Header {
			h := hop()
			h["transfer-encoding"] = []string{"Chunked"} // as the edge may send them
			h.Set("Content-Length", "2")
			return h
		}(), []byte("hi"), `host "slug0001.tunnels.example" [] te ["chunked"] [] len -1 [] ` + conn + ` body "hi" <nil>`},
	} {
		r := relayOnce(t, f, h, http.MethodPost, "/api/mcp/adapter-http/srv_1", tc.hdr, tc.body)
		if r.abort != "" || r.status != http.StatusOK {
			t.Errorf("%s: reply %+v", tc.name, r)
		}
		if got := <-seen; got != tc.want {
			t.Errorf("%s: handler saw\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// A relayed Transfer-Encoding other than plain chunked ("gzip, chunked":
// the edge undoes the chunking, the gzip coding stays on the body) is
// answered 501 without reaching the handler, as net/http's server does.
// The handler read the coded body as plain bytes, the header gone.
func TestOtherTransferEncodingAnswers501(t *testing.T) {
	t.Parallel()
	f := setup(t)
	called := make(chan struct{}, 4)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { called <- struct{}{} })
	for _, te := range [][]string{{"gzip, chunked"}, {"identity"}, {"chunked", "chunked"}} {
		hdr := http.Header{"Transfer-Encoding": te}
		r := relayOnce(t, f, h, http.MethodPost, "/api/mcp/adapter-http/srv_1", hdr, []byte("\x1f\x8b..."))
		if r.status != http.StatusNotImplemented || r.abort != "" {
			t.Errorf("Transfer-Encoding %q: reply %+v, want 501", te, r)
		}
		select {
		case <-called: // the response follows the handler's return
			t.Errorf("Transfer-Encoding %q reached the handler", te)
		default:
		}
	}
}
