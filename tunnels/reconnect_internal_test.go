package tunnels

import (
	"errors"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// The waits are read off the backoff itself, the clock passed in: no
// timing. With jitter 0.5 a wait lies within [0.5, 1.5] of its interval,
// so one over 1.5×min shows the interval grew.
const testMin = 100 * time.Millisecond

func testReconnect(giveUp time.Duration) (*reconnect, time.Time) {
	o := defaultServeOptions()
	o.min, o.max, o.giveUp = testMin, time.Hour, giveUp
	start := time.Unix(1_000_000, 0)
	return newReconnect(&o, start), start
}

var errDropped = errors.New("dropped")

// step is Serve's handling of an end at now: seen, then waited after.
func step(rc *reconnect, e sessionEnd, now time.Time) time.Duration {
	rc.saw(e, now)
	return rc.after(e, now)
}

// An edge that accepts and drops right after its hello, every time, is
// redialled with growing waits; it was redialled at the minimum forever,
// as each hello restarted the backoff.
func TestReconnectGrowsAfterSessionsDroppedAtHello(t *testing.T) {
	rc, now := testReconnect(0)
	var d time.Duration
	for range 12 {
		d = step(rc, sessionEnd{ready: now, err: errDropped}, now)
		now = now.Add(d)
	}
	if d <= testMin*3/2 {
		t.Errorf("after 12 sessions dropped at their hello the wait is %s, want it grown past %s", d, testMin*3/2)
	}
}

// A healthy session (it lasted stableAfter, or relayed a request) starts
// the backoff over.
func TestReconnectStartsOverAfterHealthySession(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(now time.Time) sessionEnd
	}{
		{"lasted", func(now time.Time) sessionEnd { return sessionEnd{ready: now.Add(-stableAfter), err: errDropped} }},
		{"served", func(now time.Time) sessionEnd { return sessionEnd{ready: now, served: true, err: errDropped} }},
	} {
		rc, now := testReconnect(0)
		for range 12 {
			now = now.Add(step(rc, sessionEnd{err: errDropped}, now))
		}
		if d := step(rc, tc.end(now), now); d > testMin*3/2 {
			t.Errorf("%s: the wait after a healthy session is %s, want the minimum's (at most %s)", tc.name, d, testMin*3/2)
		}
	}
}

// Giving up counts failed dials since the last session that got its
// hello: an edge that keeps dropping at its hello is retried, one that
// cannot be dialled is given up on.
func TestReconnectGivesUpOnFailedDialsOnly(t *testing.T) {
	const giveUp = time.Minute
	rc, now := testReconnect(giveUp)
	for range 100 {
		d := step(rc, sessionEnd{ready: now, err: errDropped}, now)
		if d == backoff.Stop {
			t.Fatal("gave up on an edge whose sessions get their hello")
		}
		now = now.Add(d)
	}
	start := now
	for now.Sub(start) <= 2*giveUp {
		d := step(rc, sessionEnd{err: errDropped}, now)
		if d == backoff.Stop {
			return
		}
		now = now.Add(d)
	}
	t.Errorf("still redialling after %s of failed dials, with %s to give up", now.Sub(start), giveUp)
}

// With the default options (`projectops tunnel` sets no WithReconnect) an
// established tunnel whose network is down for ten minutes is redialled
// the whole time, as the service's agent redials a transient close with
// no attempt or time cap (relay-client.ts); Serve gave up after
// DefaultReconnectFor, five minutes, and the tunnel stayed down.
func TestReconnectDefaultNeverGivesUpOnEstablishedTunnel(t *testing.T) {
	o := defaultServeOptions()
	start := time.Unix(1_000_000, 0)
	rc := newReconnect(&o, start)
	up := start.Add(time.Minute) // a session routed to, which lasted an hour
	now := up.Add(time.Hour)
	if d := step(rc, sessionEnd{ready: up, err: errDropped}, now); d == backoff.Stop {
		t.Fatal("gave up at the drop")
	}
	for elapsed := time.Duration(0); elapsed < 10*time.Minute; {
		d := step(rc, sessionEnd{err: errDropped}, now.Add(elapsed)) // every dial fails
		if d == backoff.Stop {
			t.Fatalf("gave up %s after the drop", elapsed)
		}
		if d > DefaultReconnectMax*3/2 {
			t.Fatalf("waits %s, past the ceiling's %s", d, DefaultReconnectMax*3/2)
		}
		elapsed += d + time.Millisecond
	}
}

