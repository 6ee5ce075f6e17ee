package evals_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
)

// rateLimitedRT answers every request with 429 and a long Retry-After.
type rateLimitedRT struct{}

func (rateLimitedRT) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusTooManyRequests, Request: r,
		Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"3600"}},
		Body:   io.NopCloser(strings.NewReader(`{"code":"RATE_LIMITED","message":"slow down"}`))}, nil
}

// A Retry-After above the client's WithMaxRetryAfter cap is returned to the
// caller, by Wait as by every call, instead of being waited out silently.
func TestWaitReturnsRetryAfterAboveCap(t *testing.T) {
	t.Parallel()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"),
		option.WithTransport(rateLimitedRT{}), option.WithMaxRetryAfter(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	start := time.Now()
	_, err = c.Evals.Runs.Wait(ctx, "prj", "run")
	if !errors.Is(err, projectops.ErrRateLimited) {
		t.Fatalf("err = %v, want the RATE_LIMITED error", err)
	}
	if e, _ := err.(*projectops.Error); e == nil || e.RetryAfter != time.Hour {
		t.Errorf("err = %#v, want RetryAfter 1h", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Wait took %s", d)
	}
}
