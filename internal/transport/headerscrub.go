package transport

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

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
// cleaned of: the length from which wire.SecretScrubber replaces a
// request's secret wherever it occurs. A shorter value could be part of
// any word.
const minHeaderRedacted = 8

// headerRedactor returns what replaces, in text, each credential header
// value of client and call of minHeaderRedacted bytes or more, as sent
// (trimmed, as net/http sends it), its credential alone ("Bearer abc"
// gives "abc" too) and as a URL or a JSON string would quote it, its
// percent escapes in upper- and in lower-case hex (the same value under RFC
// 3986, and many encoders and proxies write lower case); nil when there is
// none.
func headerRedactor(client, call http.Header) *strings.Replacer {
	var vals []string
	for _, h := range []http.Header{client, call} {
		for k, vs := range h {
			if !wire.CredentialHeader(k) {
				continue
			}
			for _, v := range vs {
				for _, s := range wire.HeaderValueSecrets(k, v) {
					if len(s) < minHeaderRedacted {
						continue
					}
					q, p := url.QueryEscape(s), url.PathEscape(s)
					vals = append(vals, s, q, p, lowerHexEscapes(q), lowerHexEscapes(p))
					if b, err := json.Marshal(s); err == nil {
						vals = append(vals, string(b[1:len(b)-1]))
					}
				}
			}
		}
	}
	if len(vals) == 0 {
		return nil
	}
	// Longest first: strings.Replacer prefers the earlier of two matches
	// at one place, and a value that begins another would leave the
	// other's tail behind.
	slices.SortFunc(vals, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	vals = slices.Compact(vals)
	pairs := make([]string, 0, 2*len(vals))
	for _, v := range vals {
		pairs = append(pairs, v, "REDACTED")
	}
	return strings.NewReplacer(pairs...)
}

// lowerHexEscapes is s, percent-encoded with upper-case hex digits as
// net/url writes them, with those digits in lower case; s itself when it
// has no escape with a letter in it.
func lowerHexEscapes(s string) string {
	b := []byte(nil)
	for i := strings.IndexByte(s, '%'); i >= 0 && i+2 < len(s); {
		for _, j := range []int{i + 1, i + 2} {
			if c := s[j]; 'A' <= c && c <= 'F' {
				if b == nil {
					b = []byte(s)
				}
				b[j] = c | 0x20
			}
		}
		n := strings.IndexByte(s[i+3:], '%')
		if n < 0 {
			break
		}
		i += 3 + n
	}
	if b == nil {
		return s
	}
	return string(b)
}

// headerScrub is one Do's redactor of credential header values: the
// client's, built once in New, or, when the call has headers of its own,
// one built from both on first use, so a call that succeeds builds none.
// It lives on Do's stack: the helpers it is passed to call replacer and
// keep no pointer to it.
type headerScrub struct {
	client *strings.Replacer // the client's (state.hdrRedact)
	header http.Header       // the client's headers
	call   http.Header       // the call's own headers (WithHeader on the call)
	r      *strings.Replacer
	built  bool
}

// replacer is the call's redactor, nil when no credential header value is
// long enough; built at most once.
func (h *headerScrub) replacer() *strings.Replacer {
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
func withHeaders(clean func(string) string, r *strings.Replacer) func(string) string {
	if r == nil {
		return clean
	}
	return func(s string) string { return clean(r.Replace(s)) }
}
