package projectopstest

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/projectopstest/internal/relay"
	"github.com/projectops/projectops-go/shared"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/internal/wire"
)

const (
	relayAgentRoute  = "GET " + relayAgentPath
	relayPublicRoute = relayPublicPath + "{slug}/{rest...}"
)

// relayRoutes serves the relay edge outside /api/v1: no API key (the
// connect token and the ?k= secret are the credentials), no rate limit.
// Both run on their own goroutine in process: one is a WebSocket, the
// other streams.
func relayRoutes(s *Server, rt *router) {
	rt.mux.HandleFunc(relayAgentRoute, func(w http.ResponseWriter, r *http.Request) { relayAgent(s, w, r) })
	rt.mux.HandleFunc(relayPublicRoute, func(w http.ResponseWriter, r *http.Request) { relayPublic(s, w, r, r.PathValue("slug")) })
	rt.markStreaming(relayAgentRoute)
	rt.markStreaming(relayPublicRoute)
}

// relayAgent accepts a tunnel host. The subprotocol is checked before
// upgrading (a client that does not speak it gets the 400 envelope); the
// connect token after, as the service's edge does: a bad, expired or
// revoked token closes the WebSocket with CloseBadToken. The session
// replaces the grant's previous one.
func relayAgent(s *Server, w http.ResponseWriter, r *http.Request) {
	infoOf(w).route = relayAgentRoute
	if !offersSubprotocol(r) {
		edge.WriteError(w, edge.Validation("Sec-WebSocket-Protocol", "The relay needs subprotocol "+tunnelwire.Subprotocol))
		return
	}
	token, _ := bearerAnyCase(r.Header.Get("Authorization"))
	hash := sha256.Sum256([]byte(token))
	s.mu.Lock()
	t := s.st.tun.byToken[hash]
	ok := token != "" && t != nil && !t.revoked && s.now().Before(t.tokenExpiry)
	var version int
	var slug string
	if ok {
		version, slug = t.version, t.slug
	}
	s.mu.Unlock()
	if !s.enter() { // hijacked connections are not tracked by net/http
		edge.WriteError(w, edge.NewError(shared.CodeServerUnreachable, "Relay shutting down", nil))
		return
	}
	defer s.inflight.Done()
	hw := &hijackRecorder{ResponseWriter: w}
	conn, err := websocket.Accept(hw, r, &websocket.AcceptOptions{
		Subprotocols: []string{tunnelwire.Subprotocol}, InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(tunnelwire.MaxMessage)
	var raw io.Closer
	if hw.conn != nil {
		raw = hw.conn
	}
	if !ok {
		relay.CloseConn(conn, raw, tunnelwire.CloseBadToken, "invalid, expired or revoked connect token")
		return
	}
	sess := relay.New(conn, raw, hw.cork, slug)
	// Public requests find the session from here, before Run says hello:
	// they wait for the hello (the host's first message), not for this
	// handler, so an agent that has its hello is live.
	s.mu.Lock()
	current := s.st.tun.byToken[hash] == t && t.version == version
	var old *relay.Session
	if current {
		old, t.session = t.session, sess
	}
	s.mu.Unlock()
	if !current { // revoked or rotated while upgrading
		sess.Close(tunnelwire.CloseRevoked, "tunnel revoked")
		return
	}
	if old != nil {
		old.Close(tunnelwire.CloseReplaced, "replaced by a newer tunnel session")
	}
	sess.Run(s.ctx)
	s.mu.Lock()
	if t.session == sess {
		t.session = nil
	}
	s.mu.Unlock()
}

func offersSubprotocol(r *http.Request) bool {
	for _, v := range r.Header.Values("Sec-WebSocket-Protocol") {
		for p := range strings.SplitSeq(v, ",") {
			if strings.TrimSpace(p) == tunnelwire.Subprotocol {
				return true
			}
		}
	}
	return false
}

// hijackRecorder keeps the connection websocket.Accept hijacks, so that a
// close handshake with a host that stopped reading can be cut short, and
// puts a Cork under the WebSocket's writes, so that a round of messages
// is one write on the connection.
type hijackRecorder struct {
	http.ResponseWriter
	conn net.Conn
	cork *tunnelwire.Cork // nil when the hijacked writer held unsent bytes
}

// Hijack implements http.Hijacker.
func (h *hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return c, rw, err
	}
	h.conn = c
	// Bytes already buffered would be lost with the writer: keep it then,
	// and go without a cork.
	if rw.Writer.Buffered() == 0 {
		h.cork = tunnelwire.NewCork(c)
		rw = bufio.NewReadWriter(rw.Reader, bufio.NewWriter(h.cork))
	}
	return c, rw, nil
}

// Unwrap returns the writer under h.
func (h *hijackRecorder) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// relayPublic serves a public tunnel URL, /tunnels/{slug} and the path the
// service's public URL has: the ?k= secret is checked in constant time (a
// wrong, old or missing one, a revoked tunnel, an unknown slug and a path
// outside the tunnel's server all answer the same 404, so a dead tunnel
// URL looks like a server that is not there), then the request is relayed
// to the live host session, or fails fast with 502 SERVER_UNREACHABLE
// when none is connected.
func relayPublic(s *Server, w http.ResponseWriter, r *http.Request, slug string) {
	infoOf(w).route = relayPublicRoute
	k, _ := tunnelQuery(r.URL.RawQuery)
	// The host sees the path after the slug and the query verbatim (?k=
	// included: the host strips it), as the service's edge relays
	// req.url.
	uri := afterSlug(r)
	p, _, _ := strings.Cut(uri, "?")
	s.mu.Lock()
	t := s.st.tun.bySlug[slug]
	ok := t != nil && t.secretOK(k) && inScope(p, t.scope)
	var sess *relay.Session
	if ok {
		sess = t.session
	}
	s.mu.Unlock()
	if !ok {
		edge.WriteError(w, notFoundIn("Tunnel"))
		return
	}
	if sess == nil {
		edge.WriteError(w, edge.NewError(shared.CodeServerUnreachable, "No tunnel host is connected", nil))
		return
	}
	h := tunnelwire.Clean(r.Header) // the request is this handler's to change
	if r.ContentLength > 0 {
		h.Set("Content-Length", strconv.FormatInt(r.ContentLength, 10))
	} else if r.ContentLength < 0 {
		h.Del("Content-Length") // the body streams: its length is not known
	}
	h.Set("X-Forwarded-Host", r.Host)
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		h.Set("X-Forwarded-For", host)
	}
	err := sess.Forward(w, r, uri, h, &s.streams) // over loopback, Close cuts it once answered
	if err == nil {
		return
	}
	var un *relay.UnreachableError
	switch {
	case errors.As(err, &un):
		edge.WriteError(w, edge.NewError(shared.CodeServerUnreachable, un.Msg, nil))
	case errors.Is(err, relay.ErrBodyTooLarge):
		// The envelope has no code of its own for 413; the status says it.
		edge.WriteError(w, withStatus(http.StatusRequestEntityTooLarge, edge.Validation("", "Request body too large")))
	case errors.Is(err, relay.ErrOverloaded):
		// The service's edge has an overloaded abort, but what its public
		// side answers is not known: 503, retryable, as the nearest.
		edge.WriteError(w, withStatus(http.StatusServiceUnavailable,
			edge.NewError(shared.CodeServerUnreachable, "The tunnel host has too many requests in flight", nil)))
	case errors.Is(err, relay.ErrBodyRead): // as the API routes answer a body that cannot be read
		edge.WriteError(w, edge.Validation("", "Could not read request body"))
	case errors.Is(err, relay.ErrHeadersTooLarge):
		edge.WriteError(w, edge.Validation("", "Request headers too large to relay"))
	}
}

