package projectopstest

import (
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// apiPrefix is the version segment every route lives under.
const apiPrefix = edge.APIPrefix

// requestOrigin is the scheme and host a request reached the double by,
// for the URLs the double mints (upload URLs, tunnel URLs): the address a
// remote client used, not the wildcard the double listens on.
func requestOrigin(r *http.Request) (httpOrigin, wsOrigin string) {
	host := urlHost(r.Host)
	if r.TLS != nil {
		return "https://" + host, "wss://" + host
	}
	return "http://" + host, "ws://" + host
}

// urlHost is a request's Host as a URL writes it. An IPv6 zone reaches the
// double unescaped from an in-process request ([fe80::1%lo], as net/url
// decodes it); a URL needs its '%' as %25 (RFC 6874), or it cannot be
// parsed back. A zone already escaped is left as it is.
func urlHost(h string) string {
	i := strings.IndexByte(h, '%')
	if !strings.HasPrefix(h, "[") || i < 0 || strings.HasPrefix(h[i:], "%25") {
		return h
	}
	return h[:i] + "%25" + h[i+1:]
}

// requestBase is the API base URL a request reached the double by.
func requestBase(r *http.Request) string {
	o, _ := requestOrigin(r)
	return o + apiPrefix
}

// handlerFunc answers one request. a is the authenticated caller (zero on
// public routes). Returning an error writes it as the envelope; a handler
// writes its own success response. Handlers must not hold Server.mu while
// writing: an in-process streaming response blocks until the client reads.
type handlerFunc func(w http.ResponseWriter, r *http.Request, a actor) *edge.Error

// router holds the routes: the mux, their patterns, and which stream.
type router struct {
	s         *Server
	mux       *http.ServeMux
	routes    []string
	streaming map[string]bool // full mux patterns of streaming routes
	// streamPrefixes are the literal path prefixes of those patterns: a
	// request matching none of them skips a second mux lookup.
	streamPrefixes []string
}

// buildMux registers every route. Each concern keeps its routes in its own
// routes_<concern>.go file with a <concern>Routes(s, rt) function that calls
// rt.handle or rt.handlePublic, mostly with the typed adapter (route.go);
// adding a concern is one line here.
func (s *Server) buildMux() {
	rt := &router{s: s, mux: http.NewServeMux(), streaming: map[string]bool{}}
	s.rt = rt
	for _, add := range []func(*Server, *router){catalogRoutes, hostCatalogRoutes, hostRoutes, chatboxRoutes,
		keyManagementRoutes, ingestRoutes, evalRoutes, environmentRoutes, serverOpsRoutes, tunnelRoutes} {
		add(s, rt)
	}
	rt.mux.HandleFunc("/", rt.unmatched)
	s.handler = http.HandlerFunc(s.serveHTTP)
}

// Routes lists the route patterns the double serves, without the /api/v1
// prefix: the keys SetFault accepts and Request.Route reports. The routes
// outside /api/v1 (the relay's edge, the key-management surface) are not
// among them.
func (s *Server) Routes() []string { return slices.Clone(s.rt.routes) }

// routeFlags modify how a route is served.
type routeFlags uint8

const (
	// routePublic: no key needed, not rate limited.
	routePublic routeFlags = 1 << iota
	// routeStreaming: the handler flushes progressively. The in-process
	// transport runs such routes on their own goroutine behind a pipe;
	// every other route runs on the caller's goroutine, where Flush only
	// buffers (much faster, and no API response streams today).
	routeStreaming
)

// handle registers an authenticated, rate-limited route. pattern is a
// ServeMux pattern without the /api/v1 prefix, e.g. "GET /me"; a pattern
// without a method matches every method.
func (rt *router) handle(pattern string, h handlerFunc) { rt.register(pattern, 0, h) }

// handlePublic registers a route that needs no key and is not rate limited.
func (rt *router) handlePublic(pattern string, h handlerFunc) { rt.register(pattern, routePublic, h) }

// register adds a route. Routes are registered before the server serves.
func (rt *router) register(pattern string, flags routeFlags, h handlerFunc) {
	s := rt.s
	full := apiPrefix + pattern
	if method, path, ok := strings.Cut(pattern, " "); ok {
		full = method + " " + apiPrefix + path
	}
	rt.routes = append(rt.routes, pattern)
	if flags&routeStreaming != 0 {
		rt.markStreaming(full)
	}
	authed := flags&routePublic == 0
	rt.mux.HandleFunc(full, func(w http.ResponseWriter, r *http.Request) {
		info := infoOf(w)
		info.route = pattern
		serve := func(w http.ResponseWriter, r *http.Request) {
			var a actor
			if authed {
				var herr *edge.Error
				a, herr = s.authenticate(r)
				info.keyID = a.keyID
				if herr != nil {
					edge.WriteError(w, herr)
					return
				}
			}
			if herr := h(w, r, a); herr != nil {
				edge.WriteError(w, herr)
			}
		}
		f, faulted := s.faults.take(pattern)
		switch {
		case !faulted:
			serve(w, r)
		case f.AfterRoute:
			s.faultAfterRoute(w, r, f, serve)
		default:
			if authed {
				// The fault fires before authentication, but the log
				// still tells whose request it was.
				info.keyID = s.keyIDOf(r)
			}
			if !s.applyFault(w, r, f) {
				serve(w, r)
			}
		}
	})
}

// markStreaming records a full mux pattern as a streaming route.
func (rt *router) markStreaming(pattern string) {
	rt.streaming[pattern] = true
	_, path, ok := strings.Cut(pattern, " ")
	if !ok {
		path = pattern
	}
	path, _, _ = strings.Cut(path, "{")
	rt.streamPrefixes = append(rt.streamPrefixes, path)
}

// streams reports whether r goes to a streaming route (once its dot
// segments are resolved, as the handler will see it).
func (rt *router) streams(r *http.Request) bool {
	r = resolveDots(r)
	if !slices.ContainsFunc(rt.streamPrefixes, func(p string) bool { return strings.HasPrefix(r.URL.Path, p) }) {
		return false
	}
	_, pattern := rt.mux.Handler(r)
	return rt.streaming[pattern]
}

// reqInfo carries what the route learns back to the outer logging layer,
// and the request's path as errors and logs show it (Server.shownPath,
// computed once per request).
type reqInfo struct{ route, keyID, shown string }

// infoOf finds the request's reqInfo on its writer: every route runs under
// serveHTTP, which wraps the writer in a statusRecorder (cheaper than a
// context value, which copies the request).
func infoOf(w http.ResponseWriter) *reqInfo {
	if rec, ok := w.(*statusRecorder); ok {
		return &rec.info
	}
	return &reqInfo{}
}

// serveHTTP is the outermost layer: request id, request log, debug log.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	// The debug line's duration is the only use of the wall clock here.
	debug := s.log.Enabled(r.Context(), slog.LevelDebug)
	var start time.Time
	if debug {
		start = time.Now()
	}
	arrived := s.now()
	if s.dated {
		// Before anything reads run state or sessions: what the injected
		// clock passed since the last reading takes effect now.
		s.applyClock(arrived)
	}
	rec := &statusRecorder{ResponseWriter: w}
	// Node's parser reads the method first: a method it does not know is
	// refused whatever the head's size.
	badMethod := !nodeMethod(r.Method)
	tooLarge := !badMethod && headTooLarge(r)
	if r.Method == http.MethodConnect && !tooLarge {
		dropConnect(w) // no answer, and nothing the app would log
		return
	}
	var id, loggedID string // loggedID: id as the log shows it (a key masked)
	if badMethod || tooLarge {
		// Node refuses it before the app: no id answered, no app
		// headers; the log keeps a bounded prefix of its path.
		rec.info.shown = clipShown(s.shownPath(r.URL.Path))
	} else {
		id = r.Header.Get("X-Request-Id")
		if validRequestID(id) {
			// The client's own id is answered as sent, as the service
			// does, but may be a key pasted by mistake: the log masks it
			// as it masks a path (no '/', '#', '\' or '%' in such an id).
			loggedID = s.shownPath(id)
		} else {
			id = string(strconv.AppendUint(append(make([]byte, 0, 24), "req_"...), s.reqSeq.Add(1), 10))
			loggedID = id
		}
		rec.id[0] = id
		rec.info.shown = s.shownPath(r.URL.Path)
		w.Header()["X-Request-Id"] = rec.id[:] // the header's value is part of rec's allocation
		if appServes(r.URL.Path) {
			setSecurityHeaders(rec)
		}
	}
	defer func() {
		path := rec.info.shown
		s.reqlog.add(Request{
			Method: r.Method, Path: path, Route: rec.info.route, Status: rec.status,
			KeyID: rec.info.keyID, RequestID: loggedID, Time: arrived,
		})
		if debug {
			s.log.LogAttrs(r.Context(), slog.LevelDebug, "projectopstest request",
				slog.String("method", r.Method), slog.String("path", path),
				slog.String("route", rec.info.route), slog.Int("status", rec.status),
				slog.String("keyId", rec.info.keyID), slog.String("requestId", loggedID),
				slog.Duration("duration", time.Since(start)))
		}
	}()
	if badMethod {
		refuseMethod(rec)
		return
	}
	if tooLarge {
		refuseHead(rec)
		return
	}
	// The key-management surface is the service's app's too: the same
	// origin checks, CORS, body cap and Date as the API.
	keySurface := underKeySurface(r.URL.Path)
	api := underAPI(r.URL.Path) || keySurface
	if api && s.dated {
		w.Header()["Date"] = []string{arrived.UTC().Format(http.TimeFormat)}
	}
	if api && !s.corsGate(rec, r) {
		return // a foreign origin, or a preflight
	}
	// The key-management surface refuses an sk_ bearer on its prefix,
	// whatever its size (the head's own cap still holds): no 401 for a
	// long one first.
	if !keySurface && !edge.AdmitAuthorization(rec, r) {
		return
	}
	if !edge.Admit(rec, r, rec.info.shown) {
		return
	}
	if r.ContentLength > edge.MaxBodyBytes && r.Method != http.MethodGet && r.Method != http.MethodHead &&
		api && !strings.HasPrefix(r.URL.Path, apiPrefix+uploadPath) {
		// The gateway's body cap comes before everything else under the
		// API, authentication included; a body of unknown length meets
		// it as it is read. (A GET's or HEAD's body is never read there;
		// minted upload URLs are storage's, with a cap of their own. The
		// web app's cap on the key-management surface answers the same.)
		if _, pattern := s.rt.mux.Handler(r); pattern != "/" { // the log still names the route
			rec.info.route = strings.Replace(pattern, apiPrefix, "", 1)
		}
		edge.WriteError(rec, edge.BodyTooLarge())
		return
	}
	if slug, ok := publicSlug(r.Method, r.URL.EscapedPath()); ok {
		relayPublic(s, rec, r, slug) // an empty slug finds no tunnel: 404
		return
	}
	s.rt.mux.ServeHTTP(rec, r)
}

