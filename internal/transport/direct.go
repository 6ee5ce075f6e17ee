package transport

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
)

// directTransport returns c's RoundTripper when it serves in process and c
// adds nothing a direct call would skip: no cookie jar, no client timeout,
// no redirect policy of the caller's. Redirects are the one thing left,
// and send hands those to the client.
func directTransport(c *http.Client) http.RoundTripper {
	rt, ok := c.Transport.(wire.InProcess)
	if !ok || c.Jar != nil || c.Timeout != 0 || c.CheckRedirect != nil {
		return nil
	}
	return rt
}

// send performs one exchange: through the in-process transport directly
// when there is one, else through the client. A 3xx answered directly goes
// to the client as the answer to its first hop (not sent again), so the
// client decides on that very response whether and how to follow it.
func (t *Transport) send(hr *http.Request) (*http.Response, error) {
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
			Err: fmt.Errorf("http: RoundTripper implementation (%T) returned a nil *Response with a nil error", t.direct)}
	case resp.Body == nil:
		if resp.ContentLength > 0 && hr.Method != http.MethodHead {
			return nil, &url.Error{Op: urlErrorOp(hr.Method), URL: hr.URL.Redacted(),
				Err: fmt.Errorf("http: RoundTripper implementation (%T) returned a *Response with content length %d but a nil Body", t.direct, resp.ContentLength)}
		}
		resp.Body = http.NoBody
	case isRedirect(resp.StatusCode):
		c := *t.client
		c.Transport = &answered{resp: resp, rt: t.direct}
		return c.Do(hr)
	}
	return resp, nil
}

// answered answers its first round trip with resp, the answer the request
// already got, and passes later hops (the redirects followed) to rt.
type answered struct {
	resp *http.Response
	rt   http.RoundTripper
}

func (a *answered) RoundTrip(req *http.Request) (*http.Response, error) {
	if resp := a.resp; resp != nil {
		a.resp = nil
		if req.Body != nil { // the request was sent: its body is done with
			_ = req.Body.Close()
		}
		return resp, nil
	}
	return a.rt.RoundTrip(req)
}

// urlErrorOp is the Op http.Client gives a *url.Error: "Get" for GET.
func urlErrorOp(method string) string {
	if method == "" {
		return "Get"
	}
	return method[:1] + strings.ToLower(method[1:])
}
