package transport

import (
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
)

// Error text as callers and logs see it: cleaned of every secret a request
// carries.

// causeError is a network failure as errors and logs show it: the
// cause's text cleaned of the request's secrets and of the credential
// headers' values (a tracing RoundTripper may name the URL in its error, a
// proxy quote a token), while errors.Is and errors.As still see the cause.
func (t *Transport) causeError(req *Request, target, path string, hs *headerScrub, cause error) error {
	text := "projectops: " + req.Method + " " + path + ": " + t.causeShown(req, target, hs, cause)
	return &shownError{text: text, cause: cause}
}

// cleaner returns what takes a request's secrets out of text its errors and
// logs show: the key in every spelling and, for a minted upload URL (a
// capability), the URL and its parts. Error text also goes through
// withHeaders.
func (t *Transport) cleaner(req *Request, target string) func(string) string {
	if req.URL == "" {
		// A tunnel URL's ?k= secret too: a server operation's failure may
		// quote the saved server's URL, a tunnel's with its secret.
		return func(s string) string { return wire.RedactSecretParams(t.Redact(s)) }
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
		return wire.RedactSecretParams(t.Redact(s))
	}
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
func (t *Transport) readFailure(req *Request, target, path string, hs *headerScrub, err error) error {
	text := "projectops: " + req.Method + " " + path + ": reading response: " + t.causeShown(req, target, hs, err)
	return &bodyReadError{msg: &shownError{text: text, cause: err}, err: err}
}

// causeShown is cause's text cleaned as causeError and readFailure show
// it: of the request's secrets and of the credential headers' values.
func (t *Transport) causeShown(req *Request, target string, hs *headerScrub, cause error) string {
	return withHeaders(t.cleaner(req, target), hs.replacer())(cause.Error())
}
