// Package option holds the per-call options every service method takes as
// its last arguments: extra headers, an idempotency key, retry and timeout
// overrides, and the response's metadata on success.
//
//	var meta option.Response
//	host, err := client.Hosts.Get(ctx, projectID, hostID,
//		option.WithRequestTimeout(5*time.Second), option.WithResponseInto(&meta))
//	fmt.Println(meta.StatusCode, meta.RequestID)
//
// The options of a client (key, base URL, retries, ...) are set once with
// projectops.NewClient; these change one call. On an iterator (the All…
// methods) they apply to every page it fetches.
package option

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/projectops/projectops-go/shared"
)

// RequestOption changes one call. An option that cannot apply (a header the
// SDK owns, a negative retry count) fails the call with a VALIDATION_ERROR
// before anything is sent.
type RequestOption func(*CallConfig) error

// CallConfig is what the options of one call set; the SDK reads it. Zero
// fields leave the client's behaviour as it is.
type CallConfig struct {
	// Header is added to every attempt of the call.
	Header http.Header
	// IdempotencyKey is sent as Idempotency-Key on every attempt; a write
	// that carries one is retried like a read.
	IdempotencyKey string
	// MaxRetries, when set, replaces the client's retry count.
	MaxRetries *int
	// Timeout bounds the call, its retries and their waits included (each
	// page, for an iterator).
	Timeout time.Duration
	// Response receives the final response's metadata.
	Response *Response
}

// Response is the metadata of a call's final HTTP response: what go-github
// returns beside every result, for the calls that want it.
type Response struct {
	// StatusCode is the HTTP status (0 when no response arrived).
	StatusCode int
	// Header is the response's header.
	Header http.Header
	// RequestID is the service's x-request-id, for support requests.
	RequestID string
	// Attempts is how many requests the call took (1 without retries).
	Attempts int
}

// Apply runs opts on a fresh CallConfig.
func Apply(opts []RequestOption) (CallConfig, error) {
	var c CallConfig
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// owned lists the headers the SDK sets itself: a per-call header may not
// replace them (the key is a client option, never a header of one call, so
// it cannot leak into a log of call options).
var owned = map[string]bool{
	"Authorization": true, "Content-Type": true, "Content-Length": true, "Host": true,
	"Idempotency-Key": true, "Accept": true, "X-Retry-Count": true,
}

// WithHeader adds a header to the call. The headers the SDK owns
// (Authorization, Content-Type, Idempotency-Key, ...) are refused: use
// WithIdempotencyKey, or the client's options.
func WithHeader(key, value string) RequestOption {
	return func(c *CallConfig) error {
		k := http.CanonicalHeaderKey(strings.TrimSpace(key))
		if k == "" || owned[k] {
			return invalid("header", fmt.Sprintf("header %q cannot be set per call", key))
		}
		if c.Header == nil {
			c.Header = http.Header{}
		}
		c.Header.Add(k, value)
		return nil
	}
}

// WithIdempotencyKey sends key as the call's Idempotency-Key, the same on
// every attempt, so a write is retried like a read and the service runs it
// at most once. Eval-run creation gets a generated key without it.
func WithIdempotencyKey(key string) RequestOption {
	return func(c *CallConfig) error {
		if strings.TrimSpace(key) == "" {
			return invalid("idempotencyKey", "idempotency key is empty")
		}
		c.IdempotencyKey = key
		return nil
	}
}

// WithMaxRetries replaces the client's retry count for the call; 0 sends
// it once.
func WithMaxRetries(n int) RequestOption {
	return func(c *CallConfig) error {
		if n < 0 {
			return invalid("maxRetries", "max retries is negative")
		}
		c.MaxRetries = &n
		return nil
	}
}

// WithRequestTimeout bounds the call, retries and their waits included.
func WithRequestTimeout(d time.Duration) RequestOption {
	return func(c *CallConfig) error {
		if d <= 0 {
			return invalid("timeout", "timeout is not positive")
		}
		c.Timeout = d
		return nil
	}
}

// WithResponseInto stores the final response's metadata in r, on success
// and on an error response alike.
func WithResponseInto(r *Response) RequestOption {
	return func(c *CallConfig) error {
		c.Response = r
		return nil
	}
}

func invalid(field, msg string) error {
	return &shared.Error{Code: shared.CodeValidation, Message: msg, Details: map[string]any{"field": field}}
}