// With the default options a tunnel that never came up (every dial fails
// from the start: a wrong or unreachable relay) is given up on after
// DefaultFirstConnectFor, not before: redialling it for ever held Serve
// (and `projectops tunnel`) with no end.
func TestReconnectDefaultGivesUpOnTunnelNeverUp(t *testing.T) {
	o := defaultServeOptions()
	start := time.Unix(1_000_000, 0)
	rc := newReconnect(&o, start)
	for elapsed := time.Duration(0); ; {
		d := step(rc, sessionEnd{err: errDropped}, start.Add(elapsed))
		if d == backoff.Stop {
			if elapsed < DefaultFirstConnectFor {
				t.Fatalf("gave up after %s, before DefaultFirstConnectFor (%s)", elapsed, DefaultFirstConnectFor)
			}
			if rc.limit() != DefaultFirstConnectFor {
				t.Errorf("limit %s, want DefaultFirstConnectFor (%s)", rc.limit(), DefaultFirstConnectFor)
			}
			return
		}
		if elapsed > DefaultFirstConnectFor {
			t.Fatalf("still redialling %s after the start, past DefaultFirstConnectFor (%s)", elapsed, DefaultFirstConnectFor)
		}
		elapsed += d + time.Millisecond
	}
}

// failsFor feeds rc failed dials, each taking attempt, from start on and
// reports how long after start it gave up; ok false when it was still
// redialling after span.
func failsFor(rc *reconnect, start time.Time, span, attempt time.Duration) (gaveUpAt time.Duration, ok bool) {
	for elapsed := attempt; elapsed <= span; {
		d := step(rc, sessionEnd{err: errDropped}, start.Add(elapsed))
		if d == backoff.Stop {
			return elapsed, true
		}
		elapsed += d + attempt
	}
	return 0, false
}

// WithReconnect's giveUp, before and after the first session: negative
// retries for ever (it was bounded by DefaultFirstConnectFor before the
// first session, and a daemon started while the network was down exited),
// zero bounds only the run before the first session, positive every run.
// Each run is given up on once its limit is spent, by at most the attempt
// that overran it (here each takes the connect timeout): the last wait is
// cut to end with the limit.
func TestReconnectGiveUpBeforeAndAfterFirstSession(t *testing.T) {
	const span, attempt = 3 * time.Hour, DefaultConnectTimeout
	for _, tc := range []struct {
		giveUp      time.Duration
		routed      bool
		wantLimit   time.Duration // zero: never gives up
		description string
	}{
		{-time.Nanosecond, false, 0, "negative, before"},
		{-time.Nanosecond, true, 0, "negative, after"},
		{0, false, DefaultFirstConnectFor, "zero, before"},
		{0, true, 0, "zero, after"},
		{time.Minute, false, time.Minute, "positive, before"},
		{time.Minute, true, time.Minute, "positive, after"},
	} {
		var o serveOptions
		WithReconnect(testMin, time.Hour, tc.giveUp)(&o)
		o.firstFor = DefaultFirstConnectFor
		start := time.Unix(1_000_000, 0)
		rc := newReconnect(&o, start)
		if tc.routed {
			// A session routed to a minute in, which lasted an hour.
			up := start.Add(time.Minute)
			start = up.Add(time.Hour)
			if d := step(rc, sessionEnd{ready: up, err: errDropped}, start); d == backoff.Stop {
				t.Fatalf("%s: gave up at the drop", tc.description)
			}
		}
		at, gaveUp := failsFor(rc, start, span, attempt)
		switch {
		case tc.wantLimit == 0 && gaveUp:
			t.Errorf("%s: gave up %s into the failures, want never", tc.description, at)
		case tc.wantLimit > 0 && !gaveUp:
			t.Errorf("%s: still redialling after %s, want it given up within %s", tc.description, span, tc.wantLimit)
		case tc.wantLimit > 0 && (at < tc.wantLimit || at > tc.wantLimit+attempt || rc.limit() != tc.wantLimit):
			t.Errorf("%s: gave up %s into the failures with limit %s, want from %s to one attempt (%s) past it",
				tc.description, at, rc.limit(), tc.wantLimit, attempt)
		}
	}
}

