// Package transport is the SDK's one HTTP path: every service method builds a
// Request and calls Transport.Do, which adds auth, encodes JSON, retries by
// operation class, honours Retry-After, rate-limits, decodes errors and logs.
package transport

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"golang.org/x/time/rate"

	"github.com/projectops/projectops-go/internal/wire"
)

// Class says which failures a request may be retried after.
type Class int

const (
	// Read is a GET or a read-only POST: retried on network errors, 429 and
	// the 5xx that may pass (apierr.RetryableStatus).
	Read Class = iota
	// Write is a non-idempotent write: retried only when the request provably
	// did not run (429, connection refused), unless it carries an
	// Idempotency-Key, which makes it retryable like Read.
	Write
	// Idempotent is a write that is safe to repeat (same effect once or
	// twice): retried like Read.
	Idempotent
	// Upload is a write to a single-use URL: retried when the server
	// answered that it failed (429, a 5xx but 501 and 505: the URL is still
	// unused) or the request provably never left, never after an answer
	// that may be lost (the URL may be used up).
	Upload
)

// String implements fmt.Stringer.
func (c Class) String() string {
	switch c {
	case Read:
		return "read"
	case Write:
		return "write"
	case Idempotent:
		return "idempotent"
	case Upload:
		return "upload"
	}
	return "unknown"
}

// Request describes one API call.
type Request struct {
	Method string
	// Route is the path template relative to the base URL, with {name}
	// placeholders filled from Params in order, each path-escaped; e.g.
	// "/projects/{projectId}/hosts/{hostId}". The template (never the ids)
	// is what gets logged.
	Route  string
	Params []string
	Query  url.Values
	// Body is encoded as JSON when non-nil.
	Body any
	// Wire, when set, encodes Body with these marshalers first: request
	// types that redact themselves in MarshalJSON are sent in clear.
	Wire  *jsonv2.Marshalers
	Class Class
	// IdempotencyKey marks a route the service deduplicates by an
	// Idempotency-Key (eval-run and eval-suite creation): a key is generated once per call
	// when the caller gave none and sent on every attempt, and with it a
	// Write is retried like a read. Elsewhere a caller's key is sent but
	// changes no retry: the service ignores it there.
	IdempotencyKey bool
	// Public sends no Authorization header (the host catalog).
	Public bool
	// RawBody, when non-nil, is sent as is instead of encoding Body, with
	// ContentType (default application/json): pre-encoded ingest chunks and
	// raw artifact uploads.
	RawBody     []byte
	ContentType string
	// Release, when set, is called once nothing reads RawBody any more,
	// so its buffer can be reused: after Do has returned and every reader
	// of it handed to the RoundTripper (each attempt's body, each GetBody
	// copy) has been closed, which a RoundTripper may do after RoundTrip
	// returned, from another goroutine. It may run on that goroutine; Do
	// does not wait for it. A RoundTripper that never closes a body means
	// it is never called. Once it has run, the request's GetBody returns
	// an error instead of a copy, so a RoundTripper replaying the request
	// later never reads a reused buffer. It runs once per Do call: a
	// Request passed to Do twice is released twice. With Body and no
	// RawBody it fires for the buffer Body was encoded into. Without
	// Release, RawBody must stay unchanged for as long as the RoundTripper
	// may read it, that is, for good.
	Release func()
	// URL, when set, is the absolute target instead of base URL + Route
	// (a minted upload URL); Route then only names the call in errors and
	// logs, so the URL's capability token never appears there.
	URL string
	// OnAttempt, when set, is called after each attempt with the HTTP
	// status (0 for a network error), so callers can adapt (the ingest
	// reporter slows down while it sees 429s).
	OnAttempt func(status int)
	// OnNetError, when set, is called with the error of each attempt that
	// got no HTTP response, before OnAttempt(0), so a caller can tell an
	// attempt that provably never reached the server (NotSent) from one
	// whose answer may have been lost.
	OnNetError func(err error)
	// Legacy reads an error answer without an envelope code in the ingest
	// routes' legacy form ({ok: false, error}; see apierr.Legacy): its
	// text becomes the message, a billing refusal inside it is one, and a
	// backend refusing caseId as unknown is not retried.
	Legacy bool
	// Secrets are the request's own secret values (a token in its body),
	// taken out of what an error says and of WithResponseInto's metadata,
	// wherever they occur in any spelling (wire.RequestSecret's rule):
	// a backend or a proxy may quote the request. They are matched
	// together with the key and the credential headers' values, so that
	// none hides part of another (see callScrub).
	Secrets []string
	// Scrub, when set, redacts what an error says (its message, details,
	// legacy text and a network failure's text) after the values are
	// taken out: rules by field rather than by value (wire.SecretFields).
	Scrub func(string) string
}

