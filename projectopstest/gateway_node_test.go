package projectopstest_test

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// The service's gateway is a Node server: what Node does to a request
// before the routes see it, the double does too.

// Two Authorization headers reach the gateway as one value joined with
// ", ", which no key matches: 401, not the first header's account (nor
// the first one's guest refusal).
func TestRepeatedAuthorizationHeaders(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/me", nil)
	req.Header.Add("Authorization", "Bearer "+ws.APIKey)
	req.Header.Add("Authorization", "Bearer sk_other")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), `"UNAUTHORIZED"`) {
		t.Errorf("two Authorization headers: %d %s; want 401 UNAUTHORIZED", res.StatusCode, body)
	}
	if strings.Contains(string(body), ws.APIKey) {
		t.Errorf("the refusal echoes the key: %s", body)
	}
}

// What may surround a JSON body, as the service reads it (text decoding,
// which drops a leading byte-order mark, then JSON.parse, which skips
// JSON's white space only): a body of only a mark is the empty body, {},
// refused for what it lacks; a mark elsewhere, or a Unicode space, is not
// JSON.
func TestBodyLeadingBytes(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	hosts := "/projects/" + ws.ProjectID + "/hosts"
	const host = `{"name":"h","template":"claude"}`
	for _, c := range []struct {
		body    string
		created bool // else a VALIDATION_ERROR, "Invalid JSON body" or not
		notJSON bool
	}{
		{"\uFEFF" + host, true, false},
		{"\uFEFF \n" + host, true, false},
		{"\uFEFF", false, false},
		{" \uFEFF" + host, false, true},
		{"\u00a0" + host, false, true},
		{"\uFEFF\u00a0" + host, false, true},
		{"\v" + host, false, true},
	} {
		r := tg.call(t, "POST", hosts, ws.APIKey, c.body)
		if c.created {
			if r.status != http.StatusCreated {
				t.Errorf("body %q: %d %.200s; want 201", c.body, r.status, r.body)
			}
			continue
		}
		if b := r.wantError(t, shared.CodeValidation); (b.Message == "Invalid JSON body") != c.notJSON {
			t.Errorf("body %q: %.200s; want not-JSON %v", c.body, r.body, c.notJSON)
		}
	}
}

// A header block over the service's 16 KiB (Node's maxHeaderSize) is
// refused with 431 before any route; one well under it is served.
func TestHeaderBlockCap(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for _, c := range []struct {
		size   int
		status int
	}{{10 << 10, http.StatusOK}, {projectopstest.MaxHeaderBytes + 1, http.StatusRequestHeaderFieldsTooLarge}} {
		conn, prefix := dialRaw(t, srv)
		if _, err := io.WriteString(conn, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+
			"\r\nX-Big: "+strings.Repeat("b", c.size)+"\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("a %d-byte header: %d, want %d", c.size, res.StatusCode, c.status)
		}
	}
}
