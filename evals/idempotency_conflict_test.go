package evals_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// A run's key given twice, as RunParams.IdempotencyKey and as
// option.WithIdempotencyKey, must be one key: two different ones are
// refused before anything is sent (the service would read the header's
// alone, and a caller deduplicating by the params' key would start a
// second run); the same key twice is sent.
func TestCreateRefusesTwoIdempotencyKeys(t *testing.T) {
	t.Parallel()
	var sent atomic.Int32
	var header atomic.Value
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		header.Store(r.Header.Get("X-Mcpjam-Idempotency-Key"))
		return &http.Response{StatusCode: 202, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"runId":"run","suiteId":"s","status":"running","caseUpsert":{}}`)), Request: r}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt),
		option.WithBaseURL("https://api.example/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	p := evals.RunParams{SuiteID: "s", IdempotencyKey: "p1"}
	_, err = c.Evals.Runs.Create(t.Context(), "prj", p, option.WithIdempotencyKey("o1"))
	if !errors.Is(err, projectops.ErrValidation) || sent.Load() != 0 {
		t.Errorf("two keys: %v, %d requests sent; want a VALIDATION_ERROR and none", err, sent.Load())
	}
	if _, err := c.Evals.Runs.Create(t.Context(), "prj", p, option.WithIdempotencyKey("p1")); err != nil ||
		sent.Load() != 1 || header.Load() != "p1" {
		t.Errorf("the same key twice: %v, %d sent, header %v", err, sent.Load(), header.Load())
	}
}
