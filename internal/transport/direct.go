package transport

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
)

// directTransport returns c's RoundTripper when it serves in process and c
// adds nothing a direct call would skip: no cookie jar, no client timeout,
// no redirect policy of the caller's. Redirects are the one thing left,
// and send hands those back to the client.
func directTransport(c *http.Client) http.RoundTripper {
	rt, ok := c.Transport.(wire.InProcess)
	if !ok || c.Jar != nil || c.Timeout != 0 || c.CheckRedirect != nil {
		return nil
	}
	return rt
}

// send performs one exchange: through the in-process transport directly
// when there is one, else (and for a redirect the client would follow)
// through the client. build makes the request, again for the client when
// the direct answer was such a redirect: that repeats a GET or HEAD to the
// double, which only redirects a path it would not route.
func (t *Transport) send(build func() (*http.Request, error)) (*http.Response, error) {
	hr, err := build()
	if err != nil {
		return nil, err
	}
	if t.direct == nil || hr.URL.User != nil { // the client turns userinfo into Basic auth
		return t.client.Do(hr)
	}
	resp, err := t.direct.RoundTrip(hr)
	switch {
	case err != nil:
		// As the client reports it, so errors read the same either way.
		return nil, &url.Error{Op: urlErrorOp(hr.Method), URL: hr.URL.Redacted(), Err: err}
	case resp == nil:
		return nil, &url.Error{Op: urlErrorOp(hr.Method), URL: hr.URL.Redacted(),
			Err: errNilResponse}
	case isRedirect(resp.StatusCode) && (hr.Method == http.MethodGet || hr.Method == http.MethodHead):
		drainClose(resp.Body)
		if hr, err = build(); err != nil {
			return nil, err
		}
		return t.client.Do(hr)
	}
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	return resp, nil
}

var errNilResponse = errors.New("in-process transport returned neither a response nor an error")

// urlErrorOp is the Op http.Client gives a *url.Error: "Get" for GET.
func urlErrorOp(method string) string {
	if method == "" {
		return "Get"
	}
	return method[:1] + strings.ToLower(method[1:])
}
