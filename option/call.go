package option

import (
	"fmt"
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"time"
)

// WithHeader sets a header on every request of the client, or of the
// call, as http.Header.Set does: it replaces the values an earlier
// WithHeader or WithHeaderAdd gave the name at the same level, and a
// call's value replaces the client's for that call only. WithHeaderAdd
// adds a value instead, and WithHeaderDel drops a client's header from one
// call.
//
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
		name, err := headerName("WithHeader", key, value)
		if err != nil {
			return err
		}
		c.replaceHeader(name)
		c.Header[name] = []string{value}
		return nil
	}
}

// WithHeaderAdd adds a value to a header on every request of the client,
// or of the call, as http.Header.Add does: after the values the name has
// already, a client's among them. It refuses what WithHeader refuses, and
// a credential's value is kept out of error text as WithHeader's is.
func WithHeaderAdd(key, value string) RequestOption {
	return func(c *Config) error {
		name, err := headerName("WithHeaderAdd", key, value)
		if err != nil {
			return err
		}
		if c.Header == nil {
			c.Header = http.Header{}
		}
		c.Header[name] = append(c.Header[name], value)
		return nil
	}
}

// WithHeaderDel removes a header, as http.Header.Del does: given to a
// method, the call does not send the client's value of it (a later
// WithHeaderAdd for the call still adds one); on the client, it drops what
// earlier options set. It refuses the names WithHeader refuses: the SDK's
// own headers are not the caller's to remove.
func WithHeaderDel(key string) RequestOption {
	return func(c *Config) error {
		name, err := headerName("WithHeaderDel", key, "")
		if err != nil {
			return err
		}
		c.replaceHeader(name)
		delete(c.Header, name)
		return nil
	}
}

// headerName is key as a header option stores it: trimmed of the
// caller's typing and canonicalized, once the name and value are checked.
// It is a new variable each time: an option may be applied by several
// calls at once (a reporter's concurrent sends share it).
func headerName(by, key, value string) (string, error) {
	name := strings.TrimSpace(key)
	if name == "" {
		return "", invalid(by, by+": header name is empty")
	}
	if err := checkHeaderField(by, name, value); err != nil {
		return "", err
	}
	return http.CanonicalHeaderKey(name), nil
}

// replaceHeader drops what c's header holds under name, and notes that a
// call sends none of the client's values for it.
func (c *Config) replaceHeader(name string) {
	if c.Header == nil {
		c.Header = http.Header{}
	}
	delete(c.Header, name)
	if !slices.Contains(c.ReplaceHeader, name) {
		c.ReplaceHeader = append(c.ReplaceHeader, name)
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
// bad option or parameter) it is zero, not the call before it. Given
// several, a call resets each and fills the last.
//
// An iterator (the All… methods) resets r each time it is ranged: after
// a range r describes the last page that range fetched, zero if none.
//
// As a call writes r as it begins and as it ends, r must not be shared by
// calls that run at the same time (nor by ranges of one iterator): give
// each its own Response.
func WithResponseInto(r *Response) RequestOption {
	return func(c *Config) error {
		if r == nil {
			return invalid("WithResponseInto", "WithResponseInto: needs a *Response to fill, not nil")
		}
		if c.Response != nil && c.Response != r {
			// Replaced, so not filled, but reset all the same: the caller
			// may read it.
			c.replacedResponses = append(c.replacedResponses, c.Response)
		}
		c.Response = r
		return nil
	}
}
