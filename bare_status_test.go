package projectops_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// bareStatusRT answers every request with status and a body that is not
// the {code, message} envelope (an empty body, a proxy's page).
type bareStatusRT struct {
	status int
	body   string
	ct     string
}

func (b bareStatusRT) RoundTrip(r *http.Request) (*http.Response, error) {
	h := http.Header{}
	if b.ct != "" {
		h.Set("Content-Type", b.ct)
	}
	return &http.Response{StatusCode: b.status, Request: r, Header: h,
		Body: io.NopCloser(strings.NewReader(b.body))}, nil
}

// An error answer without a {code} envelope gets the code its status
// implies, as the official client gives it, so the sentinels match:
// 401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND, 429 RATE_LIMITED, a
// 5xx INTERNAL_ERROR.
func TestBareStatusMapsToCode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status int
		body   string
		ct     string
		want   *projectops.Error
		code   projectops.Code
	}{
		{401, "", "", projectops.ErrUnauthorized, projectops.CodeUnauthorized},
		{403, "<html>Forbidden</html>", "text/html", projectops.ErrForbidden, projectops.CodeForbidden},
		{404, "", "", projectops.ErrNotFound, projectops.CodeNotFound},
		{429, "", "", projectops.ErrRateLimited, projectops.CodeRateLimited},
		{502, "<html>Bad Gateway</html>", "text/html", projectops.ErrInternal, projectops.CodeInternal},
	}
	for _, tc := range cases {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"),
			option.WithTransport(bareStatusRT{tc.status, tc.body, tc.ct}), option.WithMaxRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Evals.Runs.Get(t.Context(), "prj_1", "run_1")
		var e *projectops.Error
		if !errors.As(err, &e) {
			t.Fatalf("%d: err = %v, want *projectops.Error", tc.status, err)
		}
		if e.Code != tc.code || !errors.Is(err, tc.want) {
			t.Errorf("%d with a non-envelope body: Code = %q, errors.Is(%s) = %v; the official client maps it to %s",
				tc.status, e.Code, tc.code, errors.Is(err, tc.want), tc.code)
		}
	}
}

// Temporary agrees with the SDK's retries for a bare 5xx: a 501 or 505
// (INTERNAL_ERROR by its status) is neither retried nor temporary, a 503
// is both.
func TestBare5xxTemporaryMatchesRetries(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]bool{501: false, 505: false, 503: true, 520: true} {
		var n atomic.Int32
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"),
			option.WithTransport(countingRT{bareStatusRT{status, "", ""}, &n}), option.WithMaxRetries(1),
			option.WithRetryBackoff(time.Millisecond, time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Evals.Runs.Get(t.Context(), "prj_1", "run_1")
		e, ok := errors.AsType[*projectops.Error](err)
		if !ok || e.Temporary() != want || (n.Load() > 1) != want {
			t.Errorf("bare %d: %v, Temporary %v after %d attempt(s); want temporary and retried: %v", status, err, ok && e.Temporary(), n.Load(), want)
		}
	}
}

// countingRT is a bareStatusRT that counts its requests.
type countingRT struct {
	bareStatusRT
	n *atomic.Int32
}

func (c countingRT) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.bareStatusRT.RoundTrip(r)
}
