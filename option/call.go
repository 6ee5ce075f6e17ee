package option

import (
	"fmt"
	"net/http"
	"net/textproto"
	"strings"
	"time"
)

// refused lists the headers an option may not set, each with why (""
// for a header the SDK sets itself, whose option the message names).
var refused = map[string]string{
	// The SDK's own (the key is WithAPIKey's, never a header, so it
	// cannot leak into a log of options).
	"Authorization": "", "Content-Type": "", "Content-Length": "", "Host": "",
	"Idempotency-Key": "", "X-Mcpjam-Idempotency-Key": "", // the key, in both spellings the service reads
	// net/http re-sends a request carrying it (as Idempotency-Key) when a
	// reused connection fails: a write the service does not deduplicate
	// would run twice.
	"X-Idempotency-Key": "",
	"Accept":            "", "X-Projectops-Retry-Count": "", "User-Agent": "",
	// Connection-specific fields (RFC 9110 section 7.6.1, RFC 9113 section
	// 8.2.2): net/http manages them, and a request carrying one over HTTP/2,
	// which the service speaks, fails inside net/http on every attempt.
	"Connection": hopByHop, "Keep-Alive": hopByHop, "Proxy-Connection": hopByHop,
	"Te": hopByHop, "Trailer": hopByHop, "Transfer-Encoding": hopByHop, "Upgrade": hopByHop,
}

// hopByHop says why a connection-specific header is refused.
const hopByHop = ": it is connection-specific (hop-by-hop), which HTTP/2 cannot carry"

// WithHeader adds a header to every request of the client, or of the call.
// The headers the SDK owns (Authorization, Content-Type, Idempotency-Key,
// User-Agent, ...) are refused: use WithAPIKey, WithIdempotencyKey or
// WithUserAgent. So are the connection-specific ones (Connection,
// Keep-Alive, Proxy-Connection, TE, Trailer, Transfer-Encoding, Upgrade),
// which net/http manages and HTTP/2 cannot carry, a name that is not an
// HTTP token, and a value with a control character (a line break could
// smuggle a header): each with a VALIDATION_ERROR, before anything is
// sent.
func WithHeader(key, value string) RequestOption {
	return func(c *Config) error {
		k := http.CanonicalHeaderKey(strings.TrimSpace(key))
		if why, ok := refused[k]; k == "" || ok {
			return invalid("WithHeader", fmt.Sprintf("WithHeader: header %q cannot be set by an option%s", key, why))
		}
		if !validHeaderName(k) || !validHeaderValue(value) {
			return invalid("WithHeader", fmt.Sprintf("WithHeader: header %q: not a valid HTTP header name and value", key))
		}
		if c.Header == nil {
			c.Header = http.Header{}
		}
		c.Header.Add(k, value)
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
// must not be nil.
func WithResponseInto(r *Response) RequestOption {
	return func(c *Config) error {
		if r == nil {
			return invalid("WithResponseInto", "WithResponseInto: needs a *Response to fill, not nil")
		}
		c.Response = r
		return nil
	}
}

// validHeaderName reports an HTTP token (RFC 9110 section 5.6.2).
func validHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return s != ""
}

// validHeaderValue reports a value net/http would send: no control
// character but the tab.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
