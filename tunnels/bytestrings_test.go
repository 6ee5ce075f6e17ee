package tunnels_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// latin1 is s with each byte as its character, as Node holds it.
func latin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// latin1JSON is s as the service's edge writes a byte string.
func latin1JSON(s string) string {
	out, _ := json.Marshal(latin1(s))
	return string(out)
}

// rawRes reads the host's messages until the res of stream id and returns
// it as JSON.parse reads it.
func rawRes(t *testing.T, c *edgeConn, id uint32) (status int, headers [][]string) {
	t.Helper()
	for {
		typ, msg, err := c.r.Read()
		if err != nil {
			t.Fatalf("edge read: %v", err)
		}
		var m struct {
			T       string     `json:"t"`
			ID      uint32     `json:"id"`
			Status  int        `json:"status"`
			Headers [][]string `json:"headers"`
		}
		if typ != websocket.MessageText || json.Unmarshal(msg, &m) != nil || m.ID != id {
			continue
		}
		if m.T != "res" {
			t.Fatalf("got %s, want a res", msg)
		}
		return m.Status, m.Headers
	}
}

// The service's edge sends a request's url and headers as byte strings
// (one character per byte) and reads the response's the same way: the
// handler sees the caller's bytes, and its own go back byte for byte.
func TestServeSpeaksByteStrings(t *testing.T) {
	t.Parallel()
	// all is every byte a header value may hold (tab, printable ASCII and
	// 80–ff); the others make no HTTP message (see
	// TestServeRefusesWhatNodeRefuses).
	var all, high strings.Builder
	for i := range 256 {
		if i == '\t' || i >= 0x20 && i != 0x7f {
			all.WriteByte(byte(i))
		}
		if i >= 0x80 {
			high.WriteByte(byte(i))
		}
	}
	type seen struct{ header, query string }
	got := make(chan seen, 1)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, setup(t), e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.Header.Get("X-V"), r.URL.RawQuery}
		w.Header().Set("X-R", "caf\xc3\xa9 \xff")
		w.WriteHeader(http.StatusNoContent)
	}))
	c := e.next(t)
	c.send([]byte(`{"t":"req","id":1,"method":"GET","url":` + latin1JSON("/api/mcp/adapter-http/srv_1?k=s3cr3t-k&x="+high.String()) +
		`,"headers":[["x-v",` + latin1JSON(all.String()) + `]],"hasBody":false}`))
	if status, headers := rawRes(t, c, 1); status != http.StatusNoContent || !hasPair(headers, "X-R", latin1("caf\xc3\xa9 \xff")) {
		t.Errorf("res %d %q, want 204 with X-R one character per byte", status, headers)
	}
	if s := <-got; s.header != all.String() || s.query != "x="+high.String() {
		t.Errorf("handler saw header %q, query %q; want the caller's bytes", s.header, s.query)
	}
}

// hasPair reports the header pair name, value.
func hasPair(headers [][]string, name, value string) bool {
	for _, kv := range headers {
		if len(kv) == 2 && kv[0] == name && kv[1] == value {
			return true
		}
	}
	return false
}

// A character above U+00FF stands for no byte: a req with one in its url
// or a header is no request, aborted without reaching the handler.
func TestServeAbortsRequestThatIsNotBytes(t *testing.T) {
	t.Parallel()
	var called atomic.Bool
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, setup(t), e.grant(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called.Store(true) }))
	c := e.next(t)
	for i, msg := range []string{
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1?x=\u20ac","headers":[],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1","headers":[["x-e","5€"]],"hasBody":false}`,
	} {
		id := uint32(i + 1)
		c.send(fmt.Appendf(nil, msg, id))
		if r := c.response(id); r.abort != "upstream_error" {
			t.Errorf("%s: %+v, want an upstream_error abort", msg, r)
		}
	}
	if called.Load() {
		t.Error("the handler was called")
	}
}
