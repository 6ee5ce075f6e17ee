package projectopstest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// streamServer is a server with test-only routes that stream, echo bodies
// and panic, to exercise the in-process transport.
func streamServer(t *testing.T) (*Server, chan struct{}, chan error) {
	t.Helper()
	s, err := NewServer(WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	release := make(chan struct{})
	handlerDone := make(chan error, 1)
	s.rt.register("GET /test/stream", routePublic|routeStreaming, func(w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "first\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			handlerDone <- r.Context().Err()
			return nil
		}
		_, err := io.WriteString(w, "second\n")
		handlerDone <- err
		return nil
	})
	s.rt.register("GET /test/stream-drop", routePublic|routeStreaming, func(w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
		_, _ = io.WriteString(w, "partial\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	})
	s.rt.handlePublic("GET /test/panic", func(w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
		panic("boom")
	})
	s.rt.handlePublic("GET /test/flush-sync", func(w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
		// Not a streaming route: Flush must not deadlock on a pipe nobody reads.
		_, _ = io.WriteString(w, "a")
		w.(http.Flusher).Flush()
		_, _ = io.WriteString(w, "b")
		return nil
	})
	s.rt.handlePublic("POST /test/echo", func(w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return edge.Internal()
		}
		w.Header().Set("X-Proto", r.Proto)
		_, _ = w.Write(b)
		return nil
	})
	return s, release, handlerDone
}

func get(t *testing.T, s *Server, ctx context.Context, path string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", InProcessURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.Transport().RoundTrip(req)
}

func TestTransportStreams(t *testing.T) {
	t.Parallel()
	s, release, done := streamServer(t)
	resp, err := get(t, s, t.Context(), "/test/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ContentLength != -1 || resp.Proto != "HTTP/1.1" || resp.Request == nil || resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("response = %+v", resp)
	}
	// The first chunk arrives while the handler is still blocked.
	line := make([]byte, len("first\n"))
	if _, err := io.ReadFull(resp.Body, line); err != nil || string(line) != "first\n" {
		t.Fatalf("first chunk %q, %v", line, err)
	}
	close(release)
	rest, err := io.ReadAll(resp.Body)
	if err != nil || string(rest) != "second\n" {
		t.Fatalf("rest %q, %v", rest, err)
	}
	if err := <-done; err != nil {
		t.Errorf("handler write: %v", err)
	}
}

func TestTransportBodyCloseCancelsHandler(t *testing.T) {
	t.Parallel()
	s, _, done := streamServer(t)
	resp, err := get(t, s, t.Context(), "/test/stream")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler saw %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("handler not cancelled by closing the body")
	}
}

func TestTransportContextCancelMidStream(t *testing.T) {
	t.Parallel()
	s, _, done := streamServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	resp, err := get(t, s, ctx, "/test/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("handler saw %v", err)
	}
}

func TestTransportFlushOnOrdinaryRoute(t *testing.T) {
	t.Parallel()
	s, _, _ := streamServer(t)
	resp, err := get(t, s, t.Context(), "/test/flush-sync")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if string(b) != "ab" || err != nil || resp.ContentLength != 2 {
		t.Errorf("body %q, %v, ContentLength %d", b, err, resp.ContentLength)
	}
}

func TestTransportDropMidStream(t *testing.T) {
	t.Parallel()
	s, _, _ := streamServer(t)
	resp, err := get(t, s, t.Context(), "/test/stream-drop")
	if err != nil {
		t.Fatalf("headers were flushed, RoundTrip should succeed: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if string(b) != "partial\n" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("read %q, %v; want the partial body then ErrUnexpectedEOF", b, err)
	}
}

func TestTransportPanicIsDroppedConnection(t *testing.T) {
	t.Parallel()
	s, _, _ := streamServer(t)
	if resp, err := get(t, s, t.Context(), "/test/panic"); err == nil {
		resp.Body.Close()
		t.Fatal("want a transport error")
	}
}

func TestTransportRequestBody(t *testing.T) {
	t.Parallel()
	s, _, _ := streamServer(t)
	big := strings.Repeat("0123456789", 100_000)
	req, err := http.NewRequestWithContext(t.Context(), "POST", InProcessURL+"/test/echo", strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !bytes.Equal(b, []byte(big)) || resp.ContentLength != int64(len(big)) || resp.Header.Get("X-Proto") != "HTTP/1.1" {
		t.Errorf("echo: %d bytes, ContentLength %d, proto %q", len(b), resp.ContentLength, resp.Header.Get("X-Proto"))
	}
}

func TestCloseStopsStreamsAndRefusesRequests(t *testing.T) {
	t.Parallel()
	s, _, done := streamServer(t)
	resp, err := get(t, s, t.Context(), "/test/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung on an unread stream")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("handler saw %v", err)
	}
	if _, err := get(t, s, t.Context(), "/test/stream"); !errors.Is(err, ErrServerClosed) {
		t.Errorf("after Close: %v, want ErrServerClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Start(); !errors.Is(err, ErrServerClosed) {
		t.Errorf("Start after Close: %v", err)
	}
}

func TestTransportCancelledBeforeSend(t *testing.T) {
	t.Parallel()
	s, _, _ := streamServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := get(t, s, ctx, "/test/stream"); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}
