package transport

import (
	"errors"
	"net"
	"net/http"
	"net/url"

	"github.com/projectops/projectops-go/internal/wire"
)

// Error text as callers and logs see it: cleaned of every secret a request
// carries.

// Markers of what a call's cleaning replaced, one per kind of value, as
// each cleaner wrote them before they were matched together.
const (
	keyMarker    = "sk_***"     // the API key
	urlMarker    = "REDACTED"   // a minted upload URL or one of its parts
	secretMarker = "[REDACTED]" // a secret of the request (Request.Secrets), as wire.SecretScrubber writes it
	headerMarker = "REDACTED"   // a credential header's value
)

// keyScrubber is what takes the key out of text (wire.KeyValues: in any
// spelling a credential header's value is found in), nil without a key.
func keyScrubber(key string) *wire.Scrubber { return wire.NewScrubber(wire.KeyValues(key, keyMarker)) }

// callScrub is what one Do's text goes through. Every secret value of the
// call (the key, a minted upload URL and its parts, the request's Secrets
// and, in error text, the credential headers' values of the client and
// the call) is matched in the text as given and the union replaced
// (wire.Scrubber): were one cleaner to run before another, a value it
// replaced could break another's spelling (an API key inside a header
// value's %2F spelling) and leave the rest of that one in clear. A
// tunnel URL's ?k= secret and the request's Scrub follow. The scrubbers
// are built on first use, so a call that succeeds builds none beyond the
// client's, and the call's credential headers' values are added only
// when error text needs them. It lives on Do's stack: the helpers it is
// passed to keep no pointer to it.
type callScrub struct {
	t      *Transport
	req    *Request
	target string
	call   http.Header // the call's own headers (WithHeader on the call)

	// plain is the client's scrubber with the request's own values, all
	// plain's with the call's credential header values: each made from
	// the other, so the values' encoded forms are made once.
	plain, all *wire.Scrubber
	plainBuilt bool
	allBuilt   bool
	headers    bool // all holds credential header values (TextOnly)
}

// plainScrub is the client's scrubber (the key, its credential headers'
// values) with the request's own values, made on first use.
func (c *callScrub) plainScrub() *wire.Scrubber {
	if c.plainBuilt {
		return c.plain
	}
	c.plainBuilt = true
	var buf [2]wire.ScrubValues
	own := buf[:0]
	if c.req.URL != "" {
		// A minted upload URL is a capability: it and its parts, as
		// written, wherever they occur.
		parts := []string{c.target}
		if u, err := url.Parse(c.target); err == nil {
			for _, p := range []string{u.String(), u.RawQuery, u.EscapedPath(), u.Path} {
				if len(p) > 1 {
					parts = append(parts, p)
				}
			}
		}
		own = append(own, wire.ScrubValues{Marker: urlMarker, Rule: wire.AsWritten, Raw: true, Values: parts})
	}
	if len(c.req.Secrets) > 0 {
		own = append(own, wire.ScrubValues{Marker: secretMarker, Rule: wire.RequestSecret, Values: c.req.Secrets})
	}
	c.plain = c.t.hdrScrub.With(own...)
	return c.plain
}

// allScrub is plainScrub's values and the call's credential headers',
// made on first use: only error text needs it.
func (c *callScrub) allScrub() *wire.Scrubber {
	if c.allBuilt {
		return c.all
	}
	c.allBuilt = true
	calls := headerSecrets(c.call)
	c.all = c.plainScrub().With(wire.ScrubValues{Marker: headerMarker, Rule: wire.AnySpelling, TextOnly: true, Values: calls})
	c.headers = c.t.hdrScrub != c.t.keyScrub || len(calls) > 0
	return c.all
}

// clean is text the service sent cleaned of the request's own secrets,
// not of header values: a success's metadata, and an error's code,
// reason and details keys, which a header value could only corrupt.
func (c *callScrub) clean(s string) string {
	return c.scrub(wire.RedactSecretParams(c.plainScrub().ScrubNames(s)))
}

// shown is error text as a caller reads it: a message, a detail's value,
// a request id, a network failure's text.
func (c *callScrub) shown(s string) string {
	return c.scrub(wire.RedactSecretParams(c.allScrub().Scrub(s)))
}

// raw is an error body cleaned before it is decoded: of the key and a
// minted URL's parts, each with whatever value's match overlaps it in the
// same JSON string, but of no other value alone (the decoded text is
// cleaned of them); a JSON body stays JSON (wire.Scrubber.ScrubRaw).
func (c *callScrub) raw(s string) string {
	return wire.RedactSecretParams(c.allScrub().ScrubRaw(s))
}

// hasHeaders reports whether error text has credential header values to
// be cleaned of, beyond what clean takes out.
func (c *callScrub) hasHeaders() bool {
	c.allScrub()
	return c.headers
}

// scrub is s through the request's Scrub, when it has one.
func (c *callScrub) scrub(s string) string {
	if c.req.Scrub == nil {
		return s
	}
	return c.req.Scrub(s)
}

// causeError is a network failure as errors and logs show it: the
// cause's text cleaned as error text is (a tracing RoundTripper may name
// the URL in its error, a proxy quote a token), while errors.Is and
// errors.As still see the cause. A failed lookup gets the client's hint
// for its host (Config.LookupHint), after the cleaning: the hint is the
// SDK's own text.
func (t *Transport) causeError(req *Request, path string, cs *callScrub, cause error) error {
	text := "projectops: " + req.Method + " " + path + ": " + cs.shown(cause.Error())
	if t.lookupHint != nil {
		if de, ok := errors.AsType[*net.DNSError](cause); ok {
			if hint := t.lookupHint(de.Name); hint != "" {
				text += " (" + hint + ")"
			}
		}
	}
	return &shownError{text: text, cause: cause}
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
func (t *Transport) readFailure(req *Request, path string, cs *callScrub, err error) error {
	text := "projectops: " + req.Method + " " + path + ": reading response: " + cs.shown(err.Error())
	return &bodyReadError{msg: &shownError{text: text, cause: err}, err: err}
}