// A routed session's end, seen on its own (Serve renews the grant after a
// close 4000 without waiting), marks the tunnel as up and starts the run
// of failures over: the failures after it were judged by the first-connect
// bound, counted from Serve's start.
func TestReconnectSawRoutedEndStartsRunOver(t *testing.T) {
	for _, giveUp := range []time.Duration{0, time.Minute} {
		rc, start := testReconnect(giveUp)
		up := start.Add(time.Minute)
		end := up.Add(time.Hour)
		rc.saw(sessionEnd{ready: up, err: errDropped}, end)
		if !rc.routed {
			t.Errorf("giveUp %s: a routed end seen left the tunnel taken for never up", giveUp)
		}
		if d := rc.after(sessionEnd{err: errDropped}, end.Add(time.Millisecond)); d == backoff.Stop {
			t.Errorf("giveUp %s: gave up at the first failure after a session that lasted an hour", giveUp)
		}
	}
}

// A min wait longer than the window: the first dial fails 2ms in, and the
// wait is cut to what is left of the window for a retry at its end, after
// which Serve gives up having spent it. It gave up at the first failure,
// 2ms into a five-minute window, saying none came up within it.
func TestReconnectWaitIsCutToTheWindow(t *testing.T) {
	var o serveOptions
	WithReconnect(time.Hour, time.Hour, 0)(&o)
	o.firstFor = DefaultFirstConnectFor
	start := time.Unix(1_000_000, 0)
	rc := newReconnect(&o, start)
	now := start.Add(2 * time.Millisecond)
	d := step(rc, sessionEnd{err: errDropped}, now)
	if want := DefaultFirstConnectFor - 2*time.Millisecond; d != want {
		t.Fatalf("wait after the first failure, 2ms in: %s, want the rest of the window, %s", d, want)
	}
	now = now.Add(d + time.Millisecond) // the retry fails
	if d := step(rc, sessionEnd{err: errDropped}, now); d != backoff.Stop {
		t.Errorf("wait after the retry at the window's end: %s, want it given up", d)
	}
	if got, want := rc.spent(now), DefaultFirstConnectFor+time.Millisecond; got != want {
		t.Errorf("spent %s, want %s", got, want)
	}
}

// A positive giveUp below the backoff ceiling, after sessions that dropped
// right after their hello (the backoff grew past the window): the run
// starts with the redial, so its first failure is retried and the run is
// given up on only once the window is spent. The wait before the redial
// counted, and the first failed dial of the run was given up on at once.
func TestReconnectFlappingEdgeGetsItsWindow(t *testing.T) {
	const window = 10 * time.Second
	var o serveOptions
	WithReconnect(250*time.Millisecond, 30*time.Second, window)(&o)
	now := time.Unix(1_000_000, 0)
	rc := newReconnect(&o, now)
	var d time.Duration
	for range 12 { // hello, dropped at once, every time
		d = step(rc, sessionEnd{ready: now, err: errDropped}, now)
		now = now.Add(d)
	}
	if d <= window {
		t.Fatalf("the wait after 12 sessions dropped at their hello is %s, want it grown past the %s window", d, window)
	}
	redial := now
	at, gaveUp := failsFor(rc, redial, time.Hour, time.Millisecond)
	if !gaveUp || at < window || at > window+time.Millisecond {
		t.Errorf("gave up %s into the run (%v), want once the %s window is spent, by one attempt at most", at, gaveUp, window)
	}
}
