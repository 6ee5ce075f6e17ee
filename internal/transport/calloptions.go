package transport

import (
	"context"
	"net/http"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/option"
)

type optionsKey struct{}

// callOptions is one call's options as applied where the call begins.
type callOptions struct {
	cfg option.Config
	err error // ForCall's refusal, which Do returns in its turn
	// targets holds every WithResponseInto target among the options (see
	// option.Config.ResetResponses): &cfg, or after a refusal, which stops
	// ForCall before the options after it, a Config of them all.
	targets *option.Config
}

// WithOptions returns ctx carrying one call's options. Each service method
// does this on entry, before any check of its own, so its helpers and its
// iterator's page fetches pass them on without a parameter of their own.
// The options are applied here, once: every WithResponseInto target is
// reset to the zero Response at once, so a call refused before anything
// is sent (an empty id, a context already ended, a bad limit, a bad
// option) leaves it describing that call, not the one before. An option's
// refusal waits for Do, which reports it after the caller bugs it checks
// first.
func WithOptions(ctx context.Context, opts []option.RequestOption) context.Context {
	if ctx == nil {
		// A caller bug that would panic in the first ctx.Value: Do answers
		// it with a typed error, as net/http answers "nil Context".
		ctx = context.WithValue(context.Background(), nilContextKey{}, true)
	}
	if len(opts) == 0 {
		return ctx
	}
	co := &callOptions{}
	co.cfg, co.err = option.ForCall(opts)
	co.targets = &co.cfg
	if co.err != nil {
		co.targets = allTargets(opts)
	}
	co.targets.ResetResponses()
	return context.WithValue(ctx, optionsKey{}, co)
}

// allTargets is opts applied past any refusal, which leaves out no
// WithResponseInto target.
func allTargets(opts []option.RequestOption) *option.Config {
	var c option.Config
	for _, o := range opts {
		if o != nil {
			_ = o(&c) // a refusal is reported elsewhere; the others still apply
		}
	}
	return &c
}

// ResetTargets resets every WithResponseInto target among opts, those
// after a refused option included: for a call that hands its options to
// others (a waiter's polls) or refuses them, so its targets describe no
// earlier call even when it sends nothing.
func ResetTargets(opts []option.RequestOption) {
	if len(opts) > 0 {
		allTargets(opts).ResetResponses()
	}
}

// shownIDKey marks a context asking Do for its response's request id as
// error text shows it (WithShownRequestID).
type shownIDKey struct{}

// WithShownRequestID returns ctx asking every Do under it to store in *id
// its last response's request id as error text shows it, cleaned of every
// secret of the call, the client's and the call's credential header
// values among them ("" after a network failure). A waiter names the id
// of a 200 it refuses in its own error: a WithResponseInto target's id is
// a success's metadata, cleaned of the request's own secrets only, and a
// gateway may echo a proxy token into it. A nil ctx is returned as it is,
// for Do to refuse.
func WithShownRequestID(ctx context.Context, id *string) context.Context {
	if ctx == nil {
		return nil
	}
	return context.WithValue(ctx, shownIDKey{}, id)
}

// shownRequestID is where ctx asks Do to store the request id as error
// text shows it (WithShownRequestID), nil for nowhere.
func shownRequestID(ctx context.Context) *string {
	id, _ := ctx.Value(shownIDKey{}).(*string)
	return id
}

// ResetResponses resets every WithResponseInto target of the call ctx
// carries (see WithOptions): an iterator does so each time it is ranged,
// so its targets describe that range's pages, or none, not an earlier
// range's.
func ResetResponses(ctx context.Context) {
	if ctx == nil {
		return
	}
	if co, _ := ctx.Value(optionsKey{}).(*callOptions); co != nil {
		co.targets.ResetResponses()
	}
}

// KeepOptions is WithOptions for a call whose requests outlive it: an
// All… iterator, whose pages are fetched when the iteration runs. As
// WithOptions applies the options at once, a caller that reuses its slice
// once the call has returned changes nothing it already handed out.
func KeepOptions(ctx context.Context, opts []option.RequestOption) context.Context {
	return WithOptions(ctx, opts)
}

// nilContextKey marks the stand-in for a nil context.
type nilContextKey struct{}

// callConfig is the call's options as WithOptions applied them; a nil
// context is refused.
func callConfig(ctx context.Context) (option.Config, error) {
	if ctx == nil || ctx.Value(nilContextKey{}) != nil {
		return option.Config{}, apierr.NilContext()
	}
	co, _ := ctx.Value(optionsKey{}).(*callOptions)
	if co == nil {
		return option.Config{}, nil
	}
	return co.cfg, co.err
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
