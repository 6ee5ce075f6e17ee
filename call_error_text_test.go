package projectops_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// A network failure reads "projectops: GET /route: <cause>": the method
// once, with no "Get:" left over from *url.Error (whose URL, which may
// carry a secret, is not shown), and errors.As still reaches the cause.
func TestNetworkErrorText(t *testing.T) {
	t.Parallel()
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL + "/api/v1"
	dead.Close() // nothing listens there now: the dial is refused
	c := edgeClient(t, url, option.WithMaxRetries(0))
	_, err := c.Hosts.List(t.Context(), "prj_demo", nil)
	if err == nil {
		t.Fatal("a call to a closed server succeeded")
	}
	text := err.Error()
	if !strings.HasPrefix(text, "projectops: GET /projects/prj_demo/hosts: ") || strings.Contains(text, "Get:") {
		t.Errorf("error text %q; want \"projectops: GET /projects/prj_demo/hosts: <cause>\" with no \"Get:\"", text)
	}
	if strings.Contains(text, "http://") {
		t.Errorf("error text %q shows the URL", text)
	}
	if _, ok := errors.AsType[*net.OpError](err); !ok {
		t.Errorf("errors.As(*net.OpError) fails on %v", err)
	}

	// Nor does it show a query value (the URL's, which the path leaves
	// out) or the API key pasted as an id.
	const cursor = "cursorvalue_q7"
	_, err = c.Hosts.List(t.Context(), "sk_test_audit", &hosts.ListParams{Cursor: cursor})
	if err == nil {
		t.Fatal("a call to a closed server succeeded")
	}
	for _, secret := range []string{cursor, "sk_test_audit"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error text %q shows %q", err, secret)
		}
	}
	if !strings.HasPrefix(err.Error(), "projectops: GET /projects/") {
		t.Errorf("error text %q does not name the call", err)
	}
}

// The in-process double reports its closing the same way.
func TestClosedDoubleErrorText(t *testing.T) {
	t.Parallel()
	srv, err := projectopstest.NewServer()
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient(option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	project := srv.Default().ProjectID
	srv.Close()
	_, err = c.Hosts.List(t.Context(), project, nil)
	want := "projectops: GET /projects/" + project + "/hosts: projectopstest: server closed"
	if err == nil || err.Error() != want {
		t.Errorf("after Close: %v; want %q", err, want)
	}
}

// A call its context ends says which call: "projectops: GET /route:
// context canceled", and errors.Is still matches the context's error,
// whether the context ended before the call, during an attempt, or by its
// deadline.
func TestContextErrorNamesCall(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	project := srv.Default().ProjectID
	prefix := "projectops: GET /projects/" + project + "/hosts: "

	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	past, stop := context.WithDeadline(t.Context(), time.Unix(0, 0))
	defer stop()
	// A RoundTripper that ends the call's context while it is being sent.
	during, cancelDuring := context.WithCancel(t.Context())
	defer cancelDuring()
	cutting := rtFunc(func(r *http.Request) (*http.Response, error) {
		cancelDuring()
		return nil, r.Context().Err()
	})

	for _, tc := range []struct {
		name string
		ctx  context.Context
		rt   http.RoundTripper
		want error
	}{
		{"cancelled before", cancelled, srv.Transport(), context.Canceled},
		{"deadline passed", past, srv.Transport(), context.DeadlineExceeded},
		{"cancelled during", during, cutting, context.Canceled},
	} {
		c, err := srv.NewClient(option.WithTransport(tc.rt))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Hosts.List(tc.ctx, project, nil)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v; want it to match %v", tc.name, err, tc.want)
		}
		if want := prefix + tc.want.Error(); err == nil || err.Error() != want {
			t.Errorf("%s: error text %v; want %q", tc.name, err, want)
		}
	}
}
