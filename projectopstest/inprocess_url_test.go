package projectopstest_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// dnsFailingClient fails every dial as a resolver that knows no such name
// does, without asking one (a real lookup of projectops.test can take
// seconds and depends on the machine's resolver).
func dnsFailingClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(_ context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return nil, &net.OpError{Op: "dial", Net: network,
			Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
	}}}
}

// TestInProcessURLLookupHint: a client given the in-process URL of a
// server not started, over a transport that resolves names, fails on the
// lookup; the error then says how to reach the double, in words for a Go
// caller and a CLI user, and errors.As still finds the *net.DNSError.
// NewClient accepts the URL: a proxy or /etc/hosts may serve the name.
func TestInProcessURLLookupHint(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	for _, base := range []string{srv.URL(), "HTTP://Projectops.Test./api/v1", "http://projectops.test:80/api/v1"} {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(base),
			option.WithHTTPClient(dnsFailingClient()), option.WithMaxRetries(0), option.WithAPIKey(srv.Default().APIKey))
		if err != nil {
			t.Fatalf("NewClient(WithBaseURL(%q)): %v", base, err)
		}
		_, err = c.Catalog.Me(t.Context())
		if _, ok := errors.AsType[*net.DNSError](err); !ok {
			t.Errorf("WithBaseURL(%q): Me: %v; want a *net.DNSError", base, err)
			continue
		}
		for _, hint := range []string{"projectops: GET /me: dial tcp: lookup ", "no such host (projectops.test is",
			"srv.NewClient()", "option.WithTransport(srv.Transport())", "srv.Start()", "projectops serve"} {
			if !strings.Contains(err.Error(), hint) {
				t.Errorf("WithBaseURL(%q): Me: %v: does not say %q", base, err, hint)
			}
		}
	}
}

// The in-process URL with the double's transport, given either way,
// reaches the double.
func TestInProcessURLWithTransport(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	for name, opt := range map[string]option.RequestOption{
		"WithTransport": option.WithTransport(srv.Transport()), "WithHTTPClient": option.WithHTTPClient(srv.Client()),
	} {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(srv.URL()), opt,
			option.WithAPIKey(srv.Default().APIKey))
		if err != nil {
			t.Fatalf("NewClient with %s: %v", name, err)
		}
		if _, err := c.Catalog.Me(t.Context()); err != nil {
			t.Errorf("%s: Me: %v", name, err)
		}
	}
}
