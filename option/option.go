// Package option holds the SDK's options, in one style for clients and
// calls alike (as openai-go does): a RequestOption given to
// projectops.NewClient or to a package's NewService configures every call
// of that client; given to a method, after its own arguments, it changes
// that one call.
//
//	client, err := projectops.NewClient(option.WithAPIKey(key), option.WithMaxRetries(5))
//
//	var meta option.Response
//	host, err := client.Hosts.Get(ctx, projectID, hostID,
//		option.WithRequestTimeout(5*time.Second), option.WithResponseInto(&meta))
//	fmt.Println(meta.StatusCode, meta.RequestID)
//
// WithHeader, WithHeaderAdd, WithHeaderDel, WithRequestTimeout and
// WithMaxRetries apply at both levels, a call's value winning over its
// client's (as in openai-go, WithHeader replaces the client's value of
// that header for the call, WithHeaderAdd adds to it, WithHeaderDel drops
// it). The others make sense at one level only and fail at the other
// with a VALIDATION_ERROR, before anything is sent: the client's identity
// and wiring (WithAPIKey, WithBaseURL, WithHTTPClient, WithTransport,
// WithLogger, WithRateLimit, ...) cannot change per call, and
// WithIdempotencyKey and WithResponseInto name one call. On an iterator
// (the All… methods) a call's options apply to every page it fetches.
package option

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/projectops/projectops-go/shared"
)

// RequestOption configures a client or one call. An option given a bad
// value fails NewClient, or the call, with a VALIDATION_ERROR naming it; it
// never panics.
type RequestOption func(*Config) error

// Config is what the options set; the SDK reads it. Zero fields leave the
// defaults. It prints, logs and encodes as JSON (its String) without the
// API key or the headers, itself, through a pointer or as an exported
// field of a logged struct. As an unexported field, fmt (and slog's text
// handler) prints it field by field without calling its methods: the key
// shows there only as an address, but the headers show.
type Config struct {
	// Header is sent on every attempt of every call it applies to, a
	// call's values after its client's.
	Header http.Header
	// ReplaceHeader names the headers of the client that a call does not
	// send (WithHeader and WithHeaderDel fill it): the call's own values
	// for them in Header, if any, go instead. Names compare canonicalized.
	// A client's is not read.
	ReplaceHeader []string
	// MaxRetries, when set, is how many times a failed request is retried
	// after the first attempt.
	MaxRetries *int
	// Timeout bounds each call, its retries and their waits included (each
	// page, for an iterator).
	Timeout time.Duration

	// IdempotencyKey is the call's key (WithIdempotencyKey), the same on
	// every attempt, sent as X-Mcpjam-Idempotency-Key. Where the service
	// deduplicates by it (eval-run and eval-suite creation) it goes out as
	// Idempotency-Key too, and the write is then retried like a read; so it
	// does on reads and writes safe to repeat, whose retries it does not
	// change. On any other write (a tool call, a host or tunnel creation)
	// it goes out prefixed only and changes no retry: a write that may have
	// run, a 503 say, is not sent again. One call only.
	IdempotencyKey string
	// Response receives a call's final response's metadata. One call only.
	Response *Response
	// replacedResponses are the targets of WithResponseInto options that a
	// later one replaced: ResetResponses resets them with Response.
	replacedResponses []*Response

	// The client's identity and wiring; a client only.

	// BaseURL is the API's base URL, version segment included.
	BaseURL string
	// HTTPClient sends every request; it excludes Transport.
	HTTPClient *http.Client
	// Transport is the RoundTripper under the default HTTP client.
	Transport http.RoundTripper
	// RetryBaseDelay and RetryMaxDelay bound the jittered backoff.
	RetryBaseDelay, RetryMaxDelay time.Duration
	// MaxRetryAfter, when set, is the longest Retry-After waited out.
	MaxRetryAfter *time.Duration
	// RatePerMinute and RateBurst pace requests on the client side.
	RatePerMinute, RateBurst int
	// Logger receives debug logs of each attempt.
	Logger *slog.Logger
	// UserAgent is prepended to the SDK's User-Agent.
	UserAgent string
	// MaxResponseBytes caps a success body.
	MaxResponseBytes int64
	// NoEnvironment ignores PROJECTOPS_API_KEY and PROJECTOPS_BASE_URL.
	NoEnvironment bool

	// apiKey is behind a pointer: fmt prints an unexported field (a
	// Config inside a logged struct) field by field, calling no method of
	// Config's, and shows a pointer as an address, never the key.
	apiKey *string
}

// APIKey is the key WithAPIKey set ("" when none).
func (c *Config) APIKey() string {
	if c.apiKey == nil {
		return ""
	}
	return *c.apiKey
}

// String describes c without its key or its headers.
func (c Config) String() string {
	key := "unset"
	if c.APIKey() != "" {
		key = "set"
	}
	return fmt.Sprintf("option.Config{BaseURL:%q APIKey:%s}", c.BaseURL, key)
}

// GoString is String, so %#v never shows the key either.
func (c Config) GoString() string { return c.String() }

// Format implements fmt.Formatter: every verb (%d, %x, ...) prints String,
// never the fields, the key among them.
func (c Config) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue implements slog.LogValuer: a logged Config is its String, as
// slog's JSON handler would otherwise write every field, the headers
// among them. Its receiver is a pointer so that a nil *Config logs as
// such (slog reports a value method called through nil as a panic); a
// Config logged by value goes through MarshalJSON or Format instead.
func (c *Config) LogValue() slog.Value {
	if c == nil {
		return slog.StringValue("option.Config(nil)")
	}
	return slog.StringValue(c.String())
}

