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
// The values are taken out of decoded text; in a raw JSON body only the
// part of one's match that overlaps the key or a minted URL inside the
// same JSON string goes, with that match (wire.Scrubber.ScrubRaw): a
// value with a quote in it, replaced alone, would break the envelope. A
// success's metadata and body are never searched for them.

// minHeaderRedacted is the shortest credential header value error text is
// cleaned of: the length from which wire.AnySpelling takes a value (and
// wire.SecretScrubber a request's secret wherever it occurs). A shorter
// value could be part of any word.
const minHeaderRedacted = 8

// headerSecrets is what error text is cleaned of for h: each credential
// header value of minHeaderRedacted bytes or more, as sent (trimmed, as
// net/http sends it) and its credential alone ("Bearer abc" gives "abc"
// too), to be taken out in any spelling wire.AnySpelling knows: as
// written, URL- or JSON-escaped by any encoder, Go's or JavaScript's, hex
// in any case, part-escaped, and two layers deep.
func headerSecrets(h http.Header) []string {
	var vals []string
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
	return vals
}
