package tunnels

import (
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// stableAfter is how long a session must have lasted to count as healthy:
// its end restarts the backoff, and an edge restart (close 1012) after it
// is followed by an immediate reconnect.
const stableAfter = time.Second

// sessionEnd is how far one dial got.
type sessionEnd struct {
	ready  time.Time // when the edge's hello routed the session; zero if it never did
	served bool      // a req was taken in (not refused overloaded)
	err    error
}

// reconnect is Serve's wait between sessions. The interval grows with each
// session that fails, and starts over only after a healthy one (it lasted
// stableAfter or relayed a request): an edge that accepts and drops right
// after its hello is redialled with growing waits, not at the minimum
// forever. Giving up counts the failed attempts of a run (dials that fail
// before a hello, and failed renewals of the grant), which starts when
// Serve does or with the first redial after a session that got as far as
// a hello (see saw and after): such an edge is retried, not given up on.
// It is also the one record of whether a session was ever routed to,
// which decides the limit (see limit).
type reconnect struct {
	bo           *backoff.ExponentialBackOff // never stops: giving up is failingSince's business
	giveUp       time.Duration               // negative: never; zero: firstFor until routed to, then never
	firstFor     time.Duration
	routed       bool      // a session has been routed to
	failingSince time.Time // when the current run of failed attempts began
}

// healthy reports whether the session counts as healthy once it ended
// at now: it lasted stableAfter or relayed a request.
func (e sessionEnd) healthy(now time.Time) bool {
	return e.served || !e.ready.IsZero() && now.Sub(e.ready) >= stableAfter
}

func newReconnect(o *serveOptions, now time.Time) *reconnect {
	return &reconnect{bo: backoff.NewExponentialBackOff(backoff.WithInitialInterval(o.min),
		backoff.WithMaxInterval(o.max), backoff.WithMaxElapsedTime(0)), giveUp: o.giveUp, firstFor: o.firstFor,
		failingSince: now}
}

// saw records the end of an attempt at now: one that was routed to ends
// the run of failures (the next starts at now, or with the redial when
// after sets a wait first) and marks the tunnel as up
// for good. Serve calls it for every end, the ones that go on to renew the
// grant instead of waiting too, so that no path judges a tunnel that served
// as one that never came up, or counts its failures from before it served.
func (rc *reconnect) saw(e sessionEnd, now time.Time) {
	if !e.ready.IsZero() {
		rc.failingSince, rc.routed = now, true
	}
}

// after is how long to wait before the next attempt once a session (or a
// dial, or a renewal) ended at now, after saw; backoff.Stop to give up.
// Within a run the wait is cut to what is left of the limit, and Serve
// gives up only once the limit is spent: every run gets its window of
// tries, a retry at its end included, however long the backoff has grown,
// and ends at most one attempt (the connect timeout) past it.
func (rc *reconnect) after(e sessionEnd, now time.Time) time.Duration {
	connected := !e.ready.IsZero()
	stable := connected && now.Sub(e.ready) >= stableAfter
	if e.healthy(now) {
		rc.bo.Reset()
	}
	d := rc.bo.NextBackOff()
	if websocket.CloseStatus(e.err) == tunnelwire.CloseEdgeRestart && stable {
		// The edge restarts: reconnect at once, as the service's agent
		// does; an edge that keeps restarting takes the backoff.
		d = 0
	}
	if connected {
		// The run starts with the redial, not before the wait a flapping
		// edge's grown backoff set: that wait is no failed attempt.
		rc.failingSince = now.Add(d)
		return d
	}
	if limit := rc.limit(); limit > 0 {
		left := limit - rc.spent(now)
		if left <= 0 {
			return backoff.Stop
		}
		d = min(d, left)
	}
	return d
}

// spent is how long the current run of failed attempts has lasted at now.
func (rc *reconnect) spent(now time.Time) time.Duration { return now.Sub(rc.failingSince) }

// limit is how long the current run of failed dials may last; zero for
// ever. A negative giveUp retries for ever, a positive one bounds every
// run, and zero bounds only the runs before the first session (firstFor).
func (rc *reconnect) limit() time.Duration {
	switch {
	case rc.giveUp < 0:
		return 0
	case rc.giveUp == 0 && !rc.routed:
		return rc.firstFor
	}
	return rc.giveUp
}
