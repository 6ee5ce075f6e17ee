package tunnels

import "time"

// WithClock makes Serve read the host's time from now where it judges a
// refused connect token's expiry (moved by the service's Date, when the
// listing has one) and how far apart renewals are: the tests pass the
// double's settable clock.
func WithClock(now func() time.Time) ServeOption {
	return func(o *serveOptions) { o.now = now }
}
