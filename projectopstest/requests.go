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
	// Path is the URL path, without the query string.
	Path string
	// Route is the matched pattern without the /api/v1 prefix, e.g.
	// "GET /projects/{projectId}/hosts"; "" when no route matched.
	Route string
	// Status is the HTTP status answered; 0 when the connection was dropped.
	Status int
	// KeyID is the id of the API key the request carried, when recognised.
	KeyID string
	// RequestID is the x-request-id answered.
	RequestID string
	// Time is when the request arrived, on the server's clock.
	Time time.Time
}

type requestLog struct {
	mu   sync.Mutex
	reqs []Request
}

func (l *requestLog) add(r Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r)
}

// Requests returns the requests answered so far, oldest first.
func (s *Server) Requests() []Request {
	s.reqlog.mu.Lock()
	defer s.reqlog.mu.Unlock()
	out := make([]Request, len(s.reqlog.reqs))
	copy(out, s.reqlog.reqs)
	return out
}

// ResetRequests forgets the recorded requests.
func (s *Server) ResetRequests() {
	s.reqlog.mu.Lock()
	defer s.reqlog.mu.Unlock()
	s.reqlog.reqs = nil
}
