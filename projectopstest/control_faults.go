package projectopstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"slices"
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

// maxControlBody bounds a control request's body: a fault is small.
const maxControlBody = 1 << 20

// maxMs is the largest whole-millisecond duration a time.Duration holds.
const maxMs = math.MaxInt64 / int64(time.Millisecond)

func faultToJSON(f Fault) faultJSON {
	return faultJSON{
		Status: f.Status, Code: f.Code, Message: f.Message, Details: f.Details,
		RetryAfterMs: f.RetryAfter.Milliseconds(), LatencyMs: f.Latency.Milliseconds(),
		Drop: f.Drop, Times: f.Times, AfterRoute: f.AfterRoute, Every: f.Every,
	}
}

// fault checks j as SetFault's input and converts it; the error names the
// field at fault.
func (j faultJSON) fault() (Fault, *edge.Error) {
	for _, n := range []struct {
		name string
		v    int64
	}{{"retryAfterMs", j.RetryAfterMs}, {"latencyMs", j.LatencyMs}, {"times", int64(j.Times)}, {"every", int64(j.Every)}} {
		if n.v < 0 {
			return Fault{}, edge.Validation("fault."+n.name, "fault."+n.name+" must not be negative")
		}
		if n.v > maxMs {
			return Fault{}, edge.Validation("fault."+n.name, "fault."+n.name+" is too large")
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
	switch {
	case body.Route == "":
		return edge.Validation("route", `route is required: one of GET `+ControlPath+`/routes, e.g. "GET /me"`)
	case !slices.Contains(s.rt.routes, body.Route):
		return edge.Validation("route", "no route "+edge.Quote(body.Route)+": GET "+ControlPath+
			"/routes lists them (a method, a space and the path without /api/v1)")
	case body.Fault == nil:
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

// decodeControl reads r's body into dst strictly: one JSON object, no
// unknown field, every value of its field's type.
func decodeControl(r *http.Request, dst any) *edge.Error {
	data, err := io.ReadAll(io.LimitReader(r.Body, maxControlBody+1))
	switch {
	case err != nil:
		return edge.Validation("", "the body could not be read")
	case len(data) > maxControlBody:
		return edge.BodyTooLarge()
	case len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")):
		return edge.Validation("", `the body must be a JSON object: {"route": ..., "fault": {...}}`)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err = dec.Decode(dst)
	if err == nil && dec.More() {
		err = errors.New("data after the JSON object")
	}
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field == "":
		return edge.Validation("", "the body must be a JSON object, not a JSON "+typeErr.Value)
	case errors.As(err, &typeErr):
		return edge.Validation(typeErr.Field, typeErr.Field+" must be "+jsonKind(typeErr.Type.Kind().String())+
			", not a JSON "+typeErr.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return edge.Validation("", "unknown field "+strings.TrimPrefix(err.Error(), "json: unknown field ")+
			": the body takes route and fault, a fault status, code, message, details, retryAfterMs, "+
			"latencyMs, drop, times, afterRoute and every")
	}
	return edge.Validation("", "the body is not one JSON object: "+strings.TrimPrefix(err.Error(), "json: "))
}

// jsonKind names a Go kind as the JSON a client should send.
func jsonKind(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"):
		return "a whole number"
	case kind == "string":
		return "a string"
	case kind == "bool":
		return "true or false"
	case kind == "map", kind == "struct", kind == "ptr":
		return "an object"
	}
	return "a " + kind
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
