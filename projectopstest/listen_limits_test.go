package projectopstest_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// guard bounds a raw connection's reads so a broken server fails the test
// instead of hanging it; it is not what the tests measure.
const guard = 20 * time.Second

// dialRaw opens a TCP connection to a started server and returns it with
// the /api/v1 path prefix.
func dialRaw(t *testing.T, srv *projectopstest.Server) (net.Conn, string) {
	t.Helper()
	base := srv.URL()
	if !strings.HasPrefix(base, "http://127.0.0.1") {
		var err error
		if base, err = srv.Start(); err != nil {
			t.Fatal(err)
		}
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(guard))
	return c, u.Path
}

// TestStalledBodyTimesOut: a client that stops sending its body gets a
// 400 VALIDATION_ERROR envelope once the body read timeout passes.
func TestStalledBodyTimesOut(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithConnTimeouts(100*time.Millisecond, time.Minute))
	ws := srv.Default()
	c, prefix := dialRaw(t, srv)
	_, err := io.WriteString(c, "POST "+prefix+"/projects/"+ws.ProjectID+"/hosts HTTP/1.1\r\nHost: x\r\n"+
		"Authorization: Bearer "+ws.APIKey+"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no response to a stalled body: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := result{status: resp.StatusCode, header: resp.Header, body: b}
	r.wantError(t, shared.CodeValidation)
}

// TestIdleConnectionClosed: an idle keep-alive connection is closed once
// the idle timeout passes.
func TestIdleConnectionClosed(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithConnTimeouts(time.Minute, 100*time.Millisecond))
	ws := srv.Default()
	c, prefix := dialRaw(t, srv)
	if _, err := io.WriteString(c, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /me: %v %v", resp, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("idle connection: read = %v, want EOF (closed by the server)", err)
	}
}

// TestCloseWithStalledClient: Close does not wait on a client stalled in
// the middle of its body, nor on an idle one, and reports no error (so
// projectops serve exits 0 on Ctrl-C).
func TestCloseWithStalledClient(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	c, prefix := dialRaw(t, srv)
	idle, _ := dialRaw(t, srv)
	_, err := io.WriteString(c, "POST "+prefix+"/projects/"+ws.ProjectID+"/hosts HTTP/1.1\r\nHost: x\r\n"+
		"Authorization: Bearer "+ws.APIKey+"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	if err != nil {
		t.Fatal(err)
	}
	// The stalled request is in its handler once a second request on
	// another connection has been answered (one goroutine per connection).
	if _, err := io.WriteString(idle, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(idle), nil); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- srv.Close() }()
	defer func() { t.Logf("Close took %v", time.Since(start)) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close = %v, want nil", err)
		}
	case <-time.After(guard):
		t.Fatal("Close waits on a stalled client")
	}
	if _, err := c.Read(make([]byte, 1)); err == nil || strings.Contains(err.Error(), "timeout") {
		t.Errorf("stalled connection after Close: %v, want closed", err)
	}
}
