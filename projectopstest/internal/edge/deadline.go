package edge

import (
	"io"
	"net/http"
	"time"
)

// BodyDeadline gives a request with a body a read deadline of d, lifted
// once the body has been read: the deadline must not outlive the body,
// because net/http cancels a request's context when a read of its
// connection fails, and it keeps reading after the body to notice a
// departed client. Bodyless requests get none (an upgrade, whose
// connection is handed over, has no body); an Upgrade header on a request
// with a body changes nothing, or any client could stall a body forever.
func BodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
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
