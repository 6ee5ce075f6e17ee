package option

import (
	"fmt"
	"net/http"
	"net/textproto"
	"strings"
	"time"
)

// WithHeader adds a header to every request of the client, or of the call.
// The headers the SDK sets itself are refused, the error naming the option
// to use instead: Authorization (WithAPIKey), Idempotency-Key in every
// spelling (WithIdempotencyKey), User-Agent (WithUserAgent), and
// Content-Type, Content-Length, Accept, Host and X-Projectops-Retry-Count.
// So are Connection, Keep-Alive, Proxy-Connection, TE, Transfer-Encoding
// and Upgrade, connection-specific fields that net/http manages (over
// HTTP/2, which the service speaks, it drops some and fails on others),
// and Trailer, which net/http sends only from http.Request.Trailer;
// for connections closed after each request, give WithHTTPClient an
// http.Transport with DisableKeepAlives set instead of Connection: close.
// A name that is not an HTTP token and a value with a control character
// (a line break could smuggle a header) are refused too. Each refusal is
// a VALIDATION_ERROR, before anything is sent. The same checks cover
// Config.Header however an option filled it. Space around the name is
// trimmed.
//
// A value of 8 bytes or more under a credential's name (one with a word
// such as token, key, secret, auth, password, session, signature,
// credential or cookie in it: X-Proxy-Token, X-Api-Key) is replaced, in
// any spelling (escaped by any URL or JSON encoder, in part, or two
// layers deep), where an error result quotes it back: the error's
// message, details values and request id, a network failure's text, and
// Response's Header and RequestID after an error. Another header's value,
// and any value in a success's results, is left as the service sent it.
func WithHeader(key, value string) RequestOption {
	return func(c *Config) error {
		// Space around the name is the caller's typing, not the name:
		// trimmed here, where the name is stored.
		// Into a new variable: the option may be applied by several calls
		// at once (a reporter's concurrent sends share it).
		name := strings.TrimSpace(key)
		if name == "" {
			return invalid("WithHeader", "WithHeader: header name is empty")
		}
		if err := checkHeaderField("WithHeader", name, value); err != nil {
			return err
		}
		if c.Header == nil {
			c.Header = http.Header{}
		}
		c.Header.Add(name, value) // Add canonicalizes
		return nil
	}
}

// WithIdempotencyKey sends key as the call's Idempotency-Key, the same on
// every attempt. It goes out as X-Mcpjam-Idempotency-Key, the spelling the
// service reads first (and, on POST /eval-runs, the only one it reads), and
// as Idempotency-Key where a repeat is safe. Where the service deduplicates
// by it — eval-run and eval-suite creation, which get a generated key
// without this option — a write is then retried like a read and runs at
// most once.
// Other routes (a tool call, a tunnel, a host) ignore the key: it is sent
// as X-Mcpjam-Idempotency-Key alone (net/http re-sends a request carrying
// Idempotency-Key when a reused connection fails, which would run such a
// write twice), and the write is retried only when it provably did not
// run, as without it. One call only. A key longer than 256 bytes is
// refused: the service ignores such a header, and a retry would then run
// the write again.
func WithIdempotencyKey(key string) RequestOption {
	return func(c *Config) error {
		if strings.TrimSpace(key) == "" {
			return invalid("WithIdempotencyKey", "WithIdempotencyKey: idempotency key is empty")
		}
		if len(textproto.TrimString(key)) > maxIdempotencyHeader { // as sent: net/http trims a header value
			return invalid("WithIdempotencyKey", fmt.Sprintf("WithIdempotencyKey: idempotency key is over %d bytes, which the service ignores", maxIdempotencyHeader))
		}
		if !validHeaderValue(key) {
			return invalid("WithIdempotencyKey", "WithIdempotencyKey: idempotency key holds a control character")
		}
		c.IdempotencyKey = key
		return nil
	}
}

// maxIdempotencyHeader is the longest Idempotency-Key header the service
// reads (a longer one is ignored, not refused).
const maxIdempotencyHeader = 256

// WithMaxRetries sets how many times a failed request is retried after the
// first attempt (default 3; 0 sends it once).
func WithMaxRetries(n int) RequestOption {
	return func(c *Config) error {
		if n < 0 {
			return invalid("WithMaxRetries", fmt.Sprintf("WithMaxRetries: max retries is negative (%d)", n))
		}
		c.MaxRetries = &n
		return nil
	}
}

// WithRequestTimeout bounds each call, retries and their waits included.
func WithRequestTimeout(d time.Duration) RequestOption {
	return func(c *Config) error {
		if d <= 0 {
			return invalid("WithRequestTimeout", fmt.Sprintf("WithRequestTimeout: timeout is not positive (%s)", d))
		}
		c.Timeout = d
		return nil
	}
}

// WithResponseInto stores the final response's metadata in r, on success
// and on an error response alike, and a success's body. One call only; r
// must not be nil. The call resets r to the zero Response as it begins,
// so one r reused across calls describes the last call only: after a
// call refused before anything is sent (an empty id, an ended context, a
// bad option or parameter) it is zero, not the call before it.
func WithResponseInto(r *Response) RequestOption {
	return func(c *Config) error {
		if r == nil {
			return invalid("WithResponseInto", "WithResponseInto: needs a *Response to fill, not nil")
		}
		c.Response = r
		return nil
	}
}
