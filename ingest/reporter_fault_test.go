package ingest_test

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// 20% of append calls fail on the server, 20% more time out on the client,
// and one in seven is applied but its answer is lost: the run still ends up
// with exactly the produced rows, none lost and none duplicated.
func TestReporterUnderFaults(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeAppend, projectopstest.Fault{Status: http.StatusServiceUnavailable, Every: 5})
	rec := &recorder{next: timeoutEvery(f.srv.Transport(), 5, 3), loseEvery: 7}
	c := f.client(t, option.WithTransport(rec), option.WithMaxRetries(6))
	r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkSize = 20; o.Strict = true })
	rs := results("f", 1000, 9)
	record(t, r, rs)
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, f.srv, out.Run.RunID, rs)
	if out.Run.Summary.Total != 1000 || len(spoolFiles(t, dir)) != 0 {
		t.Errorf("summary %+v, spool %v", out.Run.Summary, spoolFiles(t, dir))
	}
	var failed, ok int
	for _, s := range routeStatuses(f.srv, routeAppend) {
		if s == 200 {
			ok++
		} else {
			failed++
		}
	}
	if failed < 10 || ok < 50 {
		t.Errorf("faults did not bite: %d failed, %d answered appends", failed, ok)
	}
}

// timeoutEvery makes every n-th request (counting from offset) hang until
// its context ends, after a short per-request timeout: a client-side
// timeout the server never applied.
func timeoutEvery(next http.RoundTripper, n, offset int) http.RoundTripper {
	var count atomic.Int64
	count.Store(int64(offset))
	return roundTrip(func(req *http.Request) (*http.Response, error) {
		if count.Add(1)%int64(n) == 0 && req.Method == http.MethodPost {
			select {
			case <-time.After(20 * time.Millisecond):
				return nil, errors.New("request timed out (client)")
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		}
		return next.RoundTrip(req)
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// While the service answers 429 the reporter sends one chunk at a time.
func TestReporterThrottlesOn429(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeAppend, projectopstest.Fault{Code: projectops.CodeRateLimited, Latency: 5 * time.Millisecond, Every: 3})
	// Retries follow a 429 here, so they must go one at a time; new chunks
	// started while throttled join that single line.
	var retries, maxRetries, maxOverall atomic.Int32
	bump := func(v *atomic.Int32, n int32) {
		for m := v.Load(); n > m && !v.CompareAndSwap(m, n); m = v.Load() {
		}
	}
	rec := &recorder{next: roundTrip(func(req *http.Request) (*http.Response, error) {
		if req.Header.Get("X-Projectops-Retry-Count") != "" {
			bump(&maxRetries, retries.Add(1))
			defer retries.Add(-1)
		}
		return f.srv.Transport().RoundTrip(req)
	})}
	rec.onStart = func(n int32) { bump(&maxOverall, n) }
	c := f.client(t, option.WithTransport(rec), option.WithMaxRetries(10))
	r, _ := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkSize = 10; o.Concurrency = 4; o.Strict = true })
	rs := results("t", 400, 0)
	record(t, r, rs)
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, f.srv, out.Run.RunID, rs)
	if m := maxOverall.Load(); m > 4 {
		t.Errorf("%d appends in flight, over Concurrency 4", m)
	}
	if m := maxRetries.Load(); m != 1 {
		t.Errorf("%d retries after 429 in flight at once, want 1", m)
	}
}