// withStatus is e answered with another status than its code's.
func withStatus(status int, e *edge.Error) *edge.Error {
	e.Status = status
	return e
}

// afterSlug is the request target as the caller wrote it (requestTarget)
// from the end of its /tunnels/{slug}: a byte string, its raw bytes and
// its escapes kept. r.URL's escaped path is not: once the path holds a
// byte it does not keep (a raw UTF-8 "é"), it is the decoded path escaped
// afresh, so a caller's a%2Fb (one segment) would become a/b (two). The
// target's first two segments are those of the admitted path, tunnels and
// the slug (a slug with an escaped slash finds no tunnel); its dot
// segments were resolved before (resolveDots), so what is relayed is the
// path whose scope was checked.
func afterSlug(r *http.Request) string {
	t := requestTarget(r)
	for range 2 { // "/tunnels", then "/{slug}"
		if t == "" || t[0] != '/' {
			break
		}
		i := strings.IndexAny(t[1:], "/?")
		if i < 0 {
			return ""
		}
		t = t[1+i:]
	}
	return t
}

// inScope reports whether the escaped path after a tunnel's slug is its
// server's scope, or under it: the service's edge relays nothing else.
func inScope(uri, scope string) bool {
	rest, ok := strings.CutPrefix(uri, scope)
	return ok && (rest == "" || rest[0] == '/')
}

// tunnelQuery splits a public URL's query into the ?k= secret (the first
// k, unescaped, as URL.Query().Get reads it) and the query to forward: the
// raw query without its k parameters, every other part as the caller wrote
// it (order, escapes, bare flags). The query is nearly always the secret
// alone, which needs no splitting.
func tunnelQuery(raw string) (k, rest string) {
	if v, ok := strings.CutPrefix(raw, "k="); ok && !strings.ContainsAny(v, "&;%+") {
		return v, ""
	}
	var kept []string
	found := false
	for part := range strings.SplitSeq(raw, "&") {
		name, value, _ := strings.Cut(part, "=")
		if !wire.IsSecretParam(name) {
			if part != "" {
				kept = append(kept, part)
			}
			continue
		}
		if !found {
			k, _ = url.QueryUnescape(value)
			found = true
		}
	}
	return k, strings.Join(kept, "&")
}

// publicSlug reports whether an admitted escaped path is a public tunnel
// URL (anything under /tunnels/ but a GET of the agent's endpoint) and finds its
// slug without the mux, whose pattern matching allocates on every relayed
// request. The mux must never see these paths: it would answer a bare
// /tunnels/{slug} or an odd path with a redirect that repeats the query,
// ?k= secret and all. A slug that cannot be one comes back empty (404).
func publicSlug(method, p string) (slug string, public bool) {
	rest, ok := strings.CutPrefix(p, relayPublicPath)
	if !ok || p == relayAgentPath && (method == http.MethodGet || method == http.MethodHead) {
		return "", false // the agent's route; other methods find no tunnel "agent"
	}
	slug, _, _ = strings.Cut(rest, "/")
	if strings.Contains(slug, "%") {
		if u, err := url.PathUnescape(slug); err == nil && !strings.Contains(u, "/") {
			return u, true
		}
		return "", true
	}
	return slug, true
}