// validRequestID accepts a client's x-request-id as the service does: 8 to
// 128 letters, digits, '-' and '_'; anything else is replaced by a
// generated id (req_N here, a UUID there: see the package doc).
func validRequestID(id string) bool {
	if len(id) < 8 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// underAPI reports whether path is under the API's prefix.
func underAPI(path string) bool {
	return path == apiPrefix || strings.HasPrefix(path, apiPrefix+"/")
}

// unmatched answers paths no route serves with a 404 envelope, a known
// path with another method too: the service's router has no 405 (its
// codes are the specification's, and a wrong method falls through to its
// 404), so the message names the methods the path takes instead. Under
// the API the key is checked first, as the service's gateway checks it for
// every path but the public catalog's (a request without one is 401, and
// it is metered).
func (rt *router) unmatched(w http.ResponseWriter, r *http.Request) {
	if underAPI(r.URL.Path) {
		a, herr := rt.s.authenticate(r)
		infoOf(w).keyID = a.keyID
		if herr != nil {
			edge.WriteError(w, herr)
			return
		}
	}
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := r.WithContext(r.Context())
		probe.Method = m
		if _, p := rt.mux.Handler(probe); p != "" && p != "/" {
			allowed = append(allowed, m)
		}
	}
	msg := "No route for " + r.Method + " " + rt.shownPath(w, r)
	switch p := r.URL.Path; {
	case len(allowed) > 0:
		msg += " (the path takes " + strings.Join(allowed, ", ") + ")"
	case !underAPI(p) && p != strings.TrimSuffix(relayPublicPath, "/") && !strings.HasPrefix(p, relayPublicPath):
		// The usual cause: a base URL without the version segment.
		msg += " (the API is served under " + apiPrefix + ": does the base URL end with it?)"
	}
	edge.WriteError(w, edge.NotFound(msg))
}

// shownPath is the request's path as errors show it: serveHTTP's, or
// computed when the handler runs without it.
func (rt *router) shownPath(w http.ResponseWriter, r *http.Request) string {
	if rec, ok := w.(*statusRecorder); ok {
		return rec.info.shown
	}
	return rt.s.shownPath(r.URL.Path)
}

// statusRecorder remembers the status written, passing flushes through so
// streaming handlers keep working.
type statusRecorder struct {
	http.ResponseWriter
	status int
	info   reqInfo
	id     [1]string // the X-Request-Id header's value
	cors   [2]string // the Vary and Access-Control-Allow-Credentials values (cors.go)
	sec    [4]string // the security headers' values (security_headers.go)
}

// WriteHeader implements http.ResponseWriter, remembering the first status.
func (rec *statusRecorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status = code
	}
	rec.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter; a write without a status is a 200.
func (rec *statusRecorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.ResponseWriter.Write(b)
}

// Flush implements http.Flusher.
func (rec *statusRecorder) Flush() {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if f, ok := rec.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *statusRecorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }
