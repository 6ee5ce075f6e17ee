package inproc

import (
	"bufio"
	"errors"
	"net"
	"net/http"
)

// Hijack implements http.Hijacker so that protocol upgrades (the relay's
// WebSocket) work in process: after WriteHeader(101) the handler gets one
// end of a net.Pipe and the client receives a 101 response whose Body is
// the other end, an io.ReadWriteCloser, as net/http's client returns. Only
// routes registered as streaming can hijack (they run on their own
// goroutine); the connection is then the handler's to close.
func (w *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.gone:
		return nil, nil, errors.New("projectopstest: the client gave up before the upgrade")
	case w.sync:
		return nil, nil, errors.New("projectopstest: only streaming routes can hijack in process")
	case w.committed:
		return nil, nil, errors.New("projectopstest: hijack after the response was committed")
	case w.status != http.StatusSwitchingProtocols:
		return nil, nil, errors.New("projectopstest: in process, only a 101 Switching Protocols response can be hijacked")
	}
	server, client := net.Pipe()
	w.conn = client
	w.committed = true
	if w.sent == nil {
		w.sent = w.headerAtStatusLocked(true)
	}
	w.signalReady()
	w.leaveLocked() // the request is over; the connection is the handler's
	return server, bufio.NewReadWriter(bufio.NewReader(server), bufio.NewWriter(server)), nil
}

// leave ends a streaming request's count with its host, once.
func (w *responseWriter) leave() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.leaveLocked()
}

func (w *responseWriter) leaveLocked() {
	if w.host != nil {
		w.host.Leave()
		w.host = nil
	}
}

// abandon is the client giving up before the response reached it: a
// connection hijacked since, or about to be, would have nobody at the
// other end, and the handler (the relay's session, say) would serve a
// pipe nobody reads until the server closes. It is closed, or refused.
func (w *responseWriter) abandon() {
	w.mu.Lock()
	w.gone = true
	conn := w.conn
	w.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
}
