package mcpops

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// Validate connects once, fresh, within the diagnostic timeout, and
// reports the session's initialization info.
func Validate(ctx context.Context, sc *Call) (ValidateResult, *edge.Error) {
	sc.asDiagnostic()
	if herr := sc.Authorize(); herr != nil {
		return ValidateResult{}, herr
	}
	conn, f := sc.dialFresh(ctx)
	if f != nil {
		return ValidateResult{}, sc.fail(f)
	}
	defer sc.l.pool.Discard(conn)
	init, _ := initAsSent(conn, sc.Target.Transport)
	return ValidateResult{ValidateResult: servers.ValidateResult{Success: true, Status: "connected"}, InitInfo: init}, nil
}

func check(st servers.CheckStatus, format string, args ...any) *servers.DoctorCheck {
	return &servers.DoctorCheck{Status: st, Detail: fmt.Sprintf(format, args...)}
}

// Doctor runs probe → connection → initialization → capabilities →
// tools, resources, resource templates, prompts. A broken server is a 200
// report with status error; only access and body problems are errors.
// The report names its target as the service's hosted doctor does: kind
// "http" (whatever the transport), scope "hosted", the label the body's
// serverName or else the server id (b may be nil), and the saved URL when
// the server has one (a stdio server has none).
func Doctor(ctx context.Context, sc *Call, b *ServerBody) (DoctorReport, *edge.Error) {
	full := doctor(ctx, sc)
	full.fillUnset()
	var fields ServerFields
	if b != nil {
		fields = b.ServerFields
	}
	full.Target = &servers.DoctorTarget{Kind: servers.DoctorTargetHTTP, Scope: servers.DoctorScopeHosted,
		ProjectID: sc.ProjectID, ServerID: sc.ServerID, Label: fields.Label(sc.ServerID)}
	if sc.Transport != servers.TransportStdio {
		full.Target.URL = sc.URL // a tunnel's holds its ?k= secret, as check-oauth's serverUrl
	}
	return full, nil
}

// doctor is Doctor's report, its listings nil where none were collected.
func doctor(ctx context.Context, sc *Call) DoctorReport {
	sc.asDiagnostic()
	var full DoctorReport
	rep := &full.DoctorReport
	full.GeneratedAt = jsISO(sc.l.cfg.Now())
	rep.Checks.Probe = check(servers.CheckSkipped, "no transport probe: the double connects directly")
	skipRest := func(why string) {
		rep.Checks.Initialization = check(servers.CheckSkipped, "%s", why)
		rep.Checks.Capabilities = check(servers.CheckSkipped, "%s", why)
		rep.Checks.Tools = check(servers.CheckSkipped, "%s", why)
		rep.Checks.Resources = check(servers.CheckSkipped, "%s", why)
		rep.Checks.ResourceTemplates = check(servers.CheckSkipped, "%s", why)
		rep.Checks.Prompts = check(servers.CheckSkipped, "%s", why)
	}
	// No pre-connect OAuth check, unlike the other operations: the
	// service's doctor connects with the caller's grant when there is one
	// and without a token otherwise, whatever the saved useOAuth says.
	sc.applyGrant()
	// Without credentials a Streamable 401 ends the service's doctor
	// before it connects: no SSE attempt either.
	sc.Target.NoSSEAfter401 = !sc.hasCredentials()
	conn, f := sc.dialFresh(ctx)
	probe := 0
	if f != nil {
		probe = f.ProbeStatus
	} else {
		probe = conn.ProbeRefusal()
	}
	if probe == http.StatusUnauthorized && !sc.hasCredentials() {
		// The service's probe found the 401 and, with no credentials
		// to go on, skips connecting, even to a server its SSE fallback
		// would have reached: the one case its report is
		// oauth_required. A 403 is a server reached.
		if conn != nil {
			sc.l.pool.Discard(conn)
		}
		skipRest("not connected")
		rep.Status = servers.DoctorOAuthRequired
		rep.Connection = servers.Connection{Status: servers.ConnectionSkipped, Detail: oauthSkippedDetail}
		rep.Checks.Connection = check(servers.CheckSkipped, oauthSkippedDetail)
		rep.Error = &servers.ReportError{Code: shared.CodeOAuthRequired, Message: oauthRequiredReportMessage}
		return full
	}
	if f != nil {
		skipRest("not connected")
		var e *servers.ReportError
		detail := ""
		if f.Kind == mcpconn.AuthRequired || (sc.grant != nil && sc.grant.failed.Load()) {
			// Refused after connecting with credentials, or with a
			// 403: the service's report carries its MCP client's auth
			// error, not the API's.
			e, detail = sc.authReportError(f.Status), authRefusedMessage(f.Status)
		} else {
			h := sc.fail(f)
			e, detail = &servers.ReportError{Code: h.Body.Code, Message: h.Body.Message, Details: h.Body.Details}, h.Body.Message
		}
		rep.Status = servers.DoctorError
		rep.Connection = servers.Connection{Status: servers.ConnectionError, Detail: detail}
		rep.Checks.Connection = check(servers.CheckError, "%s", detail)
		rep.Error = e
		return full
	}
	defer sc.l.pool.Discard(conn)
	sc.doctorConnected(ctx, conn, &full)
	return full
}