// Config configures a Transport. Zero durations get the defaults below.
type Config struct {
	BaseURL    string
	APIKey     string
	HTTPClient *http.Client
	// MaxRetries is the number of retries after the first attempt.
	MaxRetries int
	// BaseDelay and MaxDelay bound the jittered exponential backoff.
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the transport waits for; a
	// longer one is returned to the caller as the typed error. Zero gets the
	// default; a negative value waits for none (only "Retry-After: 0").
	MaxRetryAfter time.Duration
	// Limiter, when set, paces every attempt (client-side rate limit).
	Limiter   *rate.Limiter
	Logger    *slog.Logger
	UserAgent string
	// Header is sent on every request (the client's header options); a
	// call's own headers go after it, replacing the names the call's
	// option.Config.ReplaceHeader holds.
	Header http.Header
	// Timeout bounds each call that sets none of its own.
	Timeout time.Duration
	// MaxResponseBytes caps a success body (default
	// DefaultMaxResponseBytes); a larger one is a
	// *shared.ResponseTooLargeError.
	MaxResponseBytes int64
	// LookupHint, when set, is asked for text to add to a network error
	// whose cause is a failed DNS lookup (a *net.DNSError) of the host it
	// is given; "" adds none. It lets the client explain a host that
	// resolves only where someone set it up (projectopstest's in-process
	// one).
	LookupHint func(host string) string
}

// Defaults, stated exactly in docs/sdk.md.
const (
	DefaultMaxRetries    = 3
	DefaultBaseDelay     = 500 * time.Millisecond
	DefaultMaxDelay      = 8 * time.Second
	DefaultMaxRetryAfter = 60 * time.Second
	// MaxErrorBody caps how much of an error response is read.
	MaxErrorBody = 64 << 10
	// RetryCountHeader carries the attempt's retry count (0 on the first).
	RetryCountHeader = "X-Projectops-Retry-Count"
	// IdempotencyHeader is the header the service dedupes writes on.
	IdempotencyHeader = "Idempotency-Key"
	// PrefixedIdempotencyHeader carries the same key: the service reads
	// it first everywhere, and on POST /eval-runs only it (its
	// server/utils/idempotency.ts readIdempotencyKey), whatever the
	// reference notes say of the bare spelling there.
	PrefixedIdempotencyHeader = "X-Mcpjam-Idempotency-Key"
	// RequestIDHeader is reflected (or generated) by the service.
	RequestIDHeader = "X-Request-Id"
)

// Transport executes Requests. It is safe for concurrent use.
//
// Its fields live behind one pointer, the embedded state. Every exported
// type holds a *Transport in an unexported field, where fmt calls no
// method (neither Format nor String), and fmt's bad-verb path (a service
// printed with %s or %q) expands the pointer it cannot format: inline, the
// client's headers (WithHeader, which may carry a proxy's token) would
// print there. One pointer further down, fmt prints only an address.
type Transport struct{ *state }

