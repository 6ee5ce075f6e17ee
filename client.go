package projectops

import (
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/clientcfg"
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

// Version is the SDK version sent in the User-Agent.
const Version = "0.1.0"

// Client is the entry point to the API. Its services share one transport;
// a Client is safe for concurrent use and should be reused. Build it with
// NewClient. The zero Client's services are nil pointers: a call of one
// fails with a VALIDATION_ERROR ("unconfigured client") without sending
// anything, except Evals.Runs and Evals.Suites, which are fields read
// through the nil Evals and panic as any such read does. String, BaseURL
// and CloseIdleConnections take a zero or nil *Client too.
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

// NewClient builds a Client from options of package option. Without
// options it reads PROJECTOPS_API_KEY and PROJECTOPS_BASE_URL and talks to
// option.DefaultBaseURL. A client without a key can still read the public
// host catalog; other calls then fail with UNAUTHORIZED before sending
// anything. An option of one call (WithIdempotencyKey, WithResponseInto)
// is refused here.
//
// A program that needs one service only can build it alone, with the same
// options, from its package's NewService: it then links none of the
// others.
func NewClient(opts ...option.RequestOption) (*Client, error) {
	t, err := clientcfg.Transport(opts)
	if err != nil {
		return nil, err
	}
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

// CloseIdleConnections closes the client's idle keep-alive connections, as
// http.Client.CloseIdleConnections does: a program that makes many clients,
// or a test that checks for goroutine leaks, calls it when done with one
// (a connection otherwise lingers until its idle timeout). Calls in flight
// are not affected, and the client stays usable. With WithHTTPClient or
// WithTransport it closes that client's or transport's idle connections
// (an http.Client without a Transport uses http.DefaultTransport, which the
// whole process shares).
func (c *Client) CloseIdleConnections() {
	if hc := c.tr().HTTPClient(); hc != nil { // nil: a zero or nil Client, which has none
		hc.CloseIdleConnections()
	}
}

// BaseURL returns the base URL the client sends requests to ("" for a
// zero or nil Client).
func (c *Client) BaseURL() string { return c.tr().BaseURL() }

// String describes the client without its key.
func (c *Client) String() string { return "projectops.Client{" + c.tr().String() + "}" }

// tr is c's transport; nil for a nil c, whose methods then act as a
// zero Client's (the Transport's methods take a nil receiver).
func (c *Client) tr() *transport.Transport {
	if c == nil {
		return nil
	}
	return c.t
}

// GoString is String, so %#v never shows the key either.
func (c *Client) GoString() string { return c.String() }