// oauthSkippedDetail is the service's word for a connection its doctor
// skipped because the server demanded OAuth of a caller with no
// credentials.
const oauthSkippedDetail = "Server requires OAuth before a connection can be established."

// oauthRequiredReportMessage is the service's message for the
// OAUTH_REQUIRED error of an oauth_required report.
const oauthRequiredReportMessage = "Server requires OAuth before it can be connected. Run an OAuth login flow first."

// authReportError is a doctor report's AUTH_ERROR for a connection the
// server refused with status (0 when unknown). The service's report
// carries its client's MCPAuthError as that error serialises: a code, a
// statusCode and a name, no message (an Error's message is not
// enumerable) and no details, so the report's message is empty and the
// text is in the connection's detail. The double leaves out the name.
func (sc *Call) authReportError(status int) *servers.ReportError {
	return &servers.ReportError{Code: servers.ReportCodeAuthError, StatusCode: status}
}

// hasCredentials reports whether the call connects with credentials the
// service's doctor counts (its hasConnectionCredentials): the caller's
// grant, or a saved header "Authorization" (else "authorization") holding
// a bearer token.
func (sc *Call) hasCredentials() bool {
	if sc.grant != nil {
		return true
	}
	// Exactly these two spellings, as the service looks the header up
	// on the saved object (getExistingAuthorization): "AUTHORIZATION" is
	// not credentials there.
	v, ok := sc.Target.Headers["Authorization"]
	if !ok {
		v = sc.Target.Headers["authorization"]
	}
	return bearerToken(v) != ""
}

// bearerToken is the token of a "Bearer <token>" value, the scheme in any
// case, or "" when v is not one: the service's doctor counts only a
// bearer header as credentials.
func bearerToken(v string) string {
	const scheme = "bearer"
	if len(v) <= len(scheme) || !strings.EqualFold(v[:len(scheme)], scheme) {
		return ""
	}
	rest := v[len(scheme):]
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsSpace(r) {
		return ""
	}
	return strings.TrimSpace(rest)
}

// authRefusedMessage says how the server refused the doctor's connection.
func authRefusedMessage(status int) string {
	if status == 0 {
		return "The server refused the connection's credentials"
	}
	return fmt.Sprintf("The server refused the connection (HTTP %d)", status)
}

