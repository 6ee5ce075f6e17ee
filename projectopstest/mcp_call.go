package projectopstest

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// serverCall is one request's hold on a saved server: who asks, and how to
// reach the server, copied out of the store so no lock is held while the
// MCP server is contacted.
type serverCall struct {
	s                   *Server
	userID              string
	projectID, serverID string
	useOAuth            bool
	tokenURL            string
	url                 string
	transport           string
	target              mcpconn.Target
	grant               *tokenRec
}

// openServer resolves the project and server for a with need (a server of
// another project, or none, is 404).
func (s *Server) openServer(r *http.Request, a actor, need access) (*serverCall, *edge.Error) {
	projectID, serverID := r.PathValue("projectId"), r.PathValue("serverId")
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, _, herr := s.st.projectFor(a, projectID, need); herr != nil {
		return nil, herr
	}
	sv := s.st.servers[serverID]
	if sv == nil || sv.projectID != projectID {
		return nil, notFoundIn("Server")
	}
	b, _ := sv.backend.(*mcpBackend)
	sc := &serverCall{s: s, userID: a.userID, projectID: projectID, serverID: serverID,
		useOAuth: sv.useOAuth, url: sv.url, transport: sv.transport, target: targetLocked(sv)}
	if b != nil {
		sc.tokenURL = b.tokenURL
	}
	return sc, nil
}

// authorize applies the caller's imported grant: an OAuth server without a
// usable grant is 401 OAUTH_REQUIRED, before any connection is attempted.
func (sc *serverCall) authorize() *edge.Error {
	sc.grant = sc.s.mcp.grant(tokenKey{sc.userID, sc.projectID, sc.serverID})
	if sc.grant != nil && sc.grant.failed.Load() {
		sc.grant = nil
	}
	if sc.grant == nil {
		if sc.useOAuth {
			return errOAuthRequired()
		}
		return nil
	}
	if sc.target.Transport == mcpconn.TransportHTTP || sc.target.Transport == mcpconn.TransportSSE {
		sc.target.HTTPClient = sc.s.mcp.bearerClient(sc.grant)
	}
	return nil
}

func errOAuthRequired() *edge.Error {
	return edge.NewError(shared.CodeOAuthRequired,
		"This server needs an OAuth grant: import tokens with POST .../oauth/import-tokens", nil)
}

// opContext bounds one MCP operation by the double's deadline and its Close.
func (sc *serverCall) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, sc.s.mcp.opts.timeout)
	stop := context.AfterFunc(sc.s.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// run executes op on the caller's pooled session for the server. A read
// (retry true) that fails because a reused session had died is run once
// more on a new session; a tool call never is.
func (sc *serverCall) run(ctx context.Context, retry bool, op func(ctx context.Context, c *mcpconn.Conn) error) *edge.Error {
	key := poolKey(sc.userID, sc.serverID)
	for attempt := 0; ; attempt++ {
		lease, err := sc.s.mcp.pool.Acquire(ctx, key, sc.target)
		if err != nil {
			return sc.fail(mcpconn.Classify(err, nil, ctx, nil))
		}
		opCtx, cancel := sc.opContext(ctx)
		err = op(opCtx, lease.Conn)
		var f *mcpconn.Failure
		if err != nil {
			f = mcpconn.Classify(err, opCtx, ctx, lease.Conn)
		}
		cancel()
		if f == nil {
			lease.Release(false)
			return nil
		}
		lease.Release(f.Kind == mcpconn.Unreachable || f.Kind == mcpconn.Timeout || f.Kind == mcpconn.AuthRequired)
		if retry && attempt == 0 && !lease.Fresh && f.Kind == mcpconn.Unreachable {
			continue
		}
		return sc.fail(f)
	}
}

// fail maps a classified failure to the API's error, logging its kind
// (never the underlying text, which may name a command line or URL).
func (sc *serverCall) fail(f *mcpconn.Failure) *edge.Error {
	if sc.grant != nil && sc.grant.failed.Load() {
		f = &mcpconn.Failure{Kind: mcpconn.AuthRequired}
	}
	sc.s.log.LogAttrs(context.Background(), slog.LevelDebug, "projectopstest mcp failure",
		slog.String("serverId", sc.serverID), slog.Int("kind", int(f.Kind)), slog.Int64("mcpCode", f.Code))
	details := map[string]any{"serverId": sc.serverID}
	if f.Code != 0 {
		details["mcpCode"] = f.Code
	}
	switch f.Kind {
	case mcpconn.Timeout, mcpconn.Canceled:
		return edge.NewError(shared.CodeTimeout, "The server did not answer in time", details)
	case mcpconn.AuthRequired:
		return errOAuthRequired()
	case mcpconn.Unsupported:
		return edge.NewError(shared.CodeFeatureNotSupported, "The server does not support this operation: "+f.Message, details)
	case mcpconn.InvalidParams:
		return edge.NewError(shared.CodeValidation, "The server rejected the request: "+f.Message, details)
	case mcpconn.NotFound:
		return edge.NewError(shared.CodeNotFound, "The server has no such resource: "+f.Message, details)
	case mcpconn.ServerError:
		return edge.NewError(shared.CodeServerUnreachable, "The server answered with an error: "+f.Message, details)
	}
	return edge.NewError(shared.CodeServerUnreachable, "Could not connect to the server", details)
}

// errUnsupported is the 422 for a capability the server did not advertise.
func errUnsupported(serverID, capability string) *edge.Error {
	return edge.NewError(shared.CodeFeatureNotSupported, "The server does not support "+capability,
		map[string]any{"serverId": serverID, "capability": capability})
}

// checkOAuth answers from configuration, without connecting.
func (sc *serverCall) checkOAuth() servers.CheckOAuthResult {
	res := servers.CheckOAuthResult{UseOAuth: sc.useOAuth}
	if sc.transport != servers.TransportStdio {
		u := sc.url // a tunnel's record holds its ?k= secret, as the service's does
		res.ServerURL = &u
	}
	return res
}
