package projectopstest

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// loopStreams tracks the loopback relayed responses under way (a
// tunnel's SSE stream held open), so Close can cut those already answered
// as it starts: http.Server.Shutdown waits for every connection to go
// idle, which a stream's caller holding it open never does, so without
// this an answered stream would hold Close for all of ShutdownGrace.
// A stream is cut by closing its connection, so its caller reads an error
// rather than a body that ends as if the host had finished it. Requests
// answered once Close has begun run on with the grace, as in process.
//
// The relay's public handler registers its streams itself (it implements
// relay.Watcher): no other route streams, and a lookup per request to tell
// would cost every relayed request its route resolved twice.
type loopStreams struct {
	mu      sync.Mutex
	closing bool
	open    map[net.Conn]struct{} // connections of answered streams
}

// connKey is the context key under which a loopback request's connection
// is kept (http.Server.ConnContext), for Close to cut it.
type connKey struct{}

// withConn is the listener's http.Server.ConnContext: one context per
// connection, none per request.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// loopConn is r's connection on the listener, nil in process.
func loopConn(r *http.Request) net.Conn {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	return c
}

// Started implements relay.Watcher: r's response head is written. A
// stream answered before Close began is cut when it does.
func (ls *loopStreams) Started(r *http.Request) {
	c := loopConn(r)
	if c == nil {
		return
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.closing {
		return // answered during the grace: it keeps it
	}
	if ls.open == nil {
		ls.open = map[net.Conn]struct{}{}
	}
	ls.open[c] = struct{}{}
}

// Ended implements relay.Watcher: r's response is over.
func (ls *loopStreams) Ended(r *http.Request) {
	c := loopConn(r)
	if c == nil {
		return
	}
	ls.mu.Lock()
	delete(ls.open, c)
	ls.mu.Unlock()
}

// close cuts every stream already answered. Closing the connection makes
// net/http cancel the request's context (Forward then returns and tells
// the host), and the caller's read of the body fails.
func (ls *loopStreams) close() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.closing = true
	for c := range ls.open {
		_ = c.Close()
	}
	clear(ls.open)
}
