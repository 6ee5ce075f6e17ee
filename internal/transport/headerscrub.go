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
// percent escapes in any case (see valueRedactor.Replace); nil when there
// is none.
func headerRedactor(client, call http.Header) *valueRedactor {
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
					// net/url writes upper-case hex; a raw value's own
					// escapes are upper-cased too, for the second pass.
					vals = append(vals, s, upperEscapes(s), url.QueryEscape(s), url.PathEscape(s))
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
	return &valueRedactor{strings.NewReplacer(pairs...)}
}

// valueRedactor replaces credential header values in error text (see
// headerRedactor).
type valueRedactor struct{ r *strings.Replacer }

// Replace returns s with the values replaced: as written, then, when s has
// an escape in lower- or mixed-case hex ("%2f", "%2B" and "%3d" in one
// value are the same value under RFC 3986, and encoders and proxies write
// either), in s with every escape's hex upper-cased, as the values' escaped
// forms are. The first pass finds a raw value whose last bytes an escape
// would take in ("…%a" followed by "b"). s keeps its own spelling when the
// second pass finds nothing.
func (v *valueRedactor) Replace(s string) string {
	s = v.r.Replace(s)
	u := upperEscapes(s)
	if u == s {
		return s
	}
	if out := v.r.Replace(u); out != u {
		return out
	}
	return s
}

// upperEscapes is s with the hex digits of every percent escape in upper
// case: s itself, without allocating, when no escape has a lower-case one.
func upperEscapes(s string) string {
	i := lowerEscape(s, 0)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	done := 0
	for ; i >= 0; i = lowerEscape(s, i+3) {
		b.WriteString(s[done : i+1])
		b.WriteByte(upperHex(s[i+1]))
		b.WriteByte(upperHex(s[i+2]))
		done = i + 3
	}
	b.WriteString(s[done:])
	return b.String()
}

// lowerEscape returns the index of the first percent escape in s at or
// after from with a lower-case hex digit, or -1.
func lowerEscape(s string, from int) int {
	for i := from; i+2 < len(s); i++ {
		j := strings.IndexByte(s[i:len(s)-2], '%')
		if j < 0 {
			return -1
		}
		i += j
		a, b := s[i+1], s[i+2]
		if isHex(a) && isHex(b) && ('a' <= a || 'a' <= b) {
			return i
		}
	}
	return -1
}

// isHex reports whether c is a hex digit, in either case.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// upperHex is the hex digit c in upper case.
func upperHex(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - 'a' + 'A'
	}
	return c
}

// headerScrub is one Do's redactor of credential header values: the
// client's, built once in New, or, when the call has headers of its own,
// one built from both on first use, so a call that succeeds builds none.
// It lives on Do's stack: the helpers it is passed to call replacer and
// keep no pointer to it.
type headerScrub struct {
	client *valueRedactor // the client's (state.hdrRedact)
	header http.Header    // the client's headers
	call   http.Header    // the call's own headers (WithHeader on the call)
	r      *valueRedactor
	built  bool
}

// replacer is the call's redactor, nil when no credential header value is
// long enough; built at most once.
func (h *headerScrub) replacer() *valueRedactor {
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
func withHeaders(clean func(string) string, r *valueRedactor) func(string) string {
	if r == nil {
		return clean
	}
	return func(s string) string { return clean(r.Replace(s)) }
}
