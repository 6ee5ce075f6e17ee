package transport

import (
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/shared"
)

// newBackOff returns the per-call backoff: jittered exponential between the
// base and max delay. It is stateful, so each call gets its own; attempts are
// bounded by MaxRetries, not by elapsed time.
func (t *Transport) newBackOff() backoff.BackOff {
	b := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(t.baseDelay),
		backoff.WithMaxInterval(t.maxDelay),
		backoff.WithMultiplier(2),
		backoff.WithRandomizationFactor(0.5),
		backoff.WithMaxElapsedTime(0),
	)
	b.Reset()
	return b
}

// retryableStatus decides whether an error response may be retried for a
// request of class c (with or without an idempotency key).
func retryableStatus(c Class, idempotent bool, e *shared.Error) bool {
	if e.Code == shared.CodeBillingLimitReached {
		return false // lifts at the billing period's reset, whatever the status
	}
	if e.StatusCode == http.StatusTooManyRequests {
		// A refused request did not run, so any class may retry; but the
		// concurrency cap on eval runs lifts only when a run ends, which the
		// caller must decide to wait for.
		return e.Reason != shared.ReasonConcurrentRunLimit
	}
	if c == Write && !idempotent {
		return false
	}
	return apierr.RetryableStatus(e.StatusCode)
}

// retryableNetErr decides whether a transport failure may be retried. A
// non-idempotent write is retried only when the connection was never made.
// A RoundTripper marks a failure no retry can change (the double's closed
// in-process transport) with backoff.Permanent.
func retryableNetErr(c Class, idempotent bool, err error) bool {
	if _, refused := errors.AsType[*redirectRefused](err); refused {
		return false
	}
	if _, permanent := errors.AsType[*backoff.PermanentError](err); permanent {
		return false
	}
	if c != Write && c != Upload || idempotent {
		return true
	}
	return NotSent(err)
}

// NotSent reports whether err, an attempt's network error, proves the
// request never reached the server: the connection was never made (a dial
// error, connection refused, a DNS failure).
func NotSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// decimal reports whether v is digits with one decimal point among them.
func decimal(v string) bool {
	digits, point := 0, 0
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] >= '0' && v[i] <= '9':
			digits++
		case v[i] == '.':
			point++
		default:
			return false
		}
	}
	return digits > 0 && point == 1
}

// parseRetryAfter reads Retry-After as seconds (whole, or with a fraction)
// or an HTTP date.
// ok is false when the header is absent or unparsable.
func parseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	// ParseInt saturates a too-large number at MaxInt64 with ErrRange.
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil || (errors.Is(err, strconv.ErrRange) && secs > 0) {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(math.MaxInt64/time.Second) {
			// Would overflow into a negative wait (an immediate retry);
			// saturate so the MaxRetryAfter cap applies.
			return time.Duration(math.MaxInt64), true
		}
		return time.Duration(secs) * time.Second, true
	}
	if decimal(v) {
		// A fraction of a second ("1.5"), as the official client reads
		// the header (JavaScript's Number).
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
			if secs >= float64(math.MaxInt64/time.Second) {
				return time.Duration(math.MaxInt64), true
			}
			return time.Duration(secs * float64(time.Second)), true
		}
	}
	if at, err := http.ParseTime(v); err == nil {
		d := at.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}
