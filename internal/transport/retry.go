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
// error, connection refused, a DNS failure), or an HTTP/2 peer declared the
// stream unprocessed (h2Unprocessed).
func NotSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || h2Unprocessed(err) {
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

// h2CannotRetry starts the error net/http's HTTP/2 client returns when it
// would re-send a request itself but cannot rewind its body (a write that
// may not run twice has no GetBody); the cause follows in brackets.
const h2CannotRetry = "http2: Transport: cannot retry err ["

// h2Unprocessed reports whether err is that error for a cause by which the
// peer promises it did not process the request (RFC 9113 section 8.7): a
// stream refused with REFUSED_STREAM, a graceful GOAWAY whose last stream
// is below the request's, or a connection that could not take the stream.
// Such a request is safe to send again. The other cause net/http would
// re-send on, a PROTOCOL_ERROR reset, may come after the request ran, so it
// stays unproven. net/http formats the cause into the text, hence the
// string match.
func h2Unprocessed(err error) bool {
	msg := err.Error()
	i := strings.Index(msg, h2CannotRetry)
	if i < 0 {
		return false
	}
	cause, _, ok := strings.Cut(msg[i+len(h2CannotRetry):], "]")
	return ok && ((strings.HasSuffix(cause, "; REFUSED_STREAM") || strings.Contains(cause, "; REFUSED_STREAM; ")) ||
		cause == "http2: Transport received Server's graceful shutdown GOAWAY" ||
		cause == "http2: client conn not usable")
}
