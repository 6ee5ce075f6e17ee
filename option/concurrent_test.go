package option_test

import (
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"
)

// One option value may be applied by many calls at once (a reporter's
// concurrent sends share its RequestOptions; a client's options are applied
// per service): applying one must not write to what it captured. The race
// detector (.ci/run) catches a write; each result is checked too.
func TestOptionsApplyConcurrently(t *testing.T) {
	var resp option.Response
	opts := []option.RequestOption{
		option.WithHeader("  X-Team  ", "blue"),
		option.WithIdempotencyKey("key-1"),
		option.WithMaxRetries(2),
		option.WithRequestTimeout(time.Second),
		option.WithResponseInto(&resp),
		option.WithAPIKey("sk_concurrent_0123456789"),
		option.WithBaseURL("https://example.test/api/v1"),
		option.WithHTTPClient(&http.Client{}),
		option.WithTransport(http.DefaultTransport),
		option.WithRetryBackoff(time.Millisecond, time.Second),
		option.WithMaxRetryAfter(time.Second),
		option.WithRateLimit(60, 5),
		option.WithLogger(slog.Default()),
		option.WithUserAgent("ua/1"),
		option.WithMaxResponseBytes(1 << 20),
		option.WithoutEnvironment(),
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			c, err := option.Apply(opts)
			if err != nil {
				t.Error(err)
				return
			}
			if got := c.Header.Get("X-Team"); got != "blue" {
				t.Errorf("X-Team = %q", got)
			}
		})
	}
	wg.Wait()
}
