package projectopstest

import (
	"net/http"
	"strings"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
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
//     set and not yet used up; timesLeft only for a fault with times.
//   - POST faults: {"route": "<a Routes key>", "fault": {...}} sets a fault
//     as SetFault does (204). The fault's fields are Fault's, in JSON:
//     status, code, message, details, retryAfterMs, latencyMs, drop, times,
//     afterRoute, every; durations in whole milliseconds.
//   - DELETE faults: ClearFaults (204).
//   - GET requests: {"requests": [{"method", "path", "route", "status",
//     "keyId", "requestId", "time"}]}, the Requests log, as redacted.
//   - DELETE requests: ResetRequests (204).
//   - POST wait: Wait, then 204.
//
// A body that is not such JSON (an unknown field, a wrong type, trailing
// data), an unknown route and a fault SetFault would refuse are 400
// VALIDATION_ERROR in the API's {code, message, details} envelope; another
// method is 405 with Allow, an unknown control path 404.
//
// Control requests need no API key and are never faulted, rate limited,
// checked by WithContractCheck or recorded in the request log: anyone who
// reaches the address can change how the double answers. That is why the
// control API is opt-in, for tests on loopback; do not enable it on a
// double others can reach. Without this option the control paths are
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

func (s *Server) controlRoutes(w http.ResponseWriter, _ *http.Request) *edge.Error {
	edge.WriteJSON(w, http.StatusOK, struct {
		Routes []string `json:"routes"`
	}{s.Routes()})
	return nil
}

func (s *Server) controlClearFaults(w http.ResponseWriter, _ *http.Request) *edge.Error {
	s.ClearFaults()
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

// controlWait is Wait. It holds the request until the background work is
// done, as Wait holds its caller; Close still ends it, as it ends that work.
func (s *Server) controlWait(w http.ResponseWriter, _ *http.Request) *edge.Error {
	s.Wait()
	w.WriteHeader(http.StatusNoContent)
	return nil
}
