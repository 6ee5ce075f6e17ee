package tunnels

import (
	"encoding/json"
	"net/http"
	"sync"
	"unicode/utf8"
)

// defaultProxyTransport is http.DefaultTransport's settings without
// compression: net/http's Transport would add "Accept-Encoding: gzip" to a
// request that had none and decompress the answer behind the caller's
// back, where the local server must see the caller's headers and the
// caller get the bytes it answered. Built once, on first use, so a
// DefaultTransport a program configured before is the one copied.
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

// writeUnreachable answers 502 as the service's agent does when its local
// target does not answer: {"error": "Local target unreachable: <reason>"}.
// err is the transport's error with its *url.Error taken off, so it names
// no outgoing URL (nor its query).
func writeUnreachable(w http.ResponseWriter, err error) {
	reason := err.Error()
	if len(reason) > maxReason {
		cut := maxReason
		for cut > 0 && !utf8.RuneStart(reason[cut]) {
			cut--
		}
		reason = reason[:cut] + "…"
	}
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{"Local target unreachable: " + reason})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(http.StatusBadGateway)
	_, _ = w.Write(body)
}
