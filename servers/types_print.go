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

// A doctor report's free text (a step's detail, the error's message and
// details, the probe) may quote the target URL as the service tried it, a
// tunnel's ?k= secret or a userinfo password included. JSON keeps the
// service's text; printing and logging take those secrets out
// (redactText).

// Format implements fmt.Formatter: every verb prints the report with the
// probe's text redacted, and the fields with their own Format (the
// connection, the checks, the error, the target) redacted as they print.
func (r DoctorReport) Format(f fmt.State, verb rune) {
	type DoctorReport reportPlain
	if r.Probe != nil {
		r.Probe, _ = redactAny(r.Probe).(map[string]any)
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), DoctorReport(r))
}

// reportPlain is DoctorReport without its methods, for Format.
type reportPlain DoctorReport

// Format implements fmt.Formatter with Detail redacted.
func (c Connection) Format(f fmt.State, verb rune) {
	type Connection connectionPlain
	c.Detail = redactText(c.Detail)
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), Connection(c))
}

// connectionPlain is Connection without its methods, for Format.
type connectionPlain Connection

// LogValue implements slog.LogValuer with Detail redacted.
func (c Connection) LogValue() slog.Value {
	return slog.GroupValue(slog.String("status", c.Status), slog.String("detail", redactText(c.Detail)))
}

// Format implements fmt.Formatter with Detail redacted.
func (c DoctorCheck) Format(f fmt.State, verb rune) {
	type DoctorCheck checkPlain
	c.Detail = redactText(c.Detail)
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), DoctorCheck(c))
}

// checkPlain is DoctorCheck without its methods, for Format.
type checkPlain DoctorCheck

// LogValue implements slog.LogValuer with Detail redacted.
func (c DoctorCheck) LogValue() slog.Value {
	return slog.GroupValue(slog.String("status", string(c.Status)), slog.String("detail", redactText(c.Detail)))
}

// Format implements fmt.Formatter with Message and the text in Details
// redacted.
func (e ReportError) Format(f fmt.State, verb rune) {
	type ReportError errorPlain
	e.Message, e.Details = redactText(e.Message), redactAny(e.Details)
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), ReportError(e))
}

// errorPlain is ReportError without its methods, for Format.
type errorPlain ReportError

// LogValue implements slog.LogValuer: the code, the message, redacted,
// and the status of a refused connection when known.
func (e ReportError) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("code", string(e.Code)), slog.String("message", redactText(e.Message))}
	if e.StatusCode != 0 {
		attrs = append(attrs, slog.Int("statusCode", e.StatusCode))
	}
	return slog.GroupValue(attrs...)
}

// LogValue implements slog.LogValuer. Without it slog's JSON handler
// encodes the report with encoding/json, its wire form, which keeps the
// target's URL and the free text whole. It logs each step's outcome, the
// listings' sizes, the target with its URL redacted and the error, free
// text with any ?k= secret and userinfo password redacted.
func (r DoctorReport) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.Time("generatedAt", r.GeneratedAt), slog.String("status", string(r.Status)),
		slog.Any("connection", r.Connection),
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
		attrs = append(attrs, slog.Any("error", *r.Error))
	}
	return slog.GroupValue(attrs...)
}