// doctorConnected fills the steps after a successful connection.
func (sc *Call) doctorConnected(ctx context.Context, c *mcpconn.Conn, full *DoctorReport) {
	rep := &full.DoctorReport
	ir := c.Session.InitializeResult()
	rep.Capabilities = capsOf(c)
	full.InitInfo, full.Capabilities = initAsSent(c, sc.Target.Transport)
	over := sc.Target.Transport
	if ct := c.Transport(); ct != "" {
		over = ct // an http server reached over its SSE fallback
	}
	rep.Connection = servers.Connection{Status: servers.ConnectionConnected, Detail: "connected over " + over}
	rep.Checks.Connection = check(servers.CheckOK, "connected over %s", over)
	name := "the server"
	if ir != nil && ir.ServerInfo != nil {
		name = ir.ServerInfo.Name + " " + ir.ServerInfo.Version
	}
	version := ""
	if ir != nil {
		version = ir.ProtocolVersion
	}
	rep.Checks.Initialization = check(servers.CheckOK, "initialized %s, protocol %s", name, version)
	caps := rep.Capabilities
	var have []string
	// Logging is left out: protocol 2026-07-28 deprecates it (SEP-2577),
	// and no check of the doctor depends on it.
	for _, c := range []struct {
		name string
		ok   bool
	}{{"tools", caps.Tools != nil}, {"resources", caps.Resources != nil}, {"prompts", caps.Prompts != nil},
		{"completions", caps.Completions != nil}} {
		if c.ok {
			have = append(have, c.name)
		}
	}
	rep.Checks.Capabilities = check(servers.CheckOK, "advertised: %s", orNone(strings.Join(have, ", ")))

	// The service asks tools, resources and resource templates whatever
	// the server advertises (its client does not enforce capabilities), and
	// prompts unless the capabilities leave them out. A listing not asked,
	// or answered method not found, is its client's empty answer: an ok
	// step of none, but for resource templates, which are skipped then.
	var errs [4]*servers.ReportError // by the service's order: tools, resources, prompts, templates
	step := func(label string, ask bool, slot int, run func(ctx context.Context) (int, error)) *servers.DoctorCheck {
		if !ask {
			return check(servers.CheckOK, "0 %s: the server does not advertise them", label)
		}
		opCtx, cancel := sc.opContext(ctx)
		defer cancel()
		n, err := run(opCtx)
		if err != nil {
			f := mcpconn.Classify(err, opCtx, ctx, c)
			if f.Kind == mcpconn.Unsupported {
				if label == "resource templates" {
					return check(servers.CheckSkipped, "the server does not implement listing %s", label)
				}
				return check(servers.CheckOK, "0 %s: the server does not implement listing them", label)
			}
			h := sc.fail(f)
			errs[slot] = &servers.ReportError{Code: doctorErrorCode(h), Message: h.Body.Message}
			return check(servers.CheckError, "listing %s failed: %s", label, h.Body.Message)
		}
		return check(servers.CheckOK, "%d %s", n, label)
	}
	cs := c.Session
	// Prompts are left unasked only when the server sent capabilities
	// without them, as the service's client does.
	askPrompts := ir == nil || ir.Capabilities == nil || ir.Capabilities.Prompts != nil
	// The four go at once, as the service collects them: a server that
	// answers none costs one timeout, not four. Each writes its own
	// check, listing and error slot.
	var wg sync.WaitGroup
	wg.Go(func() { rep.Checks.Tools = step("tools", true, 0, collect(cs, &full.Tools, toolsAsSent)) })
	wg.Go(func() {
		rep.Checks.Resources = step("resources", true, 1, collect(cs, &full.Resources, resourcesAsSent))
	})
	wg.Go(func() {
		rep.Checks.ResourceTemplates = step("resource templates", true, 3, collect(cs, &full.ResourceTemplates, templatesAsSent))
	})
	wg.Go(func() { rep.Checks.Prompts = step("prompts", askPrompts, 2, collect(cs, &full.Prompts, promptsAsSent)) })
	wg.Wait()
	full.Tools, full.ToolsMetadata = splitToolsMeta(full.Tools)
	rep.Status = servers.DoctorReady
	// A partial report carries the first failed listing's error, as the
	// service's does.
	for _, e := range errs {
		if e != nil {
			rep.Status, rep.Error = servers.DoctorPartial, e
			break
		}
	}
}

// doctorErrorCode is the code the service gives a failed listing in a
// doctor report: TIMEOUT, SERVER_UNREACHABLE or else INTERNAL_ERROR. The
// service reads it off the error's message (timeout words, then
// connection words); the double's own messages are reworded, so its
// timeouts and lost connections keep their codes, and a server's message
// is read as the service reads it.
func doctorErrorCode(h *edge.Error) shared.Code {
	switch h.Body.Code {
	case shared.CodeTimeout, shared.CodeServerUnreachable:
		return h.Body.Code
	}
	m := strings.ToLower(h.Body.Message)
	switch {
	case strings.Contains(m, "timed out"), strings.Contains(m, "timeout"):
		return shared.CodeTimeout
	case strings.Contains(m, "connect"), strings.Contains(m, "refused"), strings.Contains(m, "econn"):
		return shared.CodeServerUnreachable // "connect" covers "connection"
	}
	return shared.CodeInternal
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
