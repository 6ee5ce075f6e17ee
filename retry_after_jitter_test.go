package projectops_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"
)

// waitRecorder is a slog.Handler keeping the "wait" attribute of every
// "projectops retry" record.
type waitRecorder struct {
	mu    *sync.Mutex
	waits *[]time.Duration
}

func (h waitRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h waitRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h waitRecorder) WithGroup(string) slog.Handler            { return h }
func (h waitRecorder) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "projectops retry" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "wait" {
			h.mu.Lock()
			*h.waits = append(*h.waits, a.Value.Duration())
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

// Spec section 8: on 429, clients honour Retry-After and back off with
// jitter. The service's per-key limiter answers every caller it refuses in
// one window with the same whole-second Retry-After; callers that all come
// back at that instant are refused together again. Eight concurrent reads
// each refused once with "Retry-After: 1" must not all wait exactly 1s, and
// none less.
func TestRetryAfterWaitsAreJittered(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	refused := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		first := !refused[r.URL.Path]
		refused[r.URL.Path] = true
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if first {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"code":"RATE_LIMITED","message":"API key rate limit exceeded. Slow down and retry."}`))
			return
		}
		w.Write([]byte(`{"id":"h","name":"x"}`))
	}))
	defer srv.Close()

	var waits []time.Duration
	logger := slog.New(waitRecorder{mu: &sync.Mutex{}, waits: &waits})
	c := edgeClient(t, srv.URL+"/api/v1", option.WithLogger(logger))

	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Hosts.Get(context.Background(), "prj_1", "hst_"+string(rune('a'+i)))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if len(waits) != n {
		t.Fatalf("logged %d retry waits, want %d: %v", len(waits), n, waits)
	}
	exact := 0
	for _, w := range waits {
		if w < time.Second {
			t.Errorf("waited %v, less than the Retry-After of 1s", w)
		}
		if w == time.Second {
			exact++
		}
	}
	if exact == n {
		t.Errorf("all %d retries waited exactly Retry-After (1s), with no jitter: %v", n, waits)
	}
}
