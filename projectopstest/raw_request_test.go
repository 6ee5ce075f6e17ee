package projectopstest_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// loopbackAddr is the host:port srv listens on, on loopback (started
// unless it listens already).
func loopbackAddr(t *testing.T, srv *projectopstest.Server) string {
	t.Helper()
	return listening(t, srv).Host
}

// listening is srv's base URL on loopback, srv started unless it listens
// already.
func listening(t *testing.T, srv *projectopstest.Server) *url.URL {
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
	return u
}

// rawRequest sends one HTTP/1.1 request with its target written exactly
// as given (no client cleans or escapes it, as a client that is not Go's
// may send it) and returns the status, headers and body.
func rawRequest(t *testing.T, addr, method, target string, hdr map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second)) // a hung double fails the test instead of hanging it
	var b strings.Builder
	b.WriteString(method + " " + target + " HTTP/1.1\r\nHost: " + addr + "\r\nConnection: close\r\n")
	for k, v := range hdr {
		b.WriteString(k + ": " + v + "\r\n")
	}
	if body != "" || method == http.MethodPost {
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("\r\n" + body)
	if _, err := io.WriteString(c, b.String()); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	rb, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(rb)
}
