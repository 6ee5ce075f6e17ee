package mcpops

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// Call is one request's hold on a saved server: who asks, and how to reach
// the server, copied out of the store. Build it with Layer.Open.
type Call struct {
	UserID, ProjectID, ServerID string
	UseOAuth                    bool
	TokenURL                    string // the saved server's OAuth token endpoint, if any
	// SavedClientSecret returns the saved server's OAuth client secret (nil
	// when none): a refresh uses it when an import names the client
	// without one. A func, so a printed Call never shows the secret.
	SavedClientSecret func() string
	URL, Transport    string // as saved
	Target            mcpconn.Target

	l     *Layer
	grant *grant
	// timeout bounds each MCP operation of the call; zero is the layer's
	// Timeout.
	timeout time.Duration
}

// Open attaches c to the layer.
func (m *Layer) Open(c Call) *Call {
	c.l = m
	return &c
}

// Authorize applies the caller's imported grant: an OAuth server without a
// usable grant is 401 OAUTH_REQUIRED, before any connection is attempted.
func (sc *Call) Authorize() *edge.Error {
	if !sc.applyGrant() && sc.UseOAuth {
		// Refused before connecting, the service's answer names the
		// server for the token import that follows (serverName is
		// null: the service's layer is given none here). A tunnel
		// URL's ?k= secret is redacted: errors never carry one. A
		// server with no URL (stdio) has no serverUrl, as the
		// service's undefined is left out of its JSON.
		details := map[string]any{"oauthRequired": true, "serverId": sc.ServerID, "serverName": nil}
		if sc.URL != "" {
			details["serverUrl"] = wire.RedactSecretQuery(sc.URL)
		}
		return edge.NewError(shared.CodeOAuthRequired, oauthRequiredMsg, details)
	}
	return nil
}

// applyGrant sends the caller's usable imported grant, if any, as the
// bearer of an HTTP server's requests, and reports whether there was one.
// Without one nothing is refused: the doctor, which has no pre-connect
// check, connects without a token.
func (sc *Call) applyGrant() bool {
	sc.grant = sc.l.grant(TokenKey{sc.UserID, sc.ProjectID, sc.ServerID})
	if sc.grant != nil && sc.grant.failed.Load() {
		sc.grant = nil
	}
	if sc.grant == nil {
		return false
	}
	if sc.Target.Transport == mcpconn.TransportHTTP || sc.Target.Transport == mcpconn.TransportSSE {
		sc.Target.HTTPClient = sc.l.bearerClient(sc.grant)
	}
	return true
}

const oauthRequiredMsg = "This server needs an OAuth grant: import tokens with POST .../oauth/import-tokens"

// errOAuthRequired is an OAUTH_REQUIRED met after connecting (the MCP
// server refused the imported token, or a server saved without OAuth
// answered 401 to a caller with no grant), with no details: the double
// names the server only when it refuses before connecting.
func errOAuthRequired() *edge.Error {
	return edge.NewError(shared.CodeOAuthRequired, oauthRequiredMsg, nil)
}

