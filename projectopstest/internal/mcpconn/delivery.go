package mcpconn

import (
	"context"
	"net/http"
	"sync/atomic"
)

// Delivery records, for one operation, whether a request of it was
// refused because its session was gone: the server answered 404 to the
// request's session id (MCP streamable HTTP: the session ended, for
// example when the server restarted). Such a request reached no session,
// so it may be sent again on a new one, a tool call included. The record
// rides in the request's context, so only the call whose own request was
// refused is marked, not others that share the connection.
type Delivery struct{ sessionGone atomic.Bool }

type deliveryKey struct{}

// TrackDelivery returns ctx carrying a new Delivery.
func TrackDelivery(ctx context.Context) (context.Context, *Delivery) {
	d := &Delivery{}
	return context.WithValue(ctx, deliveryKey{}, d), d
}

// SessionGone reports whether a request was refused for a missing session.
func (d *Delivery) SessionGone() bool { return d != nil && d.sessionGone.Load() }

// noteSessionGone marks r's Delivery when the server answered its session
// id with 404.
func noteSessionGone(r *http.Request, resp *http.Response) {
	if resp.StatusCode != http.StatusNotFound || r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") == "" {
		return
	}
	if d, ok := r.Context().Value(deliveryKey{}).(*Delivery); ok {
		d.sessionGone.Store(true)
	}
}
