package tunnels

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/shared"
)

// CreateParams is the body of Create.
type CreateParams struct {
	// Name is the server record to expose the tunnel as: trimmed (as
	// JavaScript trims), then 1 to 128 characters as UTF-16 counts them.
	// An existing record of that name is repointed at the tunnel: its url
	// is overwritten and a stdio record becomes http.
	Name string `json:"name"`
}

// Grant is everything needed to host a tunnel. Treat it as a credential: URL
// embeds the public ?k= secret and ConnectToken authenticates the relay
// connection. Printing a Grant (String, %v, %+v, %#v, slog) redacts both;
// JSON encoding keeps them, because it is the wire format.
type Grant struct {
	// ServerID is the saved server the tunnel is registered as.
	ServerID string `json:"serverId"`
	Name     string `json:"name"`
	// Existed is true when a server record of this name already existed.
	Existed bool `json:"existed"`
	// PreviousURL is the record's url before it was overwritten, when it
	// named another endpoint (origin or path; a rotated secret, other query
	// parameters, a fragment or userinfo do not count).
	PreviousURL string `json:"previousUrl,omitempty"`
	// PreviousTransportType is the record's transport before, when it
	// existed ("stdio" records are converted to "http").
	PreviousTransportType string `json:"previousTransportType,omitempty"`
	// Slug is the tunnel's stable public name; it survives re-creates.
	Slug string `json:"slug"`
	// URL is the public tunnel URL including the ?k= secret; it is also
	// stored as the server record's url. Secret.
	URL string `json:"url"`
	// ConnectToken authenticates the relay WebSocket. Secret.
	ConnectToken string `json:"connectToken"`
	// ConnectTokenExpiresAt is when ConnectToken stops being accepted for
	// new connections (an established session is not cut).
	ConnectTokenExpiresAt shared.Millis `json:"connectTokenExpiresAt,omitempty"`
	// RelayWSURL is the relay's WebSocket endpoint.
	RelayWSURL string `json:"relayWsUrl"`
	// SecretVersion grows with every create (each rotates the secret). A
	// whole number in practice; the reference types it a JSON number, so a
	// float64 decodes whatever the service sends.
	SecretVersion float64 `json:"secretVersion,omitempty"`

	// ProjectID is the project Create made the grant in, which Serve needs
	// to renew the grant (see WithRenewals). Create sets it; it is not
	// part of the wire format (JSON leaves it out), so set it on a grant
	// decoded from JSON for Serve to renew that one too.
	ProjectID string `json:"-"`
}

// Closed is the result of Close.
type Closed struct {
	ServerID string `json:"serverId"`
	// Status is "closed".
	Status string `json:"status"`
}

// StatusClosed is Closed.Status.
const StatusClosed = "closed"

const redacted = "REDACTED"

// RedactURL returns u with the value of its k query parameter (the tunnel
// secret) and any userinfo password replaced by REDACTED, for printing and
// logging; a query that does not parse is replaced whole.
func RedactURL(u string) string { return wire.RedactSecretQuery(u) }

// PublicURL is URL with its secret redacted: safe to print or log.
func (g *Grant) PublicURL() string { return RedactURL(g.URL) }

// String describes the grant without its secrets, each field under its
// own name.
func (g Grant) String() string {
	tok := "none"
	if g.ConnectToken != "" {
		tok = redacted
	}
	return "tunnels.Grant{ServerID:" + strconv.Quote(g.ServerID) + " Name:" + strconv.Quote(g.Name) +
		" Existed:" + strconv.FormatBool(g.Existed) + " PreviousURL:" + strconv.Quote(RedactURL(g.PreviousURL)) +
		" PreviousTransportType:" + strconv.Quote(g.PreviousTransportType) +
		" Slug:" + strconv.Quote(g.Slug) + " URL:" + strconv.Quote(RedactURL(g.URL)) +
		" ConnectToken:" + tok + " ConnectTokenExpiresAt:" + strconv.Quote(g.ConnectTokenExpiresAt.String()) +
		" RelayWSURL:" + strconv.Quote(g.RelayWSURL) + " SecretVersion:" + strconv.FormatFloat(g.SecretVersion, 'f', -1, 64) +
		" ProjectID:" + strconv.Quote(g.ProjectID) + "}"
}

// GoString is String, so %#v is as safe as %v.
func (g Grant) GoString() string { return g.String() }

// Format implements fmt.Formatter: every verb prints String.
func (g Grant) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, g.String()) }

// LogValue implements slog.LogValuer: every field under its JSON name,
// the connect token only as whether there is one and URLs redacted.
func (g Grant) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("serverId", g.ServerID), slog.String("name", g.Name), slog.Bool("existed", g.Existed),
		slog.String("previousUrl", RedactURL(g.PreviousURL)), slog.String("previousTransportType", g.PreviousTransportType),
		slog.String("slug", g.Slug), slog.String("url", RedactURL(g.URL)), slog.Bool("connectToken", g.ConnectToken != ""),
		slog.String("connectTokenExpiresAt", g.ConnectTokenExpiresAt.String()), slog.String("relayWsUrl", g.RelayWSURL),
		slog.Float64("secretVersion", g.SecretVersion), slog.String("projectId", g.ProjectID))
}
