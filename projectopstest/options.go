package projectopstest

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"
)

// Default rate limit of the real service: 60 requests per minute sustained,
// bursts of up to 10, per API key.
const (
	DefaultRatePerMinute = 60
	DefaultRateBurst     = 10
)

// Option configures a Server.
type Option func(*options) error

type options struct {
	clock         func() time.Time
	clockSet      bool // WithClock was given: API answers carry its Date
	perMinute     int
	burst         int
	seed          *Seed
	logger        *slog.Logger
	catalogSource func(ctx context.Context) ([]byte, error)
	ingestDiscard bool        // see WithIngestDiscard
	evals         evalOptions // evals_options.go
	env           envOptions  // computer environments (env_records.go)
	mcp           mcpOptions
	contractTB    testing.TB // see WithContractCheck
	conn          connLimits // listen_limits.go
	origins       []string   // see WithAllowedOrigins
	control       bool       // see WithControlAPI
}

func defaultOptions() options {
	return options{
		clock:     time.Now,
		perMinute: DefaultRatePerMinute,
		burst:     DefaultRateBurst,
		logger:    slog.New(slog.DiscardHandler),
	}
}

// WithClock sets the clock used for every timestamp the double writes (the
// Date header of API answers too, which the standard library would take
// from the real clock) and for the per-key rate limiter, so tests can step
// time instead of sleeping (see Clock for all it drives, and when).
//
// The rate limiter then refills only as the injected clock moves: with a
// clock that does not, a key's calls past the burst are refused for ever
// (the 429's message says so), however long a client sleeps its
// Retry-After. Step the clock, or turn the limit off with
// WithRateLimit(0, 0).
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("projectopstest: WithClock: nil clock")
		}
		o.clock, o.clockSet = now, true
		return nil
	}
}

// WithRateLimit sets the per-key token bucket: perMinute requests per
// minute sustained with bursts of burst. perMinute 0 disables rate limiting.
// The bucket refills on the double's clock: under WithClock, only as that
// clock moves.
func WithRateLimit(perMinute, burst int) Option {
	return func(o *options) error {
		if perMinute < 0 || burst < 0 || (perMinute > 0 && burst == 0) {
			return errors.New("projectopstest: WithRateLimit: perMinute and burst must be positive (perMinute 0 disables)")
		}
		o.perMinute, o.burst = perMinute, burst
		return nil
	}
}

// WithSeed populates the server from seed instead of the default workspace;
// Default then describes the seed's first organization (see Server.Default).
func WithSeed(seed *Seed) Option {
	return func(o *options) error {
		if seed == nil {
			return errors.New("projectopstest: WithSeed: nil seed")
		}
		o.seed = seed
		return nil
	}
}

// WithLogger sets the logger for request and lifecycle logs (debug level for
// each request). The default discards everything. Keys, headers and bodies
// are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("projectopstest: WithLogger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// WithHostCatalogSource sets the "live" host-compatibility catalog. src
// returns a catalog envelope as JSON (the GET /host-catalog shape; its source
// field is ignored). When src fails or returns something unusable the bundled
// snapshot is served, exactly like the real service falling back. src must
// return once its ctx ends: Close waits for a refresh in flight.
func WithHostCatalogSource(src func(ctx context.Context) ([]byte, error)) Option {
	return func(o *options) error {
		if src == nil {
			return errors.New("projectopstest: WithHostCatalogSource: nil source")
		}
		o.catalogSource = src
		return nil
	}
}

// checked is an option that sets a value once it passed a check: a value
// that fails it makes NewServer return "projectopstest: name: msg".
func checked(name string, ok bool, msg string, set func(*options)) Option {
	return func(o *options) error {
		if !ok {
			return errors.New("projectopstest: " + name + ": " + msg)
		}
		set(o)
		return nil
	}
}
