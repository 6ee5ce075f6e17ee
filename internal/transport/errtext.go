package transport

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
)

// Error text as callers and logs see it: cleaned of every secret a request
// carries.

// causeError is a network failure as errors and logs show it: the
// cause's text cleaned of the request's secrets (a tracing RoundTripper may
// name the URL in its error), while errors.Is and errors.As still see the
// cause.
func (t *Transport) causeError(req *Request, target, path string, cause error) error {
	return &shownError{text: "projectops: " + req.Method + " " + path + ": " + t.cleaner(req, target)(cause.Error()), cause: cause}
}

// cleaner returns what takes a request's secrets out of text its errors and
// logs show: the key in every spelling, the values of the client's and the
// call's headers (WithHeader, which may carry a proxy's token, quoted back
// by a gateway) and, for a minted upload URL (a capability), the URL and
// its parts.
func (t *Transport) cleaner(req *Request, target string) func(string) string {
	hdr := t.hdrRedact
	if len(req.callHeader) > 0 {
		hdr = headerRedactor(t.header, req.callHeader)
	}
	if req.URL == "" {
		// A tunnel URL's ?k= secret too: a server operation's failure may
		// quote the saved server's URL, a tunnel's with its secret.
		return func(s string) string { return wire.RedactSecretParams(redactHeaders(hdr, t.Redact(s))) }
	}
	parts := []string{target}
	if u, err := url.Parse(target); err == nil {
		for _, p := range []string{u.String(), u.RawQuery, u.EscapedPath(), u.Path} {
			if len(p) > 1 {
				parts = append(parts, p)
			}
		}
	}
	return func(s string) string {
		for _, p := range parts {
			s = strings.ReplaceAll(s, p, "REDACTED")
		}
		return wire.RedactSecretParams(redactHeaders(hdr, t.Redact(s)))
	}
}

// minHeaderRedacted is the shortest header value error text is cleaned
// of: the length from which wire.SecretScrubber replaces a request's
// secret wherever it occurs. A shorter value ("gzip", "en-US", "1") could
// be part of any word.
const minHeaderRedacted = 8

// headerRedactor returns what replaces, in text, each value of client and
// call of minHeaderRedacted bytes or more, as sent (net/http trims it) and
// as a URL or a JSON string would quote it; nil when there is none. An
// X-Request-Id of the caller's is kept: the service echoes it by design,
// as the request id a support request names.
func headerRedactor(client, call http.Header) *strings.Replacer {
	var vals []string
	for _, h := range []http.Header{client, call} {
		for k, vs := range h {
			if http.CanonicalHeaderKey(k) == RequestIDHeader {
				continue
			}
			for _, v := range vs {
				v = textproto.TrimString(v)
				if len(v) < minHeaderRedacted {
					continue
				}
				vals = append(vals, v, url.QueryEscape(v), url.PathEscape(v))
				if b, err := json.Marshal(v); err == nil {
					vals = append(vals, string(b[1:len(b)-1]))
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

// redactHeaders applies r to s; a nil r (no header worth it) leaves s.
func redactHeaders(r *strings.Replacer, s string) string {
	if r == nil {
		return s
	}
	return r.Replace(s)
}

// shownError is an error whose text was cleaned of secrets; it unwraps to
// the original.
type shownError struct {
	text  string
	cause error
}

func (e *shownError) Error() string { return e.text }
func (e *shownError) Unwrap() error { return e.cause }

// readFailure is the error of a success body that could not be read, its
// text cleaned as a network failure's is (a tracing body may name the URL).
func (t *Transport) readFailure(req *Request, target, path string, err error) error {
	text := "projectops: " + req.Method + " " + path + ": reading response: " + t.cleaner(req, target)(err.Error())
	return &bodyReadError{msg: &shownError{text: text, cause: err}, err: err}
}
