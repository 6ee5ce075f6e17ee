package evals_test

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// A WaitOption from WithRequestOptions is applied when Wait runs: it keeps
// a copy of the options, so a caller that reuses its slice in between
// changes nothing.
func TestWaitRequestOptionsKeepsCallersSlice(t *testing.T) {
	t.Parallel()
	var seen atomic.Value
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		seen.Store(r.Header.Get("X-Trace"))
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"id":"run","status":"completed"}`)), Request: r}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt),
		option.WithBaseURL("https://api.example/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	opts := []option.RequestOption{option.WithHeader("X-Trace", "first")}
	wo := evals.WithRequestOptions(opts...)
	opts[0] = option.WithHeader("X-Trace", "second") // the caller reuses its slice
	if _, err := c.Evals.Runs.Wait(t.Context(), "p", "run", wo); err != nil {
		t.Fatal(err)
	}
	if got := seen.Load(); got != "first" {
		t.Errorf("Wait polled with X-Trace %v, want \"first\" (the options WithRequestOptions was given)", got)
	}
}
