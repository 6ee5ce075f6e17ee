package projectopstest

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/shared"
)

// Fault is an injected failure for one route (see Server.SetFault). A fault
// runs before authentication (the request log still records the key the
// request carried when the double holds it unrevoked, nothing else about
// it checked or metered), in this order: Latency, then Drop, then the
// error response. A fault with only Latency delays the request and then
// lets the route answer normally. With AfterRoute the route runs first and
// the fault then applies, in the same order, to its answer.
type Fault struct {
	// Status is the HTTP status of the error response. 0 with a Code uses the
	// code's status (500 for a code the SDK does not know); 0 without a
	// Code writes no error response.
	Status int
	// Code is the envelope's code; empty derives one from Status.
	Code shared.Code
	// Message is the envelope's message; empty uses the status text.
	Message string
	// Details is the envelope's details bag.
	Details map[string]any
	// RetryAfter, when positive, is sent as Retry-After in whole seconds
	// (rounded up).
	RetryAfter time.Duration
	// Latency delays the answer; the wait ends early when the request's
	// context is done (the client went away or the server closed).
	Latency time.Duration
	// Drop aborts the connection without a response, like a network drop:
	// the client sees a transport error, not an HTTP status.
	Drop bool
	// Times limits the fault to the first Times matching requests; 0 means
	// every request until ClearFaults.
	Times int
	// AfterRoute lets the route run, with all its effects, and then holds
	// its answer back: Latency delays it, Drop loses it (the client sees a
	// transport error), Status or Code replaces it with the error. It makes
	// "the write happened but the answer was lost", the case idempotent
	// retries exist for: a retried eval-run creation with the same
	// X-Mcpjam-Idempotency-Key must get the run the first attempt started.
	AfterRoute bool
	// Every, when above 1, applies the fault to every Every-th matching
	// request only (the Every-th, the 2×Every-th, ...); the others are
	// served normally. Every: 5 fails 20% of the calls, deterministically.
	// Times then counts the faulted requests.
	Every int
}

type faultEntry struct {
	f    Fault
	left int // remaining uses when f.Times > 0
	seen int // matching requests so far, for f.Every
}

type faultSet struct {
	mu      sync.Mutex
	byRoute map[string]*faultEntry
}

// SetFault injects f into every request matched by route, a pattern as
// listed by Routes, e.g. "GET /projects/{projectId}/hosts/{hostId}" (no
// /api/v1 prefix). It replaces any fault already set on route. A route
// that is not one of Routes panics: a fault that can never fire would let
// a test of error handling pass on the happy path. For the same reason a
// fault that changes nothing panics: one without Status, Code, Drop or
// Latency, or with Message, Details or RetryAfter but no Status or Code to
// send them with.
func (s *Server) SetFault(route string, f Fault) {
	if !slices.Contains(s.rt.routes, route) {
		panic(fmt.Sprintf("projectopstest: SetFault: no route %q (Server.Routes lists them, e.g. %q)", route, s.rt.routes[0]))
	}
	if why := f.inert(); why != faultActs {
		panic(fmt.Sprintf("projectopstest: SetFault(%q): %s", route, inertGo[why]))
	}
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.byRoute[route] = &faultEntry{f: f, left: f.Times}
}

// inertness is why a fault would change nothing about an answer. The
// reason, not a message, so SetFault and the control API (which spells
// the fields in JSON) refuse the same faults.
type inertness int

const (
	faultActs       inertness = iota // the fault changes the answer
	faultUnsentBody                  // Message, Details or RetryAfter with no error response
	faultNoEffect                    // nothing set that acts
)

// inertGo says what is wrong, in the Go field names.
var inertGo = [...]string{
	faultUnsentBody: "Message, Details and RetryAfter are sent with an error response only: set Status or Code",
	faultNoEffect:   "the fault changes nothing: set Status, Code, Drop or Latency",
}

// inert says why f would change nothing about an answer.
func (f Fault) inert() inertness {
	answers := f.Status != 0 || f.Code != ""
	switch {
	case !answers && (f.Message != "" || f.Details != nil || f.RetryAfter > 0):
		return faultUnsentBody
	case !answers && !f.Drop && f.Latency <= 0:
		return faultNoEffect
	}
	return faultActs
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	clear(s.faults.byRoute)
}

// take returns the fault to apply to one request on route, consuming a use.
func (fs *faultSet) take(route string) (Fault, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	e := fs.byRoute[route]
	if e == nil {
		return Fault{}, false
	}
	if e.f.Every > 1 {
		e.seen++
		if e.seen%e.f.Every != 0 {
			return Fault{}, false
		}
	}
	if e.f.Times > 0 {
		e.left--
		if e.left <= 0 {
			delete(fs.byRoute, route)
		}
	}
	return e.f, true
}

// applyFault runs a fault before its route. It reports whether the
// request was answered (or aborted) so the route must not run.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, f Fault) bool {
	if f.Latency > 0 {
		bufferBody(r)
		if !sleepCtx(r.Context(), f.Latency) || r.Context().Err() != nil {
			// The client is gone; nobody will read an answer, and the
			// request must not run after the wait: stop here.
			panic(http.ErrAbortHandler)
		}
	}
	if f.Drop {
		panic(http.ErrAbortHandler)
	}
	return writeFault(w, f)
}

// writeFault writes f's error response, reporting whether f has one.
func writeFault(w http.ResponseWriter, f Fault) bool {
	if f.Status == 0 && f.Code == "" {
		return false
	}
	status, code := f.Status, f.Code
	if status == 0 {
		status = cmp.Or(code.Status(), http.StatusInternalServerError)
	}
	if code == "" {
		code = edge.CodeForStatus(status)
	}
	msg := f.Message
	if msg == "" {
		msg = http.StatusText(status)
	}
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(edge.RetryAfterSeconds(f.RetryAfter)))
	}
	edge.WriteJSON(w, status, apierr.Body{Code: code, Message: msg, Details: f.Details})
	return true
}

// sleepCtx waits d or until ctx is done; it reports whether d elapsed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
