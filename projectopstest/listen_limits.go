package projectopstest

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// Limits of the loopback listener (Start, StartAt, projectops serve), so a
// double can be left running: a slow or idle client holds nothing for long
// and never delays Close.
const (
	// DefaultBodyReadTimeout bounds how long a request's body may take to
	// arrive once its headers are in; a stalled upload then fails with
	// 400 VALIDATION_ERROR and its connection is closed.
	DefaultBodyReadTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long an idle keep-alive connection is kept.
	DefaultIdleTimeout = 2 * time.Minute
	// MaxHeaderBytes caps a request's header block on the listener
	// (net/http answers a larger one itself, as plain text 431).
	MaxHeaderBytes = 1 << 20
	// ShutdownGrace is how long Close lets in-flight loopback requests
	// finish before it closes their connections.
	ShutdownGrace = 2 * time.Second
)

// connLimits are the listener's timeouts (WithConnTimeouts).
type connLimits struct{ body, idle time.Duration }

// WithConnTimeouts sets the loopback listener's body read timeout (default
// DefaultBodyReadTimeout) and idle keep-alive timeout (default
// DefaultIdleTimeout). Both must be positive.
func WithConnTimeouts(body, idle time.Duration) Option {
	return func(o *options) error {
		if body <= 0 || idle <= 0 {
			return errors.New("projectopstest: WithConnTimeouts: timeouts must be positive")
		}
		o.conn = connLimits{body: body, idle: idle}
		return nil
	}
}

func (l connLimits) withDefaults() connLimits {
	if l.body == 0 {
		l.body = DefaultBodyReadTimeout
	}
	if l.idle == 0 {
		l.idle = DefaultIdleTimeout
	}
	return l
}

// configure applies the limits to the loopback http.Server.
func (l connLimits) configure(hs *http.Server) {
	hs.IdleTimeout = l.idle
	hs.MaxHeaderBytes = MaxHeaderBytes
	hs.Handler = bodyDeadline(hs.Handler, l.body)
}

// bodyDeadline gives a request with a body a read deadline of d, lifted
// once the body has been read: the deadline must not outlive the body,
// because net/http cancels a request's context when a read of its
// connection fails, and it keeps reading after the body to notice a
// departed client. Bodyless requests and upgrades get none.
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 || r.Header.Get("Upgrade") != "" {
			h.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(d)) == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the connection's read deadline when the body ends.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !b.done {
		b.done = true
		if err == io.EOF {
			_ = b.rc.SetReadDeadline(time.Time{})
		}
	}
	return n, err
}
