package tunnels

import "time"

// WithClock makes Serve read the time from now where it judges a refused
// connect token's expiry and how far apart renewals are: the tests pass
// the double's settable clock.
func WithClock(now func() time.Time) ServeOption {
	return func(o *serveOptions) { o.now = now }
}
