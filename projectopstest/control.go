package projectopstest

import (
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

// ControlPath is the path, outside /api/v1, under which WithControlAPI
// serves the control API: ControlPath+"/routes", "/faults", "/requests"
// and "/wait".
const ControlPath = "/_projectops"

// WithControlAPI serves the test hooks that are otherwise Go-only over
// HTTP, under ControlPath, for a test suite in any language driving a
// double it reaches by URL (projectops serve --control):
//
//   - GET routes: {"routes": [...]}, the keys of Routes.
//   - GET faults: {"faults": [{"route", "fault", "timesLeft"}]}, the faults
//     set and not yet used up, by route; timesLeft only for a fault with
//     times. A duration is shown rounded up to a whole millisecond (at
//     most 9223372036854, the most POST faults takes back).
//   - POST faults: {"route": "<a Routes key>", "fault": {...}} sets a fault
//     as SetFault does (204), replacing any fault the route had. The
//     fault's fields are Fault's, in JSON: status, code, message, details,
//     retryAfterMs, latencyMs, drop, times, afterRoute, every; durations in
//     whole milliseconds.
//   - DELETE faults: ClearFaults (204). DELETE faults?route=<a Routes key>
//     clears that route's fault only, 204 whether it had one or not; a
//     route given more than once is refused.
//   - GET requests: {"requests": [{"method", "path", "route", "status",
//     "keyId", "requestId", "time"}]}, the Requests log, redacted as it is:
//     oldest first, at most MaxLoggedRequests; status 0 for a dropped
//     connection; time in RFC 3339, with fractional seconds only when not
//     a whole second (Go's RFC3339Nano), in the zone of the server's
//     clock.
//   - DELETE requests: ResetRequests (204).
//   - POST wait: Wait, then 204 (also once Close has begun, if the work is
//     done). It ends early when its client goes (nothing is answered), and
//     when Close begins: then 503 with code INTERNAL_ERROR, "the double is
//     closing", rather than holding Close for all of ShutdownGrace.
//
// A body is read as the API reads its own (one JSON object of at most
// 1 MiB, keys exactly as spelled here at every depth but inside
// fault.details, which is free-form; no duplicate key, values of the
// field's type); one that is not, an unknown route or query
// parameter, and a fault SetFault would refuse are 400 VALIDATION_ERROR in
// the API's {code, message, details} envelope. So are what JSON can say
// and a Fault cannot mean: a status outside 400 to 599, a negative value,
// retryAfterMs or latencyMs over 9223372036854 (milliseconds, the most a
// time.Duration holds), times or every over 2147483647 (requests).
// Another method is 405 with Allow, an unknown control path 404.
//
// The control API is for clients that are not browsers: test suites,
// curl. Control requests need no API key and are never faulted, rate
// limited, checked by WithContractCheck or recorded in the request log:
// anyone who reaches the address can change how the double answers. That
// is why the control API is opt-in, for tests on loopback; do not enable
// it on a double others can reach. A browser page can send a request to
// loopback too, so one whose Origin header names an origin
// WithAllowedOrigins does not list is refused 403 FORBIDDEN before
// anything is done; clients that are not browsers send no Origin. A page
// on a listed origin can still only send what a browser sends without a
// preflight (a GET, a POST with a text/plain body) and cannot read the
// answer: control answers carry no CORS headers, and a preflight
// (OPTIONS) is 405. A page whose domain is rebound to loopback (DNS
// rebinding) is same-origin and sends no Origin on a GET, so on a double
// started on a loopback address (Start, StartAt) a control request on its
// listener whose Host is not localhost, a 127.0.0.0/8 address or [::1] is
// refused 403 FORBIDDEN too. A double started on another address (such
// as 0.0.0.0) takes any Host, as it is meant to be reached by other
// names; through Handler mounted on a server of yours, guarding the Host
// is your server's to do. Without this option the control paths are
// unknown paths, as the service answers them (404).
func WithControlAPI() Option {
	return func(o *options) error {
		o.control = true
		return nil
	}
}

// ControlURL is the control API's base URL (URL's origin and ControlPath),
// or "" without WithControlAPI. Like URL, it names no real host until
// Start.
func (s *Server) ControlURL() string {
	if !s.control {
		return ""
	}
	return strings.TrimSuffix(s.URL(), apiPrefix) + ControlPath
}

// controlEndpoint is one control path: the methods it takes and how.
type controlEndpoint map[string]func(s *Server, w http.ResponseWriter, r *http.Request) *edge.Error

// controlEndpoints are the control API's paths under ControlPath.
var controlEndpoints = map[string]controlEndpoint{
	"/routes": {http.MethodGet: (*Server).controlRoutes},
	"/faults": {
		http.MethodGet:    (*Server).controlFaults,
		http.MethodPost:   (*Server).controlSetFault,
		http.MethodDelete: (*Server).controlClearFaults,
	},
	"/requests": {http.MethodGet: (*Server).controlRequests, http.MethodDelete: (*Server).controlResetRequests},
	"/wait":     {http.MethodPost: (*Server).controlWait},
}

// controlled serves the control API ahead of next, which never sees a
// control request: no fault, rate limit, key check or request log applies.
func (s *Server) controlled(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, ControlPath)
		if !ok || (rest != "" && rest[0] != '/') {
			next.ServeHTTP(w, r)
			return
		}
		if herr := s.serveControl(w, r, rest); herr != nil {
			edge.WriteError(w, herr)
		}
	})
}

