package tunnels_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/tunnels"
)

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// urlNetError is a network error whose text names the request's URL.
type urlNetError struct{ u string }

func (e urlNetError) Error() string   { return "dial " + e.u + ": connection refused" }
func (e urlNetError) Timeout() bool   { return false }
func (e urlNetError) Temporary() bool { return false }

// unreachableBody sends a GET for /mcp?q=caller-SECRET through ProxyTo
// to target over rt and returns the 502's error text.
func unreachableBody(t *testing.T, target string, rt http.RoundTripper) string {
	t.Helper()
	tu, _ := url.Parse(target)
	h, err := tunnels.ProxyTo(tu, tunnels.WithProxyTransport(rt))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mcp?q=caller-SECRET", nil))
	var body struct {
		Error string `json:"error"`
	}
	if rec.Code != http.StatusBadGateway || json.Unmarshal(rec.Body.Bytes(), &body) != nil ||
		!strings.HasPrefix(body.Error, "Local target unreachable: ") {
		t.Fatalf("got %d %s, want the agent's JSON 502", rec.Code, rec.Body)
	}
	return body.Error
}

// A transport of the caller's (WithProxyTransport) whose error names the
// request's URL, as retrying transports do ("GET <url> giving up after 3
// attempt(s)"), does not show the target's query (a token) or the
// caller's to the public caller: an error that is no network error gets a
// fixed reason, and a network error's text has the URLs taken out.
func TestUnreachableReasonHidesTheOutgoingURL(t *testing.T) {
	t.Parallel()
	const target = "http://127.0.0.1:1/mcp?token=tok-SECRET"
	giveUp := rtFunc(func(r *http.Request) (*http.Response, error) {
		return nil, fmt.Errorf("%s %s giving up after 3 attempt(s)", r.Method, r.URL)
	})
	if got := unreachableBody(t, target, giveUp); strings.Contains(got, "SECRET") || strings.Contains(got, "127.0.0.1") {
		t.Errorf("an error that is no network error gave the public caller %q", got)
	}
	named := rtFunc(func(r *http.Request) (*http.Response, error) {
		return nil, urlNetError{r.URL.String()}
	})
	got := unreachableBody(t, target, named)
	if strings.Contains(got, "SECRET") || !strings.Contains(got, "connection refused") {
		t.Errorf("a network error naming the URL gave the public caller %q, want its text without the URL", got)
	}
}
