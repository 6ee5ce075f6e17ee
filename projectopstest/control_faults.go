package projectopstest

import (
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

// faultJSON is a Fault as the control API reads and shows it.
type faultJSON struct {
	Status       int            `json:"status,omitempty"`
	Code         shared.Code    `json:"code,omitempty"`
	Message      string         `json:"message,omitempty"`
	Details      map[string]any `json:"details,omitempty"`
	RetryAfterMs int64          `json:"retryAfterMs,omitempty"`
	LatencyMs    int64          `json:"latencyMs,omitempty"`
	Drop         bool           `json:"drop,omitempty"`
	Times        int            `json:"times,omitempty"`
	AfterRoute   bool           `json:"afterRoute,omitempty"`
	Every        int            `json:"every,omitempty"`
}

// inertJSON says what is wrong with an inert fault, in the JSON names.
var inertJSON = [...]string{
	faultUnsentBody: "message, details and retryAfterMs are sent with an error response only: set status or code",
	faultNoEffect:   "the fault changes nothing: set status, code, drop or latencyMs",
}

// maxMs is the largest whole-millisecond duration a time.Duration holds.
const maxMs = math.MaxInt64 / int64(time.Millisecond)

// maxCount bounds times and every: a count any client's integer type
// holds, far beyond what a test sends.
const maxCount = math.MaxInt32

// faultToJSON shows f as GET faults does. A duration is rounded up to
// the next whole millisecond: truncated, a 500µs latency set through
// SetFault would show as no latency at all, a fault POST faults refuses.
func faultToJSON(f Fault) faultJSON {
	return faultJSON{
		Status: f.Status, Code: f.Code, Message: f.Message, Details: f.Details,
		RetryAfterMs: ceilMs(f.RetryAfter), LatencyMs: ceilMs(f.Latency),
		Drop: f.Drop, Times: f.Times, AfterRoute: f.AfterRoute, Every: f.Every,
	}
}

// ceilMs is d in whole milliseconds, rounded up (0 for d <= 0, which a
// fault treats as none) but never past maxMs, the most POST faults takes
// back: the top of time.Duration's range is no whole millisecond.
func ceilMs(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	ms := d.Milliseconds()
	if d%time.Millisecond != 0 && ms < maxMs {
		ms++
	}
	return ms
}

// fault checks j as SetFault's input and converts it; the error names the
// field at fault. Beyond SetFault's refusals it refuses what the JSON can
// say and a Fault cannot mean: a status that is no HTTP error status, a
// negative value, a duration a time.Duration cannot hold (over maxMs) and
// a count over maxCount.
func (j faultJSON) fault() (Fault, *edge.Error) {
	for _, n := range []struct {
		name, unit string
		v, max     int64
	}{
		{"retryAfterMs", "milliseconds", j.RetryAfterMs, maxMs},
		{"latencyMs", "milliseconds", j.LatencyMs, maxMs},
		{"times", "requests", int64(j.Times), maxCount},
		{"every", "requests", int64(j.Every), maxCount},
	} {
		if n.v < 0 {
			return Fault{}, edge.Validation("fault."+n.name, "fault."+n.name+" must not be negative")
		}
		if n.v > n.max {
			return Fault{}, edge.Validation("fault."+n.name, "fault."+n.name+" is too large: at most "+
				strconv.FormatInt(n.max, 10)+" "+n.unit)
		}
	}
	if j.Status != 0 && (j.Status < 400 || j.Status > 599) {
		return Fault{}, edge.Validation("fault.status", "fault.status must be an HTTP error status, 400 to 599")
	}
	f := Fault{
		Status: j.Status, Code: j.Code, Message: j.Message, Details: j.Details,
		RetryAfter: time.Duration(j.RetryAfterMs) * time.Millisecond,
		Latency:    time.Duration(j.LatencyMs) * time.Millisecond,
		Drop:       j.Drop, Times: j.Times, AfterRoute: j.AfterRoute, Every: j.Every,
	}
	if why := f.inert(); why != faultActs {
		return Fault{}, edge.Validation("fault", inertJSON[why])
	}
	return f, nil
}

// setFaultJSON is the body of POST faults.
type setFaultJSON struct {
	Route string     `json:"route"`
	Fault *faultJSON `json:"fault"`
}

func (s *Server) controlSetFault(w http.ResponseWriter, r *http.Request) *edge.Error {
	var body setFaultJSON
	if herr := decodeControl(r, &body); herr != nil {
		return herr
	}
	if herr := s.checkControlRoute(body.Route); herr != nil {
		return herr
	}
	if body.Fault == nil {
		return edge.Validation("fault", "fault is required")
	}
	f, herr := body.Fault.fault()
	if herr != nil {
		return herr
	}
	s.SetFault(body.Route, f)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// checkControlRoute refuses a route that is not a Routes key.
func (s *Server) checkControlRoute(route string) *edge.Error {
	switch {
	case route == "":
		return edge.Validation("route", `route is required: one of GET `+ControlPath+`/routes, e.g. "GET /me"`)
	case !slices.Contains(s.rt.routes, route):
		return edge.Validation("route", "no route "+edge.Quote(route)+": GET "+ControlPath+
			"/routes lists them (a method, a space and the path without /api/v1)")
	}
	return nil
}

// decodeControl reads r's body into dst as the API reads the bodies of
// its own routes (edge.DecodeBody): one JSON object of at most
// edge.MaxBodyBytes, no duplicate key, every key exactly one of dst's
// field names at every depth (no case folding), every value of its
// field's type.
func decodeControl(r *http.Request, dst any) *edge.Error {
	_, herr := edge.DecodeBody(r, dst)
	return herr
}

// faultStateJSON is one fault set, as GET faults shows it.
type faultStateJSON struct {
	Route     string    `json:"route"`
	Fault     faultJSON `json:"fault"`
	TimesLeft int       `json:"timesLeft,omitempty"`
}

func (s *Server) controlFaults(w http.ResponseWriter, _ *http.Request) *edge.Error {
	s.faults.mu.Lock()
	out := make([]faultStateJSON, 0, len(s.faults.byRoute))
	for route, e := range s.faults.byRoute {
		st := faultStateJSON{Route: route, Fault: faultToJSON(e.f)}
		if e.f.Times > 0 {
			st.TimesLeft = e.left
		}
		out = append(out, st)
	}
	s.faults.mu.Unlock()
	slices.SortFunc(out, func(a, b faultStateJSON) int { return strings.Compare(a.Route, b.Route) })
	edge.WriteJSON(w, http.StatusOK, struct {
		Faults []faultStateJSON `json:"faults"`
	}{out})
	return nil
}
