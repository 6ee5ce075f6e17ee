package projectops

import (
	"errors"

	"github.com/hashicorp/go-cleanhttp"
	"golang.org/x/time/rate"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

// Version is the SDK version sent in the User-Agent.
const Version = "0.1.0"

// Client is the entry point to the API. Its services share one transport;
// a Client is safe for concurrent use and should be reused.
type Client struct {
	// Catalog reads the account, projects, chat sessions, chatboxes, the
	// host-compatibility catalog and harness built-in tools.
	Catalog *catalog.Service
	// Servers operates the servers saved in a project.
	Servers *servers.Service
	// Hosts manages a project's hosts.
	Hosts *hosts.Service
	// Ingest sends results of runs executed outside the service; see
	// ingest.NewReporter.
	Ingest *ingest.Service
	// Evals authors eval suites and creates, polls and inspects eval runs.
	Evals *evals.Service
	// Environments manages computer environments, their builds, and the
	// caller's computer (boot, reset).
	Environments *environments.Service
	// Tunnels creates, revokes and hosts relay tunnels.
	Tunnels *tunnels.Service

	t *transport.Transport
}

// NewClient builds a Client. Without options it reads PROJECTOPS_API_KEY and
// PROJECTOPS_BASE_URL and talks to DefaultBaseURL. A client without a key
// can still read the public host catalog; other calls then fail with
// UNAUTHORIZED before sending anything.
func NewClient(opts ...Option) (*Client, error) {
	s := settings{maxRetries: transport.DefaultMaxRetries, maxRetryAfter: transport.DefaultMaxRetryAfter}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&s); err != nil {
			return nil, err
		}
	}
	if err := s.applyEnvironment(); err != nil {
		return nil, err
	}
	if s.httpClient != nil && s.rt != nil {
		return nil, errors.New("projectops: WithHTTPClient and WithTransport are exclusive")
	}
	hc := s.httpClient
	if hc == nil {
		hc = cleanhttp.DefaultPooledClient()
		if s.rt != nil {
			hc.Transport = s.rt
		}
	}
	base := DefaultBaseURL
	if s.baseSet {
		base = s.baseURL
	}
	ua := "projectops-go/" + Version
	if s.userAgent != "" {
		ua = s.userAgent + " " + ua
	}
	cfg := transport.Config{
		BaseURL:       base,
		APIKey:        s.apiKey,
		HTTPClient:    hc,
		MaxRetries:    s.maxRetries,
		BaseDelay:     s.baseDelay,
		MaxDelay:      s.maxDelay,
		MaxRetryAfter: s.maxRetryAfter,
		Logger:        s.logger,
		UserAgent:     ua,

		MaxResponseBytes: s.maxResponseBytes,
	}
	if s.maxRetryAfter == 0 {
		// WithMaxRetryAfter(0): never wait out a Retry-After (the
		// transport's zero means "default").
		cfg.MaxRetryAfter = -1
	}
	if s.ratePerMinute > 0 {
		cfg.Limiter = rate.NewLimiter(rate.Limit(float64(s.ratePerMinute)/60), s.rateBurst)
	}
	t := transport.New(cfg)
	return &Client{
		Catalog:      svc.New[*catalog.Service](t),
		Servers:      svc.New[*servers.Service](t),
		Hosts:        svc.New[*hosts.Service](t),
		Environments: svc.New[*environments.Service](t),
		Evals:        svc.New[*evals.Service](t),
		Tunnels:      svc.New[*tunnels.Service](t),
		Ingest:       svc.New[*ingest.Service](t),
		t:            t,
	}, nil
}

// BaseURL returns the base URL the client sends requests to.
func (c *Client) BaseURL() string { return c.t.BaseURL() }

// String describes the client without its key.
func (c *Client) String() string { return "projectops.Client{" + c.t.String() + "}" }

// GoString is String, so %#v never shows the key either.
func (c *Client) GoString() string { return c.String() }
