package projectopstest_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// loopbackAddr serves srv on loopback and returns its host:port.
func loopbackAddr(t *testing.T, srv *projectopstest.Server) string {
	t.Helper()
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(strings.TrimSuffix(base, "/api/v1"), "http://")
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
