package tunnels

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"
)

// defaultProxyTransport is http.DefaultTransport's settings without
// compression: net/http's Transport would add "Accept-Encoding: gzip" to a
// request that had none and decompress the answer behind the caller's
// back, where the local server must see the caller's headers and the
// caller get the bytes it answered. Built once, on first use, so a
// DefaultTransport a program configured before is the one copied, and
// shared by every ProxyTo handler. Nothing closes its idle connections
// but its IdleConnTimeout (DefaultTransport's 90 s, unless the program
// changed it): no handler owns it, so none may close them for the others.
// A program that must see them closed passes WithProxyTransport.
var defaultProxyTransport = sync.OnceValue(func() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok { // replaced by the program with a RoundTripper of another kind
		return http.DefaultTransport
	}
	t = t.Clone()
	t.DisableCompression = true
	return t
})

// maxReason bounds the reason an unreachable answer gives.
const maxReason = 200

// unreachableReason is err's text for a public caller: a network error's
// (a net.Error, io.EOF: "connection refused", "i/o timeout"), with every
// spelling of the outgoing URL and target's taken out (a transport may
// name them, and their query may hold a token), or a fixed reason for any
// other error, whose text a caller's transport may fill with anything.
func unreachableReason(err error, out *url.URL, target *url.URL) string {
	var ne net.Error
	if !errors.As(err, &ne) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return "the local server did not answer"
	}
	return withoutURLs(err.Error(), out, target)
}

// withoutURLs is text with every spelling of the URLs (whole, redacted,
// request URI, query) replaced by "…".
func withoutURLs(text string, urls ...*url.URL) string {
	for _, u := range urls {
		if u == nil {
			continue
		}
		for _, s := range []string{u.String(), u.Redacted(), u.RequestURI(), u.RawQuery, u.Query().Encode()} {
			if len(s) > 1 {
				text = strings.ReplaceAll(text, s, "…")
			}
		}
	}
	return text
}

// writeUnreachable answers 502 as the service's agent does when its local
// target does not answer: {"error": "Local target unreachable: <reason>"},
// reason from unreachableReason, cut to maxReason bytes (whole runes).
func writeUnreachable(w http.ResponseWriter, reason string) {
	if len(reason) > maxReason {
		cut := maxReason
		for cut > 0 && !utf8.RuneStart(reason[cut]) {
			cut--
		}
		reason = reason[:cut] + "…"
	}
	writeBadGateway(w, "Local target unreachable: "+reason)
}

// writeBadGateway answers 502 with the agent's JSON body, {"error": msg}.
func writeBadGateway(w http.ResponseWriter, msg string) {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(http.StatusBadGateway)
	_, _ = w.Write(body)
}
