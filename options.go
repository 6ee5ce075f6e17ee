package projectops

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// DefaultBaseURL is the hosted service. Tests and examples point the client
// at the double (projectopstest) instead.
const DefaultBaseURL = "https://app.mcpjam.com/api/v1"

// Environment variables read by NewClient unless WithoutEnvironment is given.
const (
	EnvAPIKey  = "PROJECTOPS_API_KEY"
	EnvBaseURL = "PROJECTOPS_BASE_URL"
)

// An Option configures a Client. Options that receive bad values make
// NewClient return an error; they never panic.
type Option func(*settings) error

type settings struct {
	apiKey, baseURL string
	keySet, baseSet bool
	noEnv           bool

	httpClient *http.Client
	rt         http.RoundTripper

	maxRetries          int
	baseDelay, maxDelay time.Duration
	maxRetryAfter       time.Duration

	ratePerMinute, rateBurst int

	logger    *slog.Logger
	userAgent string

	maxResponseBytes int64
}

// WithAPIKey sets the API key (it must start with "sk_"). It overrides
// PROJECTOPS_API_KEY.
func WithAPIKey(key string) Option {
	return func(s *settings) error {
		if err := checkKey(key); err != nil {
			return err
		}
		s.apiKey, s.keySet = key, true
		return nil
	}
}

// WithBaseURL sets the base URL, including the version segment (for example
// "http://127.0.0.1:8080/api/v1"). It overrides PROJECTOPS_BASE_URL.
func WithBaseURL(u string) Option {
	return func(s *settings) error {
		if err := checkBaseURL(u); err != nil {
			return err
		}
		s.baseURL, s.baseSet = u, true
		return nil
	}
}

// WithHTTPClient sets the *http.Client used for every request. The default
// is a pooled go-cleanhttp client. It cannot be combined with WithTransport.
func WithHTTPClient(c *http.Client) Option {
	return func(s *settings) error {
		if c == nil {
			return errors.New("projectops: WithHTTPClient: nil client")
		}
		s.httpClient = c
		return nil
	}
}

// WithTransport sets the http.RoundTripper under the default client: the
// double's in-process transport, httpmock, or a tracing wrapper.
func WithTransport(rt http.RoundTripper) Option {
	return func(s *settings) error {
		if rt == nil {
			return errors.New("projectops: WithTransport: nil RoundTripper")
		}
		s.rt = rt
		return nil
	}
}

// WithMaxRetries sets how many times a failed request is retried after the
// first attempt (default 3; 0 disables retries).
func WithMaxRetries(n int) Option {
	return func(s *settings) error {
		if n < 0 {
			return fmt.Errorf("projectops: WithMaxRetries: negative retries %d", n)
		}
		s.maxRetries = n
		return nil
	}
}

// WithRetryBackoff sets the jittered exponential backoff's first delay and
// its ceiling (defaults 500ms and 8s).
func WithRetryBackoff(base, max time.Duration) Option {
	return func(s *settings) error {
		if base <= 0 || max <= 0 || max < base {
			return fmt.Errorf("projectops: WithRetryBackoff: need 0 < base <= max, got %s, %s", base, max)
		}
		s.baseDelay, s.maxDelay = base, max
		return nil
	}
}

// WithMaxRetryAfter sets the longest Retry-After the client waits for before
// retrying (default 60s). A longer Retry-After is returned to the caller as
// the typed error, with Error.RetryAfter set, instead of being waited out.
// Zero waits for none: only "Retry-After: 0" is retried at once.
func WithMaxRetryAfter(d time.Duration) Option {
	return func(s *settings) error {
		if d < 0 {
			return fmt.Errorf("projectops: WithMaxRetryAfter: negative duration %s", d)
		}
		s.maxRetryAfter = d
		return nil
	}
}

// WithRateLimit paces requests on the client side so bulk work stays under
// the service's per-key limit (the service allows 60 per minute with bursts
// of 10; pass those to match it). Off by default.
func WithRateLimit(perMinute, burst int) Option {
	return func(s *settings) error {
		if perMinute <= 0 || burst <= 0 {
			return fmt.Errorf("projectops: WithRateLimit: need positive rate and burst, got %d/min, %d", perMinute, burst)
		}
		s.ratePerMinute, s.rateBurst = perMinute, burst
		return nil
	}
}

// WithLogger sets the logger for debug logs of each attempt (method, route,
// status, attempt, duration; never headers, bodies or keys). Default: none.
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) error {
		if l == nil {
			return errors.New("projectops: WithLogger: nil logger")
		}
		s.logger = l
		return nil
	}
}

// WithUserAgent prepends ua to the SDK's User-Agent.
func WithUserAgent(ua string) Option {
	return func(s *settings) error {
		if strings.ContainsAny(ua, "\r\n") {
			return errors.New("projectops: WithUserAgent: newline in user agent")
		}
		s.userAgent = ua
		return nil
	}
}

// WithoutEnvironment makes NewClient ignore PROJECTOPS_API_KEY and
// PROJECTOPS_BASE_URL.
func WithoutEnvironment() Option {
	return func(s *settings) error {
		s.noEnv = true
		return nil
	}
}

// applyEnvironment is the one place environment defaults are read. Explicit
// options win; an empty variable counts as unset.
func (s *settings) applyEnvironment() error {
	if s.noEnv {
		return nil
	}
	if v := os.Getenv(EnvAPIKey); v != "" && !s.keySet {
		if err := checkKey(v); err != nil {
			return fmt.Errorf("%w (from %s)", err, EnvAPIKey)
		}
		s.apiKey, s.keySet = v, true
	}
	if v := os.Getenv(EnvBaseURL); v != "" && !s.baseSet {
		if err := checkBaseURL(v); err != nil {
			return fmt.Errorf("%w (from %s)", err, EnvBaseURL)
		}
		s.baseURL, s.baseSet = v, true
	}
	return nil
}

// checkKey never echoes the key: error text is logged.
func checkKey(key string) error {
	switch {
	case key == "":
		return errors.New("projectops: empty API key")
	case !strings.HasPrefix(key, "sk_"):
		return errors.New(`projectops: API key must start with "sk_"`)
	case strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		// net/http refuses such header values, and the failure would be
		// retried as a network error on every call.
		return errors.New("projectops: API key contains whitespace or control characters")
	}
	return nil
}

// checkBaseURL never echoes the URL as given: it may carry credentials, a
// key in its user name or query, or be a key set in the wrong variable.
func checkBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("projectops: unparsable base URL")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("projectops: base URL needs an http or https scheme and a host")
	}
	// An empty "?" or "#" would swallow every path appended to the base.
	if u.RawQuery != "" || u.ForceQuery || strings.Contains(raw, "#") || u.User != nil {
		safe := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
		return fmt.Errorf("projectops: base URL %s must not carry credentials, a query or a fragment", safe.String())
	}
	return nil
}
