package transport

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/shared"
)

// maxRedirects is how many redirects a read follows.
const maxRedirects = 10

var errTooManyRedirects = errors.New("stopped after 10 redirects")

// redirectRefused marks a redirect the policy (or the caller's
// CheckRedirect) stopped: the same request would meet the same redirect, so
// it is not retried.
type redirectRefused struct{ err error }

func (e *redirectRefused) Error() string { return e.err.Error() }
func (e *redirectRefused) Unwrap() error { return e.err }

// GuardRedirects returns a copy of c (the caller's client is never changed)
// whose redirect policy keeps writes and the key safe:
//   - a redirect of anything but GET or HEAD is not followed: net/http would
//     re-send a 301/302/303 as a GET, so a tool call or create answered with a
//     302 would "succeed" without ever running. The 3xx reaches Do, which
//     returns it as an error.
//   - once any hop leaves the first request's origin (scheme, host and port),
//     every credential header is dropped for the rest of the chain (see
//     dropCredentials): Authorization, and the client's or the call's own
//     (X-Api-Key, X-Proxy-Token, Cookie). net/http drops only a few names, and
//     keeps them for the same host on another port and for subdomains.
//     Referer goes too: net/http sets it to the previous hop's URL, whose
//     path may hold the key pasted as an id, and whose query a secret.
//
// A CheckRedirect set by the caller still runs after these rules.
func GuardRedirects(c *http.Client) *http.Client {
	cc := *c
	user := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if first.Method != http.MethodGet && first.Method != http.MethodHead {
			return http.ErrUseLastResponse
		}
		if len(via) > maxRedirects { // via holds the first request and the redirects followed
			return &redirectRefused{errTooManyRedirects}
		}
		if !sameOrigin(first, req) || !allSameOrigin(first, via[1:]) {
			dropCredentials(req.Header)
			// Set by net/http to the previous hop's URL, path and query
			// whole: what errors redact must not reach an origin the
			// caller never named.
			req.Header.Del("Referer")
		}
		if user != nil {
			err := user(req, via)
			if err != nil && !errors.Is(err, http.ErrUseLastResponse) {
				return &redirectRefused{err}
			}
			return err
		}
		return nil
	}
	return &cc
}

// redirectSensitive are the headers net/http's client drops on a redirect to
// another domain; WWW-Authenticate and Proxy-Authenticate have no
// credential word in their names, so wire.CredentialHeader alone would
// keep them.
var redirectSensitive = map[string]bool{
	"Authorization": true, "Www-Authenticate": true, "Cookie": true, "Cookie2": true,
	"Proxy-Authorization": true, "Proxy-Authenticate": true,
}

// dropCredentials deletes from h every header whose name marks a
// credential, by the rule that keeps their values out of error text
// (wire.CredentialHeader), and those net/http itself drops: what the SDK
// treats as a secret must not reach an origin the caller never named.
func dropCredentials(h http.Header) {
	for k := range h {
		if wire.CredentialHeader(k) || redirectSensitive[http.CanonicalHeaderKey(k)] {
			delete(h, k)
		}
	}
}

func allSameOrigin(first *http.Request, hops []*http.Request) bool {
	for _, h := range hops {
		if !sameOrigin(first, h) {
			return false
		}
	}
	return true
}

// sameOrigin compares scheme, host and port (the default port made explicit).
func sameOrigin(a, b *http.Request) bool {
	return strings.EqualFold(a.URL.Scheme, b.URL.Scheme) &&
		strings.EqualFold(a.URL.Hostname(), b.URL.Hostname()) &&
		port(a) == port(b)
}

func port(r *http.Request) string {
	if p := r.URL.Port(); p != "" {
		return p
	}
	if strings.EqualFold(r.URL.Scheme, "https") {
		return "443"
	}
	return "80"
}

// isRedirect reports a 3xx that Do must not take for an ordinary error
// envelope: it is a redirect that was deliberately not followed.
func isRedirect(status int) bool { return status >= 300 && status < 400 }

// redirectError describes a 3xx that reached Do, each as what it is: a
// write's redirect, refused on purpose; a 304, which only a conditional
// header the caller set (or a cache on the path) can bring, the SDK
// sending none; a read's redirect not followed (a 300, or the caller's
// own CheckRedirect returned http.ErrUseLastResponse), named by its
// target's origin alone, as the rest of a Location may carry a capability
// token; and one without a Location, which nothing can follow. The
// request id passes through shown, as every error answer's does
// (decodeError): a gateway may echo the key, or a secret of the request,
// into it.
func redirectError(resp *http.Response, method, path string, shown func(string) string) *shared.Error {
	drainClose(resp.Body)
	status := http.StatusText(resp.StatusCode)
	var msg string
	switch {
	case resp.StatusCode == http.StatusNotModified:
		msg = status + ": the SDK sends no conditional request; a caller-set If-None-Match or If-Modified-Since header, or a cache on the path, answered it"
	case method != http.MethodGet && method != http.MethodHead: // the methods GuardRedirects follows
		msg = status + ": redirect not followed (writes are never re-sent to another location; check the base URL)"
	case resp.Header.Get("Location") == "":
		msg = fmt.Sprintf("%s: a redirect without a Location, which cannot be followed (status %d to a read; check the base URL)",
			status, resp.StatusCode)
	default:
		msg = fmt.Sprintf("%s: redirect to %s not followed", status, shown(locationOrigin(resp)))
	}
	return &shared.Error{StatusCode: resp.StatusCode, Method: method, Path: path,
		RequestID: shown(resp.Header.Get(RequestIDHeader)), Message: msg}
}

// locationOrigin is the origin (scheme, host and port) resp's Location
// points to, resolved against the request's URL; "another location" when
// it names none.
func locationOrigin(resp *http.Response) string {
	u, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		return "another location"
	}
	if resp.Request != nil && resp.Request.URL != nil {
		u = resp.Request.URL.ResolveReference(u)
	}
	if u.Host == "" {
		return "another location"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}