// state is a Transport's configuration; see Transport for why it is apart.
type state struct {
	base       string   // base URL without trailing slash
	baseURL    *url.URL // base parsed once, when newRequest may build on it
	baseHost   string   // a request's Host on baseURL, as net/http sets it
	key        *string  // the API key, nil when none; see keyRef
	client     *http.Client
	direct     http.RoundTripper // client's in-process transport, called directly; nil if none
	maxRetries int
	baseDelay  time.Duration
	maxDelay   time.Duration
	maxRA      time.Duration
	limiter    *rate.Limiter
	log        *slog.Logger
	ua         string
	maxBody    int64
	header     http.Header
	timeout    time.Duration
	lookupHint func(host string) string // Config.LookupHint
	// keyScrub takes the key out of text (keyScrubber), and hdrScrub the
	// key and the client's credential header values (headerSecrets,
	// TextOnly): each call's scrubber is built from hdrScrub (callScrub),
	// sharing what it made for its values. Either is nil when it has no
	// value.
	keyScrub, hdrScrub *wire.Scrubber

	// Header values built once and shared by every request (net/http
	// never modifies them). The Authorization value is returned by a func:
	// fmt prints a func field as an address, never its contents (see keyRef).
	authHeader func() []string
	uaHeader   []string

	// sleep waits d or until ctx ends; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns a Transport for cfg. cfg is assumed validated by the caller
// (the root package's NewClient).
func New(cfg Config) *Transport {
	t := &Transport{&state{
		base:       strings.TrimRight(cfg.BaseURL, "/"),
		client:     cfg.HTTPClient,
		maxRetries: cfg.MaxRetries,
		baseDelay:  orDefault(cfg.BaseDelay, DefaultBaseDelay),
		maxDelay:   orDefault(cfg.MaxDelay, DefaultMaxDelay),
		maxRA:      orDefault(cfg.MaxRetryAfter, DefaultMaxRetryAfter),
		limiter:    cfg.Limiter,
		log:        cfg.Logger,
		ua:         cfg.UserAgent,
		maxBody:    cfg.MaxResponseBytes,
		header:     cfg.Header.Clone(),
		timeout:    cfg.Timeout,
		lookupHint: cfg.LookupHint,
		sleep:      sleepCtx,
	}}
	if t.maxBody <= 0 {
		t.maxBody = DefaultMaxResponseBytes
	}
	t.baseURL, t.baseHost = parseBase(t.base)
	t.keyScrub = keyScrubber(cfg.APIKey)
	t.hdrScrub = t.keyScrub.With(wire.ScrubValues{Marker: headerMarker, Rule: wire.AnySpelling, TextOnly: true, Values: headerSecrets(t.header)})
	if cfg.APIKey != "" {
		t.key = keyRef(cfg.APIKey)
		auth := []string{"Bearer " + cfg.APIKey}
		t.authHeader = func() []string { return auth }
	}
	if t.ua != "" {
		t.uaHeader = []string{t.ua}
	}
	if t.client == nil {
		t.client = http.DefaultClient
	}
	t.direct = directTransport(t.client)
	t.client = GuardRedirects(t.client)
	if t.log == nil {
		t.log = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxRetryAfter < 0 {
		t.maxRA = 0
	}
	if t.maxDelay < t.baseDelay {
		t.maxDelay = t.baseDelay
	}
	return t
}

// configured is t's state, nil for a nil t and for a Transport not built
// by New (&Transport{}): every exported method reads t through it, so
// neither panics.
func (t *Transport) configured() *state {
	if t == nil {
		return nil
	}
	return t.state
}

// String never shows the key: a Transport printed with %v is safe to log.
func (t *Transport) String() string {
	st := t.configured()
	if st == nil {
		return "transport{unconfigured}"
	}
	key := "none"
	if st.key != nil {
		key = "set"
	}
	return "transport{base=" + st.base + " key=" + key + "}"
}

// GoString is String, so %#v is as safe as %v.
func (t *Transport) GoString() string { return t.String() }

// Format implements fmt.Formatter: every verb (%x, %d, %q, ...) prints
// String, never the fields. Its receiver is a value so that a Transport
// printed by value, whose state pointer fmt's bad-verb path would expand,
// goes through it too (fmt prints a nil *Transport as <nil>).
func (t Transport) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, t.String()) }

// LogValue implements slog.LogValuer: a logged Transport is its String.
func (t *Transport) LogValue() slog.Value { return slog.StringValue(t.String()) }

// BaseURL returns the base URL requests are sent to.
func (t *Transport) BaseURL() string {
	if st := t.configured(); st != nil {
		return st.base
	}
	return ""
}

// MaxRetryAfter is the longest Retry-After the client waits out; polling
// loops above the transport (Wait, WaitForBuild) apply the same cap.
func (t *Transport) MaxRetryAfter() time.Duration {
	if st := t.configured(); st != nil {
		return st.maxRA
	}
	return 0
}

// HasKey reports whether an API key is configured.
func (t *Transport) HasKey() bool { st := t.configured(); return st != nil && st.key != nil }

// Redact replaces the configured key in s, in any spelling error text is
// cleaned of it (keyScrubber), for callers that must echo text that might
// contain it. s is read as text: a JSON document goes through RedactJSON.
func (t *Transport) Redact(s string) string {
	st := t.configured()
	if st == nil {
		return s
	}
	return st.keyScrub.Scrub(s)
}

// RedactJSON is Redact for a JSON document, which stays JSON: no
// replacement splits an escape or takes in a quote (wire.Scrubber.ScrubRaw).
func (t *Transport) RedactJSON(s string) string {
	st := t.configured()
	if st == nil {
		return s
	}
	return st.keyScrub.ScrubRaw(s)
}

// keyRef stores the key behind a *string, a guard kept beside the state
// pointer (see Transport): were fmt ever to expand a state's fields, a
// string field would show the key, while a pointer to a string is always
// printed as an address.
func keyRef(key string) *string { return &key }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// HTTPClient returns the client requests are sent with, for the rare caller
// that needs the same HTTP stack for something else (the tunnel host's
// WebSocket, which then works over in-process transports too).
func (t *Transport) HTTPClient() *http.Client {
	if st := t.configured(); st != nil {
		return st.client
	}
	return nil
}
