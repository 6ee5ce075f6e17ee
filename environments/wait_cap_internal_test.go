package environments

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/shared"
)

// A Retry-After above the client's MaxRetryAfter cap ends WaitForBuild with
// the RATE_LIMITED error, as it ends any call, instead of being waited out.
func TestWaitForBuildReturnsRetryAfterAboveCap(t *testing.T) {
	t.Parallel()
	sc := &script{resps: []func() *http.Response{
		builds("queued"),
		reply(429, `{"code":"RATE_LIMITED","message":"slow down"}`, "Retry-After", "3600"),
		builds("ready"),
	}}
	tr := transport.New(transport.Config{BaseURL: "https://api.test/api/v1", APIKey: "sk_test",
		HTTPClient: &http.Client{Transport: sc}, MaxRetryAfter: 10 * time.Second})
	s := newService(tr)
	var slept []time.Duration
	s.sleep = func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return ctx.Err()
	}
	_, err := s.WaitForBuild(t.Context(), "prj_1", "env_1", "bld_1", WithPollInterval(time.Second, 15*time.Second))
	if !errors.Is(err, shared.ErrRateLimited) {
		t.Fatalf("err = %v, want RATE_LIMITED", err)
	}
	for _, d := range slept {
		if d > 10*time.Second {
			t.Errorf("slept %s, above the 10s cap", d)
		}
	}
}
