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

// LogValue implements slog.LogValuer. Without it slog's JSON handler
// encodes the report with encoding/json, its wire form, which keeps the
// target's URL whole (a tunnel's ?k= secret included). It logs each step's
// outcome, the listings' sizes, the target with its URL redacted and the
// error, free text with any ?k= value redacted.
func (r DoctorReport) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.Time("generatedAt", r.GeneratedAt), slog.String("status", string(r.Status)),
		slog.Group("connection", slog.String("status", r.Connection.Status),
			slog.String("detail", wire.RedactSecretParams(r.Connection.Detail))),
	}
	var checks []any
	for _, c := range []struct {
		name  string
		check *DoctorCheck
	}{
		{"probe", r.Checks.Probe}, {"connection", r.Checks.Connection}, {"initialization", r.Checks.Initialization},
		{"capabilities", r.Checks.Capabilities}, {"tools", r.Checks.Tools}, {"resources", r.Checks.Resources},
		{"resourceTemplates", r.Checks.ResourceTemplates}, {"prompts", r.Checks.Prompts},
	} {
		if c.check != nil {
			checks = append(checks, slog.String(c.name, string(c.check.Status)))
		}
	}
	attrs = append(attrs, slog.Group("checks", checks...),
		slog.Int("tools", len(r.Tools)), slog.Int("resources", len(r.Resources)),
		slog.Int("resourceTemplates", len(r.ResourceTemplates)), slog.Int("prompts", len(r.Prompts)))
	if r.Target != nil {
		attrs = append(attrs, slog.Any("target", *r.Target))
	}
	if r.Error != nil {
		attrs = append(attrs, slog.Group("error", slog.String("code", string(r.Error.Code)),
			slog.String("message", wire.RedactSecretParams(r.Error.Message))))
	}
	return slog.GroupValue(attrs...)
}
