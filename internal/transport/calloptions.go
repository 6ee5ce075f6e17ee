package transport

import (
	"context"
	"net/http"

	"github.com/projectops/projectops-go/option"
)

type optionsKey struct{}

// WithOptions returns ctx carrying one call's options. Each service method
// does this once, on entry, so its helpers and its iterator's page fetches
// pass them on without a parameter of their own.
func WithOptions(ctx context.Context, opts []option.RequestOption) context.Context {
	if len(opts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, optionsKey{}, opts)
}

// callConfig applies the options ctx carries.
func callConfig(ctx context.Context) (option.Config, error) {
	opts, _ := ctx.Value(optionsKey{}).([]option.RequestOption)
	return option.ForCall(opts)
}

// recordResponse fills a WithResponseInto target after an attempt; resp is
// nil after a network error.
func recordResponse(r *option.Response, resp *http.Response, attempt int) {
	*r = option.Response{Attempts: attempt + 1}
	if resp != nil {
		r.StatusCode, r.Header, r.RequestID = resp.StatusCode, resp.Header, resp.Header.Get("X-Request-Id")
	}
}
