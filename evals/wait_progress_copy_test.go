package evals_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// WithProgress's fn gets a copy, as environments.WithProgress's does: a
// callback that writes to its argument changed Wait's result, and even
// when Wait ended (it tested the status fn had just overwritten).
func TestWaitProgressGetsACopy(t *testing.T) {
	var n atomic.Int32
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		body := `{"id":"run_1","suiteId":"s","status":"completed","result":"passed","source":"api","createdAt":1,"summary":{"total":1,"passed":1,"failed":0,"passRate":1}}`
		if n.Add(1) == 1 {
			body = `{"id":"run_1","suiteId":"s","status":"running","source":"api","createdAt":1,"summary":{"total":1,"passed":0,"failed":0,"passRate":0}}`
		}
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})
	svc, err := evals.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_test_0000000000"),
		option.WithBaseURL("http://api.test/api/v1"), option.WithTransport(rt))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	run, err := svc.Runs.Wait(ctx, "proj", "run_1", evals.WithPollInterval(time.Millisecond, time.Millisecond),
		evals.WithProgress(func(r *evals.Run) {
			r.Status, r.Result = "scribbled", ""
			if r.Summary != nil {
				r.Summary.Passed = 99
			}
		}))
	if err != nil {
		t.Fatalf("Wait: %v after %d polls", err, n.Load())
	}
	if run.Status != evals.StatusCompleted || !run.Passed() || run.Summary.Passed != 1 {
		t.Errorf("Wait returned %+v, summary %+v: the callback's writes leaked in", run, run.Summary)
	}
}
