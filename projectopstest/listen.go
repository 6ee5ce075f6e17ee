package projectopstest

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Start serves the API on a random loopback port and returns its base URL
// (including /api/v1), which URL reports from then on.
func (s *Server) Start() (string, error) { return s.StartAt("127.0.0.1:0") }

// StartAt serves the API on addr (host:port) and returns the base URL. A
// server listens at most once; Close stops it.
func (s *Server) StartAt(addr string) (string, error) {
	s.life.Lock()
	defer s.life.Unlock()
	if s.closed {
		return "", ErrServerClosed
	}
	if s.httpSrv != nil {
		return "", errors.New("projectopstest: server already started")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		// Requests inherit the server's context, which Close cancels once
		// they had ShutdownGrace to finish.
		BaseContext: func(net.Listener) context.Context { return s.ctx },
		// Close cuts a relayed stream already answered by closing its
		// connection (loopStreams).
		ConnContext: withConn,
		ErrorLog:    slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	s.conn.configure(hs)
	s.httpSrv = hs
	// Set before Serve starts, so every request on the listener sees it.
	ta, _ := ln.Addr().(*net.TCPAddr)
	s.loopbackOnly.Store(ta != nil && ta.IP.IsLoopback())
	s.baseURL = "http://" + dialable(ln.Addr()) + apiPrefix
	s.inflight.Add(1) // under s.life with closed false: Close has not started waiting
	go func() {
		defer s.inflight.Done()
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("projectopstest: serve", "err", err)
		}
	}()
	return s.baseURL, nil
}

// dialable is a listener's address as a client on this machine dials it: a
// wildcard bind (0.0.0.0, ::, or no host) is served on loopback too, while
// its printed form "[::]:port" is no address to connect to.
func dialable(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok && ta.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(ta.Port))
	}
	return a.String()
}
