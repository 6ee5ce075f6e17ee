package transport

import (
	"net/http"

	"github.com/projectops/projectops-go/internal/wire"
)

// Credential headers' values in error text. A gateway or a proxy may quote
// a request's headers back (a proxy's token under X-Proxy-Token), so the
// values of the client's and the call's headers whose names mark them as
// credentials (wire.CredentialHeader) are taken out of what an error
// shows. Other headers' values are left: replaced wherever they occur,
// "no-cache" or a model's name would corrupt codes, details and metadata.
// The replacement runs on decoded text only, never on a raw JSON body
// (a value with a quote in it would break the envelope), and never on a
// success's metadata or body.

// minHeaderRedacted is the shortest credential header value error text is
// cleaned of: the length from which wire.ValueScrubber replaces a value
// (and wire.SecretScrubber a request's secret wherever it occurs). A
// shorter value could be part of any word.
const minHeaderRedacted = 8

// headerRedactor returns what takes, out of text, each credential header
// value of client and call of minHeaderRedacted bytes or more, as sent
// (trimmed, as net/http sends it) and its credential alone ("Bearer abc"
// gives "abc" too), in any spelling wire.ValueScrubber knows: as written,
// URL- or JSON-escaped by any encoder, Go's or JavaScript's, hex in any
// case, part-escaped, and two layers deep; nil when there is none.
func headerRedactor(client, call http.Header) func(string) string {
	var vals []string
	for _, h := range []http.Header{client, call} {
		for k, vs := range h {
			if !wire.CredentialHeader(k) {
				continue
			}
			for _, v := range vs {
				for _, s := range wire.HeaderValueSecrets(k, v) {
					if len(s) >= minHeaderRedacted {
						vals = append(vals, s)
					}
				}
			}
		}
	}
	if len(vals) == 0 {
		return nil
	}
	return wire.ValueScrubber("REDACTED", vals...)
}

// headerScrub is one Do's redactor of credential header values: the
// client's, built once in New, or, when the call has headers of its own,
// one built from both on first use, so a call that succeeds builds none.
// It lives on Do's stack: the helpers it is passed to call replacer and
// keep no pointer to it.
type headerScrub struct {
	client func(string) string // the client's (state.hdrRedact)
	header http.Header         // the client's headers
	call   http.Header         // the call's own headers (WithHeader on the call)
	r      func(string) string
	built  bool
}

// replacer is the call's redactor, nil when no credential header value is
// long enough; built at most once.
func (h *headerScrub) replacer() func(string) string {
	if len(h.call) == 0 {
		return h.client
	}
	if !h.built {
		h.r, h.built = headerRedactor(h.header, h.call), true
	}
	return h.r
}

// withHeaders is clean preceded by r's replacements, for error text; clean
// itself when r is nil.
func withHeaders(clean func(string) string, r func(string) string) func(string) string {
	if r == nil {
		return clean
	}
	return func(s string) string { return clean(r(s)) }
}
