package projectopstest_test

import (
	"errors"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestInProcessURLWithoutTransport: a client given the in-process URL of a
// server not started, without the double's transport, could only fail on a
// DNS lookup (seconds later, "no such host"); NewClient refuses it at once,
// naming the ways to reach the double. With a transport it is accepted.
func TestInProcessURLWithoutTransport(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	for _, base := range []string{srv.URL(), "HTTP://Projectops.Test./api/v1", "http://projectops.test:80/api/v1"} {
		_, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(base))
		if !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("NewClient(WithBaseURL(%q)) without a transport: err = %v, want ErrValidation", base, err)
			continue
		}
		for _, hint := range []string{"srv.NewClient()", "option.WithTransport(srv.Transport())", "srv.Start()"} {
			if !strings.Contains(err.Error(), hint) {
				t.Errorf("NewClient(WithBaseURL(%q)): %v: does not suggest %s", base, err, hint)
			}
		}
	}
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