// serveControl answers one control request for the path rest (what
// follows ControlPath).
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request, rest string) *edge.Error {
	// First, before anything is read or changed: a web page can send a
	// POST with a text/plain body to any address without a preflight, so
	// a foreign page could otherwise set faults on a double on loopback.
	// Non-browser clients send no Origin.
	if origin := r.Header.Values("Origin"); len(origin) > 0 &&
		!slices.Contains(s.origins, strings.Join(origin, ", ")) {
		return edge.Forbidden("Request origin not allowed: the control API takes requests from " +
			"clients that send no Origin (not a browser) or from an origin WithAllowedOrigins lists.")
	}
	// A page whose name was rebound to loopback is same-origin with the
	// double, and a same-origin GET carries no Origin: its Host still
	// names the page's domain. Only the double's own listener is checked
	// (in process there is no network; a server of yours is yours to
	// guard), and only when it listens on loopback alone. loopConn first:
	// an in-process request need not read what StartAt sets. A request
	// with no Host (HTTP/1.0) names no loopback host, so it is refused.
	if loopConn(r) != nil && s.loopbackOnly.Load() && !loopbackHost(r.Host) {
		return edge.Forbidden("Request host not allowed: on a loopback address the control API takes " +
			"requests for localhost, 127.0.0.1 (127.0.0.0/8) or [::1] only.")
	}
	ep, ok := controlEndpoints[rest]
	if !ok {
		return edge.NotFound("No control endpoint " + edge.Quote(ControlPath+rest) +
			": the control API serves " + ControlPath + "/routes, /faults, /requests and /wait")
	}
	h, ok := ep[r.Method]
	if !ok {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
			if ep[m] != nil {
				allow = append(allow, m)
			}
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		return &edge.Error{Status: http.StatusMethodNotAllowed, Body: apierr.Body{Code: edge.CodeMethodNotAllowed,
			Message: r.Method + " is not allowed on " + ControlPath + rest + ": it takes " + strings.Join(allow, ", ")}}
	}
	return h(s, w, r)
}

// loopbackHost reports whether host (a request's Host, with or without a
// port) names loopback: localhost or a loopback IP, either one fully
// qualified with one trailing dot ("localhost.", as curl sends it for
// http://localhost./).
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(host, ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return err == nil && ip.IsLoopback()
}

func (s *Server) controlRoutes(w http.ResponseWriter, _ *http.Request) *edge.Error {
	edge.WriteJSON(w, http.StatusOK, struct {
		Routes []string `json:"routes"`
	}{s.Routes()})
	return nil
}

// controlClearFaults is ClearFaults, or with ?route=<a Routes key> the
// clearing of that route's fault only: 204 whether one was set or not, so
// a delete repeated is no error. Any other query parameter is refused
// rather than ignored, since ignoring a misspelt route= would clear every
// fault.
func (s *Server) controlClearFaults(w http.ResponseWriter, r *http.Request) *edge.Error {
	q := r.URL.Query()
	for name := range q {
		if name != "route" {
			return edge.Validation(name, "unknown query parameter "+edge.Quote(name)+": DELETE "+ControlPath+
				"/faults takes route only (a Routes key; without it every fault is cleared)")
		}
	}
	if !q.Has("route") {
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if len(q["route"]) > 1 {
		return edge.Validation("route", "route is given more than once: DELETE "+ControlPath+
			"/faults clears one route's fault (or, without route, every fault)")
	}
	route := q.Get("route")
	if herr := s.checkControlRoute(route); herr != nil {
		return herr
	}
	s.faults.mu.Lock()
	delete(s.faults.byRoute, route)
	s.faults.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// requestJSON is a Request as the control API shows it.
type requestJSON struct {
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Route     string    `json:"route"`
	Status    int       `json:"status"`
	KeyID     string    `json:"keyId"`
	RequestID string    `json:"requestId"`
	Time      time.Time `json:"time"`
}

func (s *Server) controlRequests(w http.ResponseWriter, _ *http.Request) *edge.Error {
	reqs := s.Requests()
	out := make([]requestJSON, len(reqs))
	for i, q := range reqs {
		out[i] = requestJSON(q) // the fields are Request's: its redaction holds
	}
	edge.WriteJSON(w, http.StatusOK, struct {
		Requests []requestJSON `json:"requests"`
	}{out})
	return nil
}

func (s *Server) controlResetRequests(w http.ResponseWriter, _ *http.Request) *edge.Error {
	s.ResetRequests()
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// controlWait is Wait, for as long as its client waits: it ends when the
// background work is done (204), when the client goes (its handler must
// not stay blocked; nothing is written), or when Close begins (503, rather
// than holding Close for all of ShutdownGrace and then dropping the
// connection).
func (s *Server) controlWait(w http.ResponseWriter, r *http.Request) *edge.Error {
	s.controlWaiters.Add(1)
	done := s.waitUntil(r.Context().Done(), s.closeBegun)
	s.controlWaiters.Add(-1)
	if !done && r.Context().Err() != nil {
		return nil // the client went: no one reads an answer, and the double is not closing
	}
	if !done {
		// The envelope has no code of its own for 503: the status says it.
		return withStatus(http.StatusServiceUnavailable, edge.NewError(shared.CodeInternal,
			"the double is closing: its background work was not waited for", nil))
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
