package projectopstest

import (
	"sync"
	"time"
)

// Request is one request the double answered, as recorded for inspection.
// It deliberately holds no headers, query strings or bodies, so keys and
// other secrets never end up in a test's output.
type Request struct {
	Method string
	// Path is the URL path, without the query string, with secrets
	// replaced by REDACTED: the token of a minted upload URL; an API key
	// pasted into it, from "sk_" (any case) to the segment's end when the
	// "sk_" starts a segment or follows a byte that is no letter or digit
	// and 16 or more base64url characters follow (so an id such as
	// task_runner is shown as it is); any of the double's own keys, with
	// its "sk_" anywhere or as a segment without it, whatever its shape;
	// a '/'-separated segment whose percent and JSON \u escapes, decoded
	// up to twice, show such a key ("%73k_…", "%2573k_…", or a key
	// without its "sk_" after a backslash escaped as %5C or \u005c),
	// whole;
	// and any secret a tunnel's server record carries in its url (a
	// closed tunnel's too), wherever it is pasted, on any path. A
	// segment ends at '/', '\' or an escaped backslash (%5C, any case).
	// Nothing after a '#' (raw, a fragment the service never sees, or
	// escaped as %23) is shown: "#…" stands for it. The path of a request
	// refused 431 for its head, or 400 for a method Node does not know,
	// is cut to 256 bytes, "…" marking the cut: its target may be what
	// made the head too large.
	Path string
	// Route is the matched pattern without the /api/v1 prefix, e.g.
	// "GET /projects/{projectId}/hosts"; "" when no route matched. A route
	// outside /api/v1 is named in full, e.g. "/api/web/api-keys".
	Route string
	// Status is the HTTP status answered; 0 when the connection was dropped.
	Status int
	// KeyID is the id of the API key the request carried, when recognised.
	KeyID string
	// RequestID is the x-request-id answered; "" for a 431 to a head over
	// MaxHeaderBytes, answered (as Node answers it) before any id is given.
	// An id the client sent (answered as sent) has a key in it replaced by
	// REDACTED as Path has: one shaped like a key, one of the double's own
	// keys, a tunnel's secret.
	RequestID string
	// Time is when the request arrived, on the server's clock.
	Time time.Time
}

// MaxLoggedRequests bounds the request log: it keeps the most recent
// requests only, so a long benchmark or a standalone server does not grow
// without bound.
const MaxLoggedRequests = 10_000

// requestLog is a ring of the last MaxLoggedRequests requests.
type requestLog struct {
	mu   sync.Mutex
	reqs []Request
	next int // slot of the next write once the ring is full
}

func (l *requestLog) add(r Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.reqs) < MaxLoggedRequests {
		l.reqs = append(l.reqs, r)
		return
	}
	l.reqs[l.next] = r
	l.next = (l.next + 1) % MaxLoggedRequests
}

// Requests returns the requests answered so far (at most the last
// MaxLoggedRequests), oldest first.
func (s *Server) Requests() []Request {
	l := &s.reqlog
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Request, 0, len(l.reqs))
	out = append(out, l.reqs[l.next:]...)
	return append(out, l.reqs[:l.next]...)
}

// ResetRequests forgets the recorded requests.
func (s *Server) ResetRequests() {
	s.reqlog.mu.Lock()
	defer s.reqlog.mu.Unlock()
	s.reqlog.reqs, s.reqlog.next = nil, 0
}
