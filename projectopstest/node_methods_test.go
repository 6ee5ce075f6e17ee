package projectopstest_test

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// A method Node's HTTP parser does not know, case-sensitively ("patch",
// which Node's fetch sends as written; "FOO"), is refused as the service's
// server refuses a request line it cannot parse: a bare 400 with
// "Connection: close", no body, none of the app's headers and no request
// id, before authentication and whatever the head's size. The service's
// answer is the same whatever the client's transport, so in process too.
func TestUnknownMethodIsBareBadRequest(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	hosts := "/projects/" + ws.ProjectID + "/hosts"
	big := "X-Big: " + strings.Repeat("a", projectopstest.MaxHeaderBytes) + "\r\n" // 431 for a known method
	for _, c := range []struct{ method, header string }{{"patch", ""}, {"FOO", ""}, {"get", big}} {
		conn, prefix := dialRaw(t, srv)
		go func() { // the server may answer before it has read all of it
			_, _ = io.WriteString(conn, c.method+" "+prefix+hosts+"/hst_1 HTTP/1.1\r\nHost: x\r\n"+c.header+
				"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
		}()
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.method, err)
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusBadRequest || len(b) != 0 || !resp.Close {
			t.Errorf("%s: %d, body %q, close %v; want a bare 400 closing the connection", c.method, resp.StatusCode, b, resp.Close)
		}
		for _, h := range []string{"X-Request-Id", "X-Content-Type-Options"} {
			if v := resp.Header.Get(h); v != "" {
				t.Errorf("%s: %s %q; want none, as before the app", c.method, h, v)
			}
		}
		if _, err := br.ReadByte(); err != io.EOF {
			t.Errorf("%s: after the answer: read %v, want the connection closed", c.method, err)
		}
	}
	req, err := http.NewRequestWithContext(t.Context(), "patch", projectopstest.InProcessURL+hosts+"/hst_1", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+ws.APIKey)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || len(b) != 0 || resp.Header.Get("Connection") != "close" {
		t.Errorf("in process: %d, body %q, Connection %q; want a bare 400, close", resp.StatusCode, b, resp.Header.Get("Connection"))
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("request log holds %d requests, want the four 400s: %+v", len(reqs), reqs)
	}
	for i, r := range reqs {
		if r.Status != http.StatusBadRequest || r.RequestID != "" || r.KeyID != "" || r.Route != "" {
			t.Errorf("logged refusal #%d: %+v", i, r)
		}
	}
	if r := reqs[3]; r.Method != "patch" || r.Path != "/api/v1"+hosts+"/hst_1" {
		t.Errorf("logged %s %s; want the method and path as sent", r.Method, r.Path)
	}
}

// The service's Node server has no 'connect' listener: Node destroys the
// socket of a CONNECT request without answering (Node 20.20.2: a raw
// "CONNECT /api HTTP/1.1" reads nothing, then the close). The double
// closes the connection unanswered, logs nothing, and in process fails
// the request as a connection the server dropped.
func TestConnectIsDroppedUnanswered(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	hosts := "/projects/" + ws.ProjectID + "/hosts"
	c, prefix := dialRaw(t, srv)
	_, _ = io.WriteString(c, "CONNECT "+prefix+hosts+" HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+"\r\n\r\n")
	if b, err := io.ReadAll(c); len(b) != 0 || err != nil {
		t.Errorf("listener: CONNECT read %q, %v; want nothing, then the close", b, err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodConnect, projectopstest.InProcessURL+hosts, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+ws.APIKey)
	resp, err := srv.Transport().RoundTrip(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("in process: CONNECT answered %d; want the connection dropped", resp.StatusCode)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("in process: CONNECT: %v; want a dropped connection's unexpected EOF", err)
	}
	if reqs := srv.Requests(); len(reqs) != 0 {
		t.Errorf("request log holds %+v; want nothing, as the app never ran", reqs)
	}
}

// An *http.Request whose Method is "" means GET to net/http ("For client
// requests, an empty string means GET"); in process it is served as GET,
// not refused as a method Node does not know.
func TestEmptyMethodIsGETInProcess(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	u, err := url.Parse(projectopstest.InProcessURL + "/projects/" + ws.ProjectID + "/hosts")
	if err != nil {
		t.Fatal(err)
	}
	req := (&http.Request{URL: u, Header: http.Header{"Authorization": {"Bearer " + ws.APIKey}}, Host: u.Host}).WithContext(t.Context())
	resp, err := srv.Transport().RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("Method \"\" in process: %d, want 200 as GET", resp.StatusCode)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Method != http.MethodGet {
		t.Errorf("request log holds %+v; want one GET", reqs)
	}
}
