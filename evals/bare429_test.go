package evals_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// bare429ThenDoneRT answers the first request with a 429 whose body is not
// the {code,message} envelope (an edge's bare rate-limit answer) and every
// later one with a completed run.
type bare429ThenDoneRT struct{ n atomic.Int32 }

func (rt *bare429ThenDoneRT) RoundTrip(r *http.Request) (*http.Response, error) {
	if rt.n.Add(1) == 1 {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Request: r,
			Header: http.Header{"Retry-After": {"0"}}, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
	return &http.Response{StatusCode: http.StatusOK, Request: r,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   io.NopCloser(strings.NewReader(`{"id":"run_1","suiteId":"evs_1","status":"completed","result":"passed","source":"api","createdAt":1}`))}, nil
}

// A 429 without the envelope (an edge's bare answer) is RATE_LIMITED, as
// the official client reads it: Wait waits it out and polls on.
func TestWaitSurvivesBare429(t *testing.T) {
	t.Parallel()
	rt := &bare429ThenDoneRT{}
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"),
		option.WithTransport(rt))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	run, err := c.Evals.Runs.Wait(ctx, "prj_1", "run_1",
		evals.WithPollInterval(time.Millisecond, 5*time.Millisecond),
		evals.WithRequestOptions(option.WithMaxRetries(0)))
	if err != nil {
		t.Fatalf("Wait ended on a bare 429 after %d request(s): %v; want it waited out like RATE_LIMITED", rt.n.Load(), err)
	}
	if run.Status != evals.StatusCompleted {
		t.Fatalf("status = %s", run.Status)
	}
}
