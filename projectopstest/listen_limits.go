package projectopstest

import (
	"errors"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// Limits of the loopback listener (Start, StartAt, projectops serve), so a
// double can be left running: a slow, idle or non-reading client holds
// nothing for long and never delays Close.
const (
	// DefaultBodyReadTimeout bounds how long a request's body may take to
	// arrive once its headers are in; a stalled upload then fails with
	// 400 VALIDATION_ERROR and its connection is closed.
	DefaultBodyReadTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long an idle keep-alive connection is kept.
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultWriteTimeout bounds each write of a response: a client that
	// stops reading has its connection closed once a write has waited on
	// it this long. It bounds a write, not a response: a stream (an SSE
	// GET, a relayed tunnel response) that a client keeps reading runs as
	// long as it runs.
	DefaultWriteTimeout = 30 * time.Second
	// MaxHeaderBytes caps a request's head as the service's Node server
	// caps it (its default maxHeaderSize), counting as Node counts: the
	// request target and every header's name and value. A head at or
	// over it is answered 431 with no body before any route, in process
	// and on the listener alike. The exception is a head over the
	// listener's backstop (4×MaxHeaderBytes plus net/http's 4 KiB slack,
	// counted as sent, on a connection's first request; more on a
	// kept-alive one, where net/http has read ahead), which net/http
	// refuses before any handler: 431 with a text/plain body and no
	// X-Request-Id.
	MaxHeaderBytes = 16 << 10
	// ShutdownGrace is how long Close lets requests in flight, loopback
	// and in process, finish before it cancels them and closes their
	// connections. It is for requests not yet answered, and those
	// answered during it: a stream whose response had begun as Close
	// started is not waited for, nor is a hijacked connection, which
	// Close keeps only until the requests not yet answered are done.
	ShutdownGrace = 2 * time.Second
)

// connLimits are the listener's timeouts (WithConnTimeouts,
// WithWriteTimeout).
type connLimits struct{ body, idle, write time.Duration }

// WithConnTimeouts sets the loopback listener's body read timeout (default
// DefaultBodyReadTimeout) and idle keep-alive timeout (default
// DefaultIdleTimeout). Both must be positive.
func WithConnTimeouts(body, idle time.Duration) Option {
	return func(o *options) error {
		if body <= 0 || idle <= 0 {
			return errors.New("projectopstest: WithConnTimeouts: timeouts must be positive")
		}
		o.conn.body, o.conn.idle = body, idle
		return nil
	}
}

// WithWriteTimeout sets how long one write of a loopback response may wait
// on a client that does not read it (default DefaultWriteTimeout) before
// the connection is closed. It must be positive.
func WithWriteTimeout(d time.Duration) Option {
	return checked("WithWriteTimeout", d > 0, "d must be positive", func(o *options) { o.conn.write = d })
}

func (l connLimits) withDefaults() connLimits {
	if l.body == 0 {
		l.body = DefaultBodyReadTimeout
	}
	if l.idle == 0 {
		l.idle = DefaultIdleTimeout
	}
	if l.write == 0 {
		l.write = DefaultWriteTimeout
	}
	return l
}

// configure applies the limits to the loopback http.Server.
func (l connLimits) configure(hs *http.Server) {
	hs.IdleTimeout = l.idle
	// A backstop: the handler applies the cap (headTooLarge). A head over
	// it is net/http's to answer, with its own text body.
	hs.MaxHeaderBytes = 4 * MaxHeaderBytes
	hs.Handler = edge.BodyDeadline(edge.WriteDeadline(hs.Handler, l.write), l.body)
}

// headTooLarge reports whether r's head reaches MaxHeaderBytes as Node
// counts it (the target, header names and values; not the method, the
// version, separators or line ends). net/http's own limit cannot count
// so, and on a kept-alive connection it reads ahead of it.
func headTooLarge(r *http.Request) bool {
	n := len(r.RequestURI) + len("Host") + len(r.Host)
	for name, vs := range r.Header {
		for _, v := range vs {
			n += len(name) + len(v)
		}
	}
	return n >= MaxHeaderBytes
}

// refuseHead answers a head over MaxHeaderBytes as the service's server
// does: 431, no body, the connection closed.
func refuseHead(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusRequestHeaderFieldsTooLarge)
}

// maxShownRefusedPath bounds the path the request log and the debug log
// keep of a request refused for its head: its target alone may be what
// made the head too large.
const maxShownRefusedPath = 256

// clipShown cuts a shown (already redacted) path to maxShownRefusedPath
// bytes, at a rune's start, marking the cut with "…".
func clipShown(p string) string {
	if len(p) <= maxShownRefusedPath {
		return p
	}
	n := maxShownRefusedPath
	for n > 0 && !utf8.RuneStart(p[n]) {
		n--
	}
	return p[:n] + "…"
}