// opContext bounds one MCP operation by the call's timeout and the
// layer's end.
func (sc *Call) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	d := sc.timeout
	if d <= 0 {
		d = sc.l.cfg.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	stop := context.AfterFunc(sc.l.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// Run executes op on a session for the server: the operation's own, or
// the kept one of a stdio server, an eval run's scope or
// WithPooledMCPSessions. A read (retry true) that fails because a reused
// session had died is run once more on a new session; a tool call only when the server refused its
// request for a session it no longer has (it never ran).
func (sc *Call) Run(ctx context.Context, retry bool, op func(ctx context.Context, c *mcpconn.Conn) error) *edge.Error {
	key := poolKey(sc.UserID, sc.ServerID)
	for attempt := 0; ; attempt++ {
		lease, err := sc.l.pool.Acquire(ctx, key, sc.Target)
		if err != nil {
			return sc.fail(mcpconn.Classify(err, nil, ctx, nil))
		}
		f, gone := sc.runOn(ctx, lease, op)
		if f == nil {
			return nil
		}
		if attempt == 0 && !lease.Fresh && (gone || retry && f.Kind == mcpconn.Unreachable) {
			continue
		}
		return sc.fail(f)
	}
}

// runOn runs op on lease's session and releases the lease on every path:
// an op that panics (or calls runtime.Goexit) releases it as broken (a
// kept session's state is then unknown) before the panic goes on, so its
// session is never left open. gone reports that the server no longer had
// the session op's request was sent on.
func (sc *Call) runOn(ctx context.Context, lease *mcpconn.Lease, op func(ctx context.Context, c *mcpconn.Conn) error) (f *mcpconn.Failure, gone bool) {
	opCtx, cancel := sc.opContext(ctx)
	defer cancel()
	opCtx, sent := mcpconn.TrackDelivery(opCtx)
	released := false
	defer func() {
		if !released {
			lease.Release(true)
		}
	}()
	if err := op(opCtx, lease.Conn); err != nil {
		f = mcpconn.Classify(err, opCtx, ctx, lease.Conn)
	}
	cancel()
	released = true
	if f == nil {
		lease.Release(false)
		return nil, false
	}
	gone = sent.SessionGone()
	lease.Release(gone || f.Kind == mcpconn.Unreachable || f.Kind == mcpconn.Timeout || f.Kind == mcpconn.AuthRequired)
	return f, gone
}

// asDiagnostic bounds the call's connect and each of its operations by
// the layer's diagnostic timeout, when it has one: the service bounds
// validate and doctor by its connect timeout, shorter than its call
// timeout.
func (sc *Call) asDiagnostic() {
	if d := sc.l.cfg.DiagnosticTimeout; d > 0 {
		sc.timeout = d
		sc.Target.ConnectTimeout = d
	}
}

// dialFresh opens a one-off session for a diagnostic: validate and doctor
// test the server itself, never a kept session that may predate a change.
func (sc *Call) dialFresh(ctx context.Context) (*mcpconn.Conn, *mcpconn.Failure) {
	c, err := sc.l.pool.Dial(ctx, sc.Target)
	if err != nil {
		return nil, mcpconn.Classify(err, nil, ctx, nil)
	}
	return c, nil
}

// fail maps a classified failure to the API's error, logging its kind
// (never the underlying text, which may name a command line or URL).
func (sc *Call) fail(f *mcpconn.Failure) *edge.Error {
	if sc.grant != nil && sc.grant.failed.Load() {
		f = &mcpconn.Failure{Kind: mcpconn.AuthRequired}
	}
	sc.l.cfg.Log.LogAttrs(context.Background(), slog.LevelDebug, "projectopstest mcp failure",
		slog.String("serverId", sc.ServerID), slog.Int("kind", int(f.Kind)), slog.Int64("mcpCode", f.Code))
	if f.Message != "" {
		g := *f
		g.Message = sc.scrub(f.Message)
		f = &g
	}
	details := map[string]any{"serverId": sc.ServerID}
	if f.Code != 0 || f.Answered {
		details["mcpCode"] = f.Code
	}
	if errors.Is(f.Err, errRefreshUnavailable) {
		// The grant stays, refreshed again after RefreshRetryDelay.
		return edge.NewError(shared.CodeServerUnreachable, "The server's OAuth token endpoint could not be reached to refresh the grant", details)
	}
	switch f.Kind {
	case mcpconn.Timeout, mcpconn.Canceled:
		return edge.NewError(shared.CodeTimeout, "The server did not answer in time", details)
	case mcpconn.AuthRequired:
		if f.Status == http.StatusForbidden && !sc.UseOAuth && sc.grant == nil {
			// A server saved without OAuth that refuses the double: no
			// grant to import would help, so not OAUTH_REQUIRED (the
			// service answers upstream auth refusals with 403).
			return edge.NewError(shared.CodeForbidden, "The server refused the request (HTTP 403)", details)
		}
		return errOAuthRequired()
	case mcpconn.Unsupported:
		return edge.NewError(shared.CodeFeatureNotSupported, "The server does not support this operation: "+f.Message, details)
	case mcpconn.InvalidParams:
		return edge.NewError(shared.CodeValidation, "The server rejected the request: "+f.Message, details)
	case mcpconn.NotFound:
		return edge.NewError(shared.CodeNotFound, "The server has no such resource: "+f.Message, details)
	case mcpconn.ServerError:
		// Connected and answered, so not SERVER_UNREACHABLE ("could not
		// connect"): the service's catch-all for an MCP error it has no
		// code for is 500 INTERNAL_ERROR with the server's message.
		if !f.Answered { // the double's own verdict (a repeated cursor), no JSON-RPC error
			return edge.NewError(shared.CodeInternal, "The server misbehaved: "+f.Message, details)
		}
		return edge.NewError(shared.CodeInternal, "The server answered with an error: "+f.Message, details)
	}
	return edge.NewError(shared.CodeServerUnreachable, "Could not connect to the server", details)
}

// scrub takes the saved server's secrets out of what the server said: its
// stdio env values and arguments and its raw header values (never shown,
// the spec says; a credential header's also after its scheme), its URL's
// password and tunnel k, its OAuth client secret, and the caller's imported
// grant's tokens (those refreshes replaced too), which a failing
// server may quote back and fail would otherwise pass on in an error
// envelope or a doctor report. Values under 8 bytes go only where they
// stand as whole tokens, under 4 bytes not at all (see wire.SecretScrubber).
func (sc *Call) scrub(msg string) string {
	var secrets []string
	for _, kv := range sc.Target.Env {
		if _, v, ok := strings.Cut(kv, "="); ok {
			secrets = append(secrets, v)
		}
	}
	secrets = append(secrets, sc.Target.Args...)
	for name, v := range sc.Target.Headers {
		secrets = append(secrets, wire.HeaderValueSecrets(name, v)...)
	}
	secrets = append(secrets, wire.URLSecrets(sc.Target.URL)...)
	if sc.SavedClientSecret != nil {
		secrets = append(secrets, sc.SavedClientSecret())
	}
	if sc.grant != nil { // a server that quotes the bearer it was sent
		if src, ok := sc.grant.src.(*clockSource); ok {
			secrets = append(secrets, src.secrets()...)
		}
	}
	return wire.SecretScrubber(secrets...)(msg)
}

// errUnsupported is the 422 for a capability the server did not advertise.
func errUnsupported(serverID, capability string) *edge.Error {
	return edge.NewError(shared.CodeFeatureNotSupported, "The server does not support "+capability,
		map[string]any{"serverId": serverID, "capability": capability})
}

// CheckOAuth answers from configuration, without connecting. The double's
// saved servers have only the OAuth flag, as the service's records from
// before their auth method: such a record's method is "oauth" when the
// flag is set, else "none", and only "oauth" requires authorization.
func CheckOAuth(_ context.Context, sc *Call) (servers.CheckOAuthResult, *edge.Error) {
	res := servers.CheckOAuthResult{UseOAuth: sc.UseOAuth, EffectiveAuthMethod: "none"}
	if sc.UseOAuth {
		res.RequiresAuthorization, res.EffectiveAuthMethod = true, "oauth"
	}
	if sc.Transport != servers.TransportStdio {
		u := sc.URL // a tunnel's record holds its ?k= secret, as the service's does
		res.ServerURL = &u
	}
	return res, nil
}
