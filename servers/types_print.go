package servers

import (
	"fmt"
	"log/slog"

	"github.com/projectops/projectops-go/internal/wire"
)

// A tunnel's server record holds the tunnel URL with its plaintext ?k=
// secret, exactly as the grant returned it (the service's record; evals and
// chatboxes target it like any remote server). JSON keeps it; printing and
// logging a record redact it.

// Format implements fmt.Formatter: every verb prints the record with the
// ?k= secret of its URL redacted.
func (s Server) Format(f fmt.State, verb rune) {
	type Server plain
	s.URL = wire.RedactSecretQuery(s.URL)
	s.OAuthScopes = append([]string(nil), s.OAuthScopes...)
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), Server(s))
}

// plain is Server without its methods, for Format.
type plain Server

// LogValue implements slog.LogValuer with the URL's secret redacted.
func (s Server) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", s.ID), slog.String("projectId", s.ProjectID),
		slog.String("name", s.Name), slog.String("transportType", s.TransportType),
		slog.String("url", wire.RedactSecretQuery(s.URL)), slog.Bool("useOAuth", s.UseOAuth))
}

// Format implements fmt.Formatter with the ?k= secret of ServerURL redacted.
func (r CheckOAuthResult) Format(f fmt.State, verb rune) {
	type CheckOAuthResult struct {
		UseOAuth              bool
		RequiresAuthorization bool
		EffectiveAuthMethod   string
		ServerURL             *string
	}
	c := CheckOAuthResult{UseOAuth: r.UseOAuth, RequiresAuthorization: r.RequiresAuthorization, EffectiveAuthMethod: r.EffectiveAuthMethod}
	if r.ServerURL != nil {
		u := wire.RedactSecretQuery(*r.ServerURL)
		c.ServerURL = &u
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), c)
}

// LogValue implements slog.LogValuer with the URL's secret redacted.
func (r CheckOAuthResult) LogValue() slog.Value {
	u := ""
	if r.ServerURL != nil {
		u = wire.RedactSecretQuery(*r.ServerURL)
	}
	return slog.GroupValue(slog.Bool("useOAuth", r.UseOAuth), slog.Bool("requiresAuthorization", r.RequiresAuthorization),
		slog.String("effectiveAuthMethod", r.EffectiveAuthMethod), slog.String("serverUrl", u))
}

// Format implements fmt.Formatter with the ?k= secret of URL redacted.
func (t DoctorTarget) Format(f fmt.State, verb rune) {
	type DoctorTarget targetPlain
	t.URL = wire.RedactSecretQuery(t.URL)
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), DoctorTarget(t))
}

// targetPlain is DoctorTarget without its methods, for Format.
type targetPlain DoctorTarget

// LogValue implements slog.LogValuer with the URL's secret redacted.
func (t DoctorTarget) LogValue() slog.Value {
	return slog.GroupValue(slog.String("kind", t.Kind), slog.String("scope", t.Scope),
		slog.String("projectId", t.ProjectID), slog.String("serverId", t.ServerID),
		slog.String("label", t.Label), slog.String("url", wire.RedactSecretQuery(t.URL)))
}
