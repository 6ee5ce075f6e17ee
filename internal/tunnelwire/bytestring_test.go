package tunnelwire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// allBytes is every byte value once.
func allBytes() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}

// latin1Text is s with each byte as its character, as Node holds it.
func latin1Text(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// Every byte value crosses a req's url and header name and value, and a
// res's header, as itself; the JSON text is JSON.stringify's of the
// string Node holds (one character per byte).
func TestByteStringsRoundTrip(t *testing.T) {
	t.Parallel()
	all := allBytes()
	for _, lower := range []bool{false, true} {
		msg := AppendReq(nil, 1, "GET", "/p?q="+all, http.Header{"X-V": {all}, "x-\x80\xff": {"n"}}, false, lower)
		c, err := DecodeControl(bytes.Clone(msg))
		if err != nil || c.NotBytes || c.URL != "/p?q="+all || c.Header.Get("X-V") != all || c.Header["x-\x80\xff"][0] != "n" {
			t.Errorf("req (lower %v) read as %+v, %v", lower, c, err)
		}
		var raw struct {
			URL     string     `json:"url"`
			Headers [][]string `json:"headers"`
		}
		if err := json.Unmarshal(msg, &raw); err != nil || raw.URL != latin1Text("/p?q="+all) || raw.Headers[0][1] != latin1Text(all) {
			t.Errorf("req (lower %v): JSON.parse would not read one character per byte: %+v, %v", lower, raw, err)
		}
	}
	msg := AppendRes(nil, 1, 200, http.Header{"X-V": {all}})
	if c, err := DecodeControl(msg); err != nil || c.NotBytes || c.Header.Get("X-V") != all {
		t.Errorf("res read as %+v, %v", c, err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(latin1Text(all))
	if got := appendByteString(nil, all); string(got) != strings.TrimSuffix(want.String(), "\n") {
		t.Errorf("byte string written as %s, JSON.stringify's is %s", got, want.String())
	}
}

// A character above U+00FF in a req's or res's HTTP strings stands for no
// byte: the message decodes, marked NotBytes. Text members stay text.
func TestByteStringsAboveFF(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		`{"t":"req","id":1,"method":"GET","url":"/x?e=\u20ac","headers":[]}`,
		`{"t":"req","id":1,"method":"GET","url":"/x?e=€","headers":[]}`,
		`{"t":"req","id":1,"method":"GËT€","url":"/","headers":[]}`,
		`{"t":"req","id":1,"url":"/","headers":[["x-e","5€"]]}`,
		`{"t":"req","id":1,"url":"/","headers":[["x-Ā","v"]]}`,
		`{"t":"req","id":1,"url":"/","headers":[["x-s","\ud800"]]}`,
		"{\"t\":\"req\",\"id\":1,\"url\":\"/\xff\",\"headers\":[]}", // invalid UTF-8 reads as U+FFFD
		`{"t":"res","id":1,"status":200,"headers":[["x-e","\u0100"]]}`,
	} {
		c, err := DecodeControl([]byte(msg))
		if err != nil || !c.NotBytes {
			t.Errorf("%s read as %+v, %v; want NotBytes", msg, c, err)
		}
	}
	c, err := DecodeControl([]byte(`{"t":"abort","id":1,"code":"upstream_error","msg":"café €"}`))
	if err != nil || c.NotBytes || c.Msg != "café €" {
		t.Errorf("an abort's text read as %+v, %v", c, err)
	}
	c, err = DecodeControl([]byte(`{"t":"res","id":1,"status":200,"headers":[["x-r","caf\u00c3\u00a9"]]}`))
	if err != nil || c.NotBytes || c.Header.Get("X-R") != "caf\xc3\xa9" {
		t.Errorf("Latin-1 characters read as %+v, %v; want the bytes c3 a9", c, err)
	}
}

// ASCII, nearly every url and header, costs no allocation either way.
func TestByteStringsASCIIAllocs(t *testing.T) {
	s := "/api/mcp/adapter-http/srv_1?k=secret&a=b"
	buf := make([]byte, 0, 128)
	if n := testing.AllocsPerRun(100, func() { buf = appendByteString(buf[:0], s) }); n != 0 {
		t.Errorf("appendByteString: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = fromByteString(s) }); n != 0 {
		t.Errorf("fromByteString: %v allocations", n)
	}
}

// Any bytes read back as themselves, written as JSON.stringify writes the
// string Node holds.
func FuzzByteString(f *testing.F) {
	f.Add("caf\xc3\xa9")
	f.Add("\x00\x7f\x80\xff\"\\")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeControl(AppendRes(nil, 1, 200, http.Header{"X-V": {s}}))
		if err != nil || c.NotBytes || c.Header.Get("X-V") != s {
			t.Fatalf("%q read as %+v, %v", s, c, err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(latin1Text(s))
		if got := appendByteString(nil, s); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Fatalf("%q written as %s, JSON.stringify's is %s", s, got, want.String())
		}
	})
}
