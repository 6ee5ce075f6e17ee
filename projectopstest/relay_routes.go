package projectopstest

import (
	"context"
	"crypto/sha256"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/tunnelwire"
)

const (
	relayAgentRoute  = "GET " + relayAgentPath
	relayPublicRoute = relayPublicPath + "{slug}/{rest...}"
)

// relayRoutes serves the relay edge outside /api/v1: no API key (the
// connect token and the ?k= secret are the credentials), no rate limit.
// Both run on their own goroutine in process: one is a WebSocket, the
// other streams.
func (s *Server) relayRoutes() {
	s.mux.HandleFunc(relayAgentRoute, s.relayAgent)
	s.mux.HandleFunc(relayPublicRoute, s.relayPublic)
	s.markStreaming(relayAgentRoute)
	s.markStreaming(relayPublicRoute)
}

// relayAgent accepts a tunnel host: subprotocol and connect token are
// checked before upgrading. The session replaces the grant's previous one.
func (s *Server) relayAgent(w http.ResponseWriter, r *http.Request) {
	infoOf(w).route = relayAgentRoute
	if !offersSubprotocol(r) {
		writeError(w, errValidation("Sec-WebSocket-Protocol", "The relay needs subprotocol "+tunnelwire.Subprotocol))
		return
	}
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	hash := sha256.Sum256([]byte(token))
	s.mu.Lock()
	t := s.st.tun.byToken[hash]
	ok := token != "" && t != nil && !t.revoked && s.now().Before(t.tokenExpiry)
	var version int
	if ok {
		version = t.version
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, errUnauthorized("Invalid, expired or revoked tunnel connect token"))
		return
	}
	if !s.enter() { // hijacked connections are not tracked by net/http
		writeError(w, newError(apierr.CodeServerUnreachable, "Relay shutting down", nil))
		return
	}
	defer s.inflight.Done()
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		Subprotocols: []string{tunnelwire.Subprotocol}, InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(tunnelwire.MaxMessage)
	sess := newRelaySession(conn, tunnelwire.Offers(r.Header, tunnelwire.FeatureBatch))
	s.mu.Lock()
	current := s.st.tun.byToken[hash] == t && t.version == version
	var old *relaySession
	if current {
		old, t.session = t.session, sess
	}
	s.mu.Unlock()
	if !current { // revoked or rotated while upgrading
		sess.close(tunnelwire.CloseRevoked, "tunnel revoked")
		return
	}
	if old != nil {
		old.close(tunnelwire.CloseReplaced, "replaced by a newer tunnel session")
	}
	sess.run(s.ctx)
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

// relayPublic serves a public tunnel URL: the ?k= secret is checked in
// constant time (a wrong, old or missing one, a revoked tunnel and an
// unknown slug all answer the same 404, so a dead tunnel URL looks like a
// server that is not there), then the request is relayed to the live host session, or fails
// fast with 502 SERVER_UNREACHABLE when none is connected.
func (s *Server) relayPublic(w http.ResponseWriter, r *http.Request) {
	infoOf(w).route = relayPublicRoute
	slug := r.PathValue("slug")
	q := r.URL.Query()
	s.mu.Lock()
	t := s.st.tun.bySlug[slug]
	ok := t != nil && t.secretOK(q.Get("k"))
	var sess *relaySession
	if ok {
		sess = t.session
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, notFoundIn("Tunnel"))
		return
	}
	if sess == nil {
		writeError(w, newError(apierr.CodeServerUnreachable, "No tunnel host is connected", nil))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return
	}
	if len(body) > maxBodyBytes {
		writeError(w, errValidation("", "Request body too large"))
		return
	}
	uri := strings.TrimPrefix(r.URL.EscapedPath(), relayPublicPath+slug)
	q.Del("k")
	if len(q) > 0 {
		uri += "?" + q.Encode()
	}
	h := tunnelwire.CleanHeader(r.Header)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Forwarded-Host", r.Host)
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		h.Set("X-Forwarded-For", host)
	}
	sess.forward(w, r, &tunnelwire.Head{Method: r.Method, URI: uri, Header: h}, body)
}

// forward relays one request over the session and streams the response
// back, flushing every chunk. A session lost mid-response drops the public
// connection, so the caller sees the failure.
func (rs *relaySession) forward(w http.ResponseWriter, r *http.Request, h *tunnelwire.Head, body []byte) {
	unreachable := func(msg string) { writeError(w, newError(apierr.CodeServerUnreachable, msg, nil)) }
	id, st, ok := rs.open()
	if !ok {
		unreachable("No tunnel host is connected")
		return
	}
	defer rs.forget(id)
	frame, err := tunnelwire.EncodeHead(tunnelwire.Request, id, h)
	if err != nil {
		writeError(w, errValidation("", "Request headers too large to relay"))
		return
	}
	// The whole request goes in one Send: one message when batching.
	frames := [][]byte{frame}
	for chunk := range slices.Chunk(body, tunnelwire.MaxChunk) {
		frames = append(frames, tunnelwire.Encode(tunnelwire.Data, id, chunk))
	}
	if rs.send(append(frames, tunnelwire.EncodeEnd(id, nil))...) != nil {
		unreachable("Tunnel host disconnected")
		return
	}
	ctx := r.Context()
	stop := context.AfterFunc(ctx, func() { _ = rs.send(tunnelwire.Encode(tunnelwire.Cancel, id, nil)) })
	defer stop()
	var head *tunnelwire.Head
	select {
	case head = <-st.head:
	case <-st.body.Ended():
		select {
		case head = <-st.head: // the head and the end raced
		default:
			unreachable("The tunnel host failed the request")
			return
		}
	case <-ctx.Done():
		return
	}
	for k, v := range tunnelwire.CleanHeader(head.Header) {
		w.Header()[k] = v
	}
	w.WriteHeader(head.Status)
	rc := http.NewResponseController(w)
	for {
		if !st.body.Pending() {
			_ = rc.Flush() // stream what was written before waiting for more
		}
		chunk, err := st.body.Next(ctx)
		switch {
		case err == io.EOF:
			return
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			// The head and what came before the break reach the caller
			// first; then the response is cut short.
			_ = rc.Flush()
			panic(http.ErrAbortHandler)
		}
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}
