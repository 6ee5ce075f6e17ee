// Package clientcfg turns a client's options into its transport: the one
// place the environment is read and defaults are filled, shared by
// projectops.NewClient and every package's NewService.
package clientcfg

import (
	"fmt"
	"os"

	"github.com/hashicorp/go-cleanhttp"
	"golang.org/x/time/rate"

	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
)

// Version is the SDK version sent in the User-Agent (projectops.Version
// states it to users; a test keeps the two equal).
const Version = "0.1.0"

// Transport builds the transport opts describe.
func Transport(opts []option.RequestOption) (*transport.Transport, error) {
	c, err := option.ForClient(opts)
	if err != nil {
		return nil, err
	}
	if err := applyEnvironment(&c); err != nil {
		return nil, err
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = cleanhttp.DefaultPooledClient()
		if c.Transport != nil {
			hc.Transport = c.Transport
		}
	}
	base := option.DefaultBaseURL
	if c.BaseURL != "" {
		base = c.BaseURL
	}
	ua := "projectops-go/" + Version
	if c.UserAgent != "" {
		ua = c.UserAgent + " " + ua
	}
	cfg := transport.Config{
		BaseURL:          base,
		APIKey:           c.APIKey(),
		HTTPClient:       hc,
		MaxRetries:       transport.DefaultMaxRetries,
		BaseDelay:        c.RetryBaseDelay,
		MaxDelay:         c.RetryMaxDelay,
		Logger:           c.Logger,
		UserAgent:        ua,
		Header:           c.Header,
		Timeout:          c.Timeout,
		MaxResponseBytes: c.MaxResponseBytes,
		LookupHint:       lookupHint,
	}
	if c.MaxRetries != nil {
		cfg.MaxRetries = *c.MaxRetries
	}
	if c.MaxRetryAfter != nil {
		cfg.MaxRetryAfter = *c.MaxRetryAfter
		if cfg.MaxRetryAfter == 0 {
			// WithMaxRetryAfter(0): never wait out a Retry-After (the
			// transport's zero means "default").
			cfg.MaxRetryAfter = -1
		}
	}
	if c.RatePerMinute > 0 {
		cfg.Limiter = rate.NewLimiter(rate.Limit(float64(c.RatePerMinute)/60), c.RateBurst)
	}
	return transport.New(cfg), nil
}

// applyEnvironment fills the key and base URL from the environment where
// no option set them, unless WithoutEnvironment was given; an empty
// variable counts as unset.
func applyEnvironment(c *option.Config) error {
	if c.NoEnvironment {
		return nil
	}
	if v := os.Getenv(option.EnvAPIKey); v != "" && c.APIKey() == "" {
		if err := option.WithAPIKey(v)(c); err != nil {
			return fmt.Errorf("%w (from %s)", err, option.EnvAPIKey)
		}
	}
	if v := os.Getenv(option.EnvBaseURL); v != "" && c.BaseURL == "" {
		if err := option.WithBaseURL(v)(c); err != nil {
			return fmt.Errorf("%w (from %s)", err, option.EnvBaseURL)
		}
	}
	return nil
}
