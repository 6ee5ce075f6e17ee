package projectops_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/servers"
)

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A tool call answered with a 302 is an error through WithTransport and
// WithHTTPClient alike: the redirect is not followed as a GET that would
// report a call that never ran.
func TestCallToolRedirectIsAnError(t *testing.T) {
	t.Parallel()
	var followed atomic.Int32
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		h := http.Header{}
		if r.Method == http.MethodPost {
			h.Set("Location", "https://api.example.test/api/v1/elsewhere")
			return &http.Response{StatusCode: http.StatusFound, Header: h, Body: http.NoBody, Request: r}, nil
		}
		followed.Add(1)
		h.Set("Content-Type", "application/json")
		return &http.Response{StatusCode: http.StatusOK, Header: h, Request: r,
			Body: io.NopCloser(strings.NewReader(`{"content":[]}`))}, nil
	})
	for name, opt := range map[string]option.RequestOption{
		"WithTransport":  option.WithTransport(rt),
		"WithHTTPClient": option.WithHTTPClient(&http.Client{Transport: rt}),
	} {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_redirect"),
			option.WithBaseURL("https://api.example.test/api/v1"), opt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Servers.CallTool(t.Context(), "p", "s", servers.CallToolParams{ToolName: "write"})
		var e *projectops.Error
		if !errors.As(err, &e) || e.StatusCode != http.StatusFound || res != nil {
			t.Errorf("%s: CallTool = %v, %v; want a 302 *projectops.Error", name, res, err)
		}
	}
	if n := followed.Load(); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}
