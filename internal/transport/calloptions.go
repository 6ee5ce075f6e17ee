package transport

import (
	"context"
	"net/http"
	"slices"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/option"
)

type optionsKey struct{}

// WithOptions returns ctx carrying one call's options. Each service method
// does this once, on entry, so its helpers and its iterator's page fetches
// pass them on without a parameter of their own.
func WithOptions(ctx context.Context, opts []option.RequestOption) context.Context {
	if ctx == nil {
		// A caller bug that would panic in the first ctx.Value: Do answers
		// it with a typed error, as net/http answers "nil Context".
		ctx = context.WithValue(context.Background(), nilContextKey{}, true)
	}
	if len(opts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, optionsKey{}, opts)
}

// KeepOptions is WithOptions for a call whose requests outlive it: an
// All… iterator, whose pages are fetched when the iteration runs. It keeps
// a copy of opts, so a caller that reuses its slice once the call has
// returned (a buffer refilled for its next call, a slice shared with other
// goroutines) changes nothing it already handed out, and races with
// nothing.
func KeepOptions(ctx context.Context, opts []option.RequestOption) context.Context {
	return WithOptions(ctx, slices.Clone(opts))
}

// nilContextKey marks the stand-in for a nil context.
type nilContextKey struct{}

// callConfig applies the options ctx carries; a nil context is refused.
func callConfig(ctx context.Context) (option.Config, error) {
	if ctx == nil || ctx.Value(nilContextKey{}) != nil {
		return option.Config{}, apierr.NilContext()
	}
	opts, _ := ctx.Value(optionsKey{}).([]option.RequestOption)
	return option.ForCall(opts)
}

// recordResponse fills a WithResponseInto target after an attempt; resp is
// nil after a network error. The request id and header values pass through
// clean, as an error's RequestID does: a gateway may echo the key (or a
// secret of the request) into any of them.
func recordResponse(r *option.Response, resp *http.Response, attempt int, clean func(string) string) {
	*r = option.Response{Attempts: attempt + 1}
	if resp != nil {
		r.StatusCode, r.Header, r.RequestID = resp.StatusCode, cleanHeader(resp.Header, clean), clean(resp.Header.Get(RequestIDHeader))
	}
}

// cleanHeader is h with clean applied to every value: h itself when
// nothing changes (nearly always), else a copy, as the response's own
// header must stay as it came.
func cleanHeader(h http.Header, clean func(string) string) http.Header {
	var out http.Header
	for k, vs := range h {
		for i, v := range vs {
			if c := clean(v); c != v {
				if out == nil {
					out = h.Clone()
				}
				out[k][i] = c
			}
		}
	}
	if out == nil {
		return h
	}
	return out
}
