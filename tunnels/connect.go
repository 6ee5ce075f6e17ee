package tunnels

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrConnectTimeout matches (errors.Is) the error of a connection attempt
// that was not routed to within the connect timeout (see
// WithConnectTimeout): told to OnConnectError, and Serve's error when it
// gives up after it. The error also reports Timeout() true, as a
// net.Error does.
var ErrConnectTimeout = errors.New("tunnels: connect timed out")

// connectTimeout is the error of an attempt that ran out of its connect
// deadline: a failed dial like any other. It names the stage and the
// limit only, never the relay URL or the token the dial carried.
type connectTimeout struct {
	limit    time.Duration
	upgraded bool // the WebSocket was up; the edge's hello never came
}

func (e *connectTimeout) Error() string {
	if e.upgraded {
		return fmt.Sprintf("tunnels: timed out waiting for the relay's hello after %s", e.limit)
	}
	return fmt.Sprintf("tunnels: timed out waiting for the relay to accept the connection after %s", e.limit)
}

// Is matches ErrConnectTimeout.
func (e *connectTimeout) Is(target error) bool { return target == ErrConnectTimeout }

// Timeout reports true: checks written for net.Error see a timeout.
func (e *connectTimeout) Timeout() bool { return true }

// Temporary reports true, as the attempt is retried; net.Error asks for
// it, so errors.As finds a net.Error.
func (e *connectTimeout) Temporary() bool { return true }

// connectDeadline bounds one attempt from its dial to the edge's hello:
// a relay that takes the connection and never answers the upgrade, or
// upgrades and never says hello (answering pings all along), would
// otherwise hold Serve for good. The bound is per attempt, this SDK's
// choice: the service's agent times its whole first connect (and a
// renewal's) once, retried dials included, and gives up; its redials
// after a drop have none. Running out cancels the attempt's context,
// which aborts the dial or closes the session.
type connectDeadline struct {
	limit  time.Duration
	timer  *time.Timer
	ctx    context.Context
	cancel context.CancelCauseFunc
}

var errConnectDeadline = errors.New("tunnels: connect deadline passed")

// startConnect starts the deadline of an attempt made under ctx; the
// attempt runs under its Context. Stop it with end.
func startConnect(ctx context.Context, limit time.Duration) *connectDeadline {
	c := &connectDeadline{limit: limit}
	c.ctx, c.cancel = context.WithCancelCause(ctx)
	c.timer = time.AfterFunc(limit, func() { c.cancel(errConnectDeadline) })
	return c
}

// routed reports that the hello came: the deadline no longer applies.
// False if it came too late: the attempt is torn down (cancelled here
// too, so err sees it whichever goroutine gets there first).
func (c *connectDeadline) routed() bool {
	if c.timer.Stop() {
		return true
	}
	c.cancel(errConnectDeadline)
	return false
}

// err is the timeout error if the deadline ran out, else nil.
func (c *connectDeadline) err(upgraded bool) error {
	if context.Cause(c.ctx) == errConnectDeadline {
		return &connectTimeout{limit: c.limit, upgraded: upgraded}
	}
	return nil
}

// end releases the timer and the attempt's context.
func (c *connectDeadline) end() {
	c.timer.Stop()
	c.cancel(nil)
}
