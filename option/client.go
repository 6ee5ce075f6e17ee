package option

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
)

// DefaultBaseURL is the hosted service. Tests and examples point the client
// at the double (projectopstest) instead.
const DefaultBaseURL = "https://app.mcpjam.com/api/v1"

// Environment variables a client reads unless WithoutEnvironment is given.
// Explicit options win; an empty variable counts as unset.
const (
	EnvAPIKey  = "PROJECTOPS_API_KEY"
	EnvBaseURL = "PROJECTOPS_BASE_URL"
)

// DefaultMaxResponseBytes is the largest success body a client reads
// unless WithMaxResponseBytes says otherwise (32 MiB).
const DefaultMaxResponseBytes = 32 << 20

// WithAPIKey sets the API key (it must start with "sk_"). It overrides
// PROJECTOPS_API_KEY. A client only.
func WithAPIKey(key string) RequestOption {
	return func(c *Config) error {
		if err := checkKey(key); err != nil {
			return err
		}
		k := key // each Config its own pointer, never the closure's variable
		c.apiKey = &k
		return nil
	}
}

// WithBaseURL sets the base URL, including the version segment (for example
// "http://127.0.0.1:8080/api/v1"). It overrides PROJECTOPS_BASE_URL. A
// client only. It must be an http or https URL with a host and without
// whitespace, credentials, a query or a fragment.
func WithBaseURL(u string) RequestOption {
	return func(c *Config) error {
		if err := checkBaseURL(u); err != nil {
			return err
		}
		c.BaseURL = u
		return nil
	}
}

// WithHTTPClient sets the *http.Client used for every request. The default
// is a pooled go-cleanhttp client. It cannot be combined with
// WithTransport. A client only.
func WithHTTPClient(hc *http.Client) RequestOption {
	return func(c *Config) error {
		if hc == nil {
			return invalid("WithHTTPClient", "WithHTTPClient: nil client")
		}
		c.HTTPClient = hc
		return nil
	}
}

// WithTransport sets the http.RoundTripper under the default client: the
// double's in-process transport, httpmock, or a tracing wrapper. A client
// only.
func WithTransport(rt http.RoundTripper) RequestOption {
	return func(c *Config) error {
		if rt == nil {
			return invalid("WithTransport", "WithTransport: nil RoundTripper")
		}
		c.Transport = rt
		return nil
	}
}

// WithRetryBackoff sets the jittered exponential backoff's first delay and
// its ceiling (defaults 500ms and 8s). A client only.
func WithRetryBackoff(base, max time.Duration) RequestOption {
	return func(c *Config) error {
		if base <= 0 || max <= 0 || max < base {
			return invalid("WithRetryBackoff", fmt.Sprintf("WithRetryBackoff: need 0 < base <= max, got %s, %s", base, max))
		}
		c.RetryBaseDelay, c.RetryMaxDelay = base, max
		return nil
	}
}

// WithMaxRetryAfter sets the longest Retry-After the client waits for
// before retrying (default 60s). A longer Retry-After is returned to the
// caller as the typed error, with Error.RetryAfter set, instead of being
// waited out. Zero waits for none: only "Retry-After: 0" is retried at
// once. A client only.
func WithMaxRetryAfter(d time.Duration) RequestOption {
	return func(c *Config) error {
		if d < 0 {
			return invalid("WithMaxRetryAfter", fmt.Sprintf("WithMaxRetryAfter: negative duration %s", d))
		}
		c.MaxRetryAfter = &d
		return nil
	}
}

// WithRateLimit paces requests on the client side so bulk work stays under
// the service's per-key limit (the service allows 60 per minute with
// bursts of 10; pass those to match it). Off by default. A client only.
func WithRateLimit(perMinute, burst int) RequestOption {
	return func(c *Config) error {
		if perMinute <= 0 || burst <= 0 {
			return invalid("WithRateLimit", fmt.Sprintf("WithRateLimit: need positive rate and burst, got %d/min, %d", perMinute, burst))
		}
		c.RatePerMinute, c.RateBurst = perMinute, burst
		return nil
	}
}

// WithLogger sets the logger for debug logs of each attempt (method,
// route, status, attempt, duration; never headers, bodies or keys).
// Default: none. A client only.
func WithLogger(l *slog.Logger) RequestOption {
	return func(c *Config) error {
		if l == nil {
			return invalid("WithLogger", "WithLogger: nil logger")
		}
		c.Logger = l
		return nil
	}
}

// WithUserAgent prepends ua to the SDK's User-Agent. A client only.
func WithUserAgent(ua string) RequestOption {
	return func(c *Config) error {
		if !validHeaderValue(ua) { // net/http would refuse every request, each retried as a network error
			return invalid("WithUserAgent", "WithUserAgent: a user agent HTTP cannot carry (a control character)")
		}
		c.UserAgent = ua
		return nil
	}
}

// WithMaxResponseBytes caps the size of a success body (default
// DefaultMaxResponseBytes). A larger body fails the call with a
// *shared.ResponseTooLargeError instead of being read into memory. Error
// bodies have their own, smaller cap. A client only.
func WithMaxResponseBytes(n int64) RequestOption {
	return func(c *Config) error {
		if n <= 0 {
			return invalid("WithMaxResponseBytes", fmt.Sprintf("WithMaxResponseBytes: need a positive size, got %d", n))
		}
		c.MaxResponseBytes = n
		return nil
	}
}

// WithoutEnvironment makes the client ignore PROJECTOPS_API_KEY and
// PROJECTOPS_BASE_URL. A client only.
func WithoutEnvironment() RequestOption {
	return func(c *Config) error {
		c.NoEnvironment = true
		return nil
	}
}

// checkKey reports whether key can be an API key; it never echoes the key,
// since error text is logged.
func checkKey(key string) error {
	switch {
	case key == "":
		return invalid("WithAPIKey", "empty API key")
	case !strings.HasPrefix(key, "sk_"):
		return invalid("WithAPIKey", `API key must start with "sk_"`)
	case strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		// net/http refuses such header values, and the failure would be
		// retried as a network error on every call.
		return invalid("WithAPIKey", "API key contains whitespace or control characters")
	}
	return nil
}

// checkBaseURL reports whether raw can be a base URL. It never echoes the
// URL as given: it may carry credentials, a key in its user name or query,
// or be a key set in the wrong variable.
func checkBaseURL(raw string) error {
	// url.Parse takes a space in the path (a trailing one, pasted from a
	// config file, is easily missed) and escapes it into every request's
	// path: /api/v1%20/projects.
	if strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return invalid("WithBaseURL", "base URL contains whitespace or control characters")
	}
	u, err := url.Parse(raw)
	if err != nil {
		if !strings.Contains(raw, "://") { // "127.0.0.1:8080/api/v1" does not even parse
			return invalid("WithBaseURL", "base URL needs an http or https scheme and a host, as in http://127.0.0.1:8080/api/v1")
		}
		return invalid("WithBaseURL", "unparsable base URL")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalid("WithBaseURL", "base URL needs an http or https scheme and a host")
	}
	// An empty "?" or "#" would swallow every path appended to the base.
	if u.RawQuery != "" || u.ForceQuery || strings.Contains(raw, "#") || u.User != nil {
		safe := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
		return invalid("WithBaseURL", fmt.Sprintf("base URL %s must not carry credentials, a query or a fragment", safe.String()))
	}
	return nil
}