// MarshalJSON encodes String: a Config inside a logged struct, slice or
// map (which slog's JSON handler encodes with encoding/json, calling no
// LogValue) carries neither the key nor the headers.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// Response is the metadata of a call's final HTTP response: what go-github
// returns beside every result, for the calls that want it.
type Response struct {
	// StatusCode is the HTTP status (0 when no response arrived).
	StatusCode int
	// Header is the response's header. A value quoting a secret the
	// request carried (the API key, a secret of its body, a URL's ?k=
	// secret) has it replaced by a placeholder; after an error response,
	// so does one quoting the value of a credential header the request
	// sent (see WithHeader), which a success's header keeps as the
	// service sent it.
	Header http.Header
	// RequestID is the service's x-request-id, for support requests,
	// cleaned as Header is.
	RequestID string
	// Attempts is how many requests the call took (1 without retries).
	Attempts int
	// Body is the final success response's body as the service sent it:
	// the JSON beneath the typed result, with any field the SDK's types
	// do not model (a tool definition's extra fields, which the service
	// passes on from the MCP server as they came). It is read under the
	// client's response cap; nil after an error response.
	Body Body
}

// Format implements fmt.Formatter through a method-less copy printed with
// the same verb, so Body goes through its own Format: without it fmt's
// bad-verb path (a *Response in a slice under %s) printed the body's bytes.
func (r Response) Format(f fmt.State, verb rune) {
	type Response responsePlain
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), Response(r))
}

// responsePlain is Response without its methods, for Format.
type responsePlain Response

// Body is a response body. It prints, logs and encodes as its size only:
// a body may hold a secret the call returned (a tunnel's connect token),
// so read it with json.Unmarshal or string(body) where that is intended.
type Body []byte

// String implements fmt.Stringer: the body's size, never its bytes.
func (b Body) String() string { return fmt.Sprintf("option.Body(%d bytes)", len(b)) }

// GoString is String, for %#v.
func (b Body) GoString() string { return b.String() }

// Format implements fmt.Formatter, so every verb (%x, %q, %s) prints the
// size too.
func (b Body) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, b.String()) }

// LogValue implements slog.LogValuer.
func (b Body) LogValue() slog.Value { return slog.StringValue(b.String()) }

// MarshalJSON encodes the size as a string: a Response encoded for a log
// line carries no body (decode Body itself with json.Unmarshal).
func (b Body) MarshalJSON() ([]byte, error) { return json.Marshal(b.String()) }

// Apply runs opts on a fresh Config. Apply, ForCall and ForClient are how
// the SDK reads options; a program does not need them.
func Apply(opts []RequestOption) (Config, error) {
	if len(opts) == 0 {
		return Config{}, nil // most calls: c below escapes through o(&c)
	}
	var c Config
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

// ResetResponses sets every WithResponseInto target c was given to the
// zero Response: Response, and those a later WithResponseInto replaced.
// The SDK does so as a call begins; a program does not need it.
func (c *Config) ResetResponses() {
	for _, r := range c.replacedResponses {
		*r = Response{}
	}
	if c.Response != nil {
		*c.Response = Response{}
	}
}

// ForCall applies a call's options and refuses those of a client with a
// VALIDATION_ERROR naming the option.
func ForCall(opts []RequestOption) (Config, error) {
	c, err := Apply(opts)
	if err != nil {
		return c, err
	}
	if name := c.clientOnly(); name != "" {
		return c, invalid(name, name+" configures a client: give it to NewClient, not to one call")
	}
	return c, c.checkHeaders()
}

// ForClient applies a client's options and refuses those of one call
// (and WithHTTPClient beside WithTransport) with a VALIDATION_ERROR.
func ForClient(opts []RequestOption) (Config, error) {
	c, err := Apply(opts)
	if err != nil {
		return c, err
	}
	switch {
	case c.IdempotencyKey != "":
		return c, invalid("WithIdempotencyKey", "WithIdempotencyKey names one call: give it to the method")
	case c.Response != nil:
		return c, invalid("WithResponseInto", "WithResponseInto names one call: give it to the method")
	case c.HTTPClient != nil && c.Transport != nil:
		return c, invalid("WithHTTPClient", "WithHTTPClient and WithTransport are exclusive")
	}
	return c, c.checkHeaders()
}

// clientOnly names the first client-only option set in c ("" for none).
func (c *Config) clientOnly() string {
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"WithAPIKey", c.APIKey() != ""}, {"WithBaseURL", c.BaseURL != ""},
		{"WithHTTPClient", c.HTTPClient != nil}, {"WithTransport", c.Transport != nil},
		{"WithRetryBackoff", c.RetryBaseDelay != 0 || c.RetryMaxDelay != 0},
		{"WithMaxRetryAfter", c.MaxRetryAfter != nil}, {"WithRateLimit", c.RatePerMinute != 0},
		{"WithLogger", c.Logger != nil}, {"WithUserAgent", c.UserAgent != ""},
		{"WithMaxResponseBytes", c.MaxResponseBytes != 0}, {"WithoutEnvironment", c.NoEnvironment},
	} {
		if f.set {
			return f.name
		}
	}
	return ""
}

func invalid(field, msg string) error {
	return &shared.Error{Code: shared.CodeValidation, Message: msg, Details: map[string]any{"field": field}}
}
