package tunnelwire

import (
	"bytes"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// Each message type reads back as it was written, by the scan.
func TestControlRoundTrip(t *testing.T) {
	t.Parallel()
	h := http.Header{"Content-Type": {"application/json"}, "X-Multi": {"a", "b"}, "Accept": {"text/event-stream"}}
	for name, tc := range map[string]struct {
		msg  []byte
		want Control
	}{
		"hello": {AppendHello(nil, "slug0001", Limits{MaxReqBody: 10 << 20, Chunk: 65536, MaxInflight: 32}),
			Control{T: Hello, Proto: Proto, Slug: "slug0001", Limits: Limits{MaxReqBody: 10 << 20, Chunk: 65536, MaxInflight: 32}}},
		"req": {AppendReq(nil, 7, "POST", "/api/mcp/adapter-http/s1?k=x&a=b", h, true, true),
			Control{T: Req, ID: 7, Method: "POST", URL: "/api/mcp/adapter-http/s1?k=x&a=b", Header: h, HasBody: true}},
		"req without body": {AppendReq(nil, 8, "GET", "/", http.Header{}, false, false),
			Control{T: Req, ID: 8, Method: "GET", URL: "/", Header: http.Header{}}},
		"res":               {AppendRes(nil, 4294967295, 202, h), Control{T: Res, ID: 4294967295, Status: 202, Header: h}},
		"req_end":           {AppendEnd(nil, ReqEnd, 1), Control{T: ReqEnd, ID: 1}},
		"res_end":           {AppendEnd(nil, ResEnd, 2), Control{T: ResEnd, ID: 2}},
		"abort":             {AppendAbort(nil, 3, AbortUpstreamError, "dial tcp: refused"), Control{T: Abort, ID: 3, Code: AbortUpstreamError, Msg: "dial tcp: refused"}},
		"abort without msg": {AppendAbort(nil, 3, AbortClientGone, ""), Control{T: Abort, ID: 3, Code: AbortClientGone}},
	} {
		got, ok := scanControl(tc.msg)
		if !ok {
			t.Errorf("%s: the scan refused %s", name, tc.msg)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %s read as %+v, want %+v", name, tc.msg, got, tc.want)
		}
		if slow := slowControl(t, tc.msg); slow == nil || !reflect.DeepEqual(*slow, got) {
			t.Errorf("%s: json/v2 reads %+v, the scan %+v", name, slow, got)
		}
	}
}

// The service's edge writes header names in lower case and may repeat
// one; the message's shape is JSON.stringify's, and a peer may add members
// or whitespace: all of it reads as JSON.parse would.
func TestDecodeControlLenient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		msg  string
		want Control
	}{
		{`{"t":"req","id":7,"method":"POST","url":"/p?k=s","headers":[["content-type","application/json"],["x-forwarded-host","slug.tunnels.example"],["accept","a"],["Accept","b"]],"hasBody":true}`,
			Control{T: Req, ID: 7, Method: "POST", URL: "/p?k=s", HasBody: true, Header: http.Header{
				"Content-Type": {"application/json"}, "X-Forwarded-Host": {"slug.tunnels.example"}, "Accept": {"a", "b"}}}},
		{`{"t":"req","id":1,"headers":[["a","1"],["b","2"],["A","3"]]}`,
			Control{T: Req, ID: 1, Header: http.Header{"A": {"1", "3"}, "B": {"2"}}}},
		{` { "t" : "abort", "id" : 9, "code" : "client_gone", "extra": {"x": [1, null]} } `,
			Control{T: Abort, ID: 9, Code: AbortClientGone}},
		{`{"t":"res","id":2,"status":200,"headers":[["x-note","caf\u00e9 \"q\""]]}`,
			Control{T: Res, ID: 2, Status: 200, Header: http.Header{"X-Note": {"caf\xe9 \"q\""}}}}, // U+00E9 is the byte e9
		{`{"t":"hello","proto":1,"slug":"s","limits":{"chunk":1024},"t":"hello"}`,
			Control{T: Hello, Proto: 1, Slug: "s", Limits: Limits{Chunk: 1024}}},
		{`{"t":"future","id":3,"whatever":true}`, Control{T: "future", ID: 3}},
		{`{"t":"req","id":4,"headers":[["a","b","c"]]}`, Control{T: Req, ID: 4, Header: http.Header{"A": {"b"}}}},
	} {
		got, err := DecodeControl([]byte(tc.msg))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeControl(%s) = %+v, %v; want %+v", tc.msg, got, err, tc.want)
		}
	}
	for _, bad := range []string{``, `[]`, `{"t":`, `{"t":"req","id":-1}`, `{"t":"req","id":4294967296}`,
		`{"t":"req","headers":[["only-a-name"]]}`, `{"t":"req","headers":[["a","b",1]]}`, `{"t":"req","headers":[["a",1]]}`, `{"t":1}`} {
		if got, err := DecodeControl([]byte(bad)); err == nil {
			t.Errorf("DecodeControl(%s) = %+v, want an error", bad, got)
		}
	}
}

// A header name or value that JSON must escape is written so that it
// reads back the same.
func TestControlEscapes(t *testing.T) {
	t.Parallel()
	h := http.Header{"X-Html": {"<a href='x'>&</a>"}, "X-Ctl": {"tab\there"}, "X-Utf8": {"naïve"}}
	msg := AppendReq(nil, 1, "POST", "/a b?q=\"1\"", h, false, false)
	got, err := DecodeControl(msg)
	if err != nil || got.URL != "/a b?q=\"1\"" || !reflect.DeepEqual(got.Header, h) {
		t.Errorf("DecodeControl(%s) = %+v, %v", msg, got, err)
	}
	if lower := AppendReq(nil, 1, "GET", "/", http.Header{"X-Mixed-Case": {"V"}}, false, true); !strings.Contains(string(lower), `["x-mixed-case","V"]`) {
		t.Errorf("lower-case names: %s", lower)
	}
}

// slowControl is DecodeControl's json/v2 path alone.
func slowControl(t testing.TB, p []byte) *Control {
	t.Helper()
	// A leading space keeps the scan out of it: json/v2 reads the rest.
	c, err := DecodeControl(append([]byte{' '}, p...))
	if err != nil {
		return nil
	}
	return &c
}

// Wherever the scan accepts a message, json/v2 reads it the same.
func FuzzDecodeControl(f *testing.F) {
	f.Add([]byte(AppendReq(nil, 7, "POST", "/x?k=1", http.Header{"A": {"1", "2"}, "b": {"3"}}, true, true)))
	f.Add([]byte(AppendRes(nil, 7, 200, http.Header{"Content-Type": {"text/plain"}})))
	f.Add([]byte(AppendHello(nil, "s", DefaultLimits)))
	f.Add([]byte(AppendAbort(nil, 1, "timeout", "m")))
	f.Add([]byte(`{"t":"req","id":01}`))
	f.Add([]byte(`{"t":"req","id":1,"headers":[["x y","v"],["a-b","w"]]}`))
	f.Fuzz(func(t *testing.T, p []byte) {
		// The scan rewrites header names in place: it reads a copy, and
		// json/v2 the bytes as they came.
		fast, ok := scanControl(bytes.Clone(p))
		if !ok {
			_, _ = DecodeControl(bytes.Clone(p)) // must not panic
			return
		}
		if slow := slowControl(t, p); slow == nil || !reflect.DeepEqual(*slow, fast) {
			t.Fatalf("%q: scan %+v, json/v2 %+v", p, fast, slow)
		}
	})
}

func BenchmarkControl(b *testing.B) {
	h := http.Header{"Accept": {"application/json, text/event-stream"}, "Content-Type": {"application/json"},
		"Content-Length": {"40"}, "User-Agent": {"Go-http-client/1.1"}, "X-Forwarded-For": {"127.0.0.1"},
		"X-Forwarded-Host": {"127.0.0.1:41234"}}
	buf := AppendReq(nil, 1, "POST", "/api/mcp/adapter-http/srv_1?k=secret", h, true, true)
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = AppendReq(buf[:0], 1, "POST", "/api/mcp/adapter-http/srv_1?k=secret", h, true, true)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeControl(buf); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// No string DecodeControl returns aliases its input: a session's reader
// reuses the buffer for the next message.
func TestDecodedStringsOwnTheirBytes(t *testing.T) {
	t.Parallel()
	h := http.Header{"content-type": {"application/json"}, "X-A": {"1", "2"}}
	for _, msg := range [][]byte{
		AppendReq(nil, 7, "POST", "/api/mcp/adapter-http/s?k=x", h, true, true),
		AppendRes(nil, 7, 200, h),
		AppendAbort(nil, 7, "custom_code", "some message"),
		AppendHello(nil, "slug", DefaultLimits),
		append([]byte(" "), AppendReq(nil, 7, "POST", "/u", h, true, true)...), // json/v2's path
	} {
		c, err := DecodeControl(msg)
		if err != nil {
			t.Fatal(err)
		}
		before := c
		before.Header = c.Header.Clone()
		for i := range msg {
			msg[i] = 'Z'
		}
		if !reflect.DeepEqual(c, before) {
			t.Errorf("a decoded message changed with its buffer: %+v", c)
		}
	}
}

// The scan makes header names canonical exactly as net/http does, names
// it must leave alone (a space, other non-token bytes) included.
func TestScanCanonicalNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"x y", "a-b", "A-B", "x-forwarded-host", "content-TYPE", "-a", "a--b", "a_b", "1a", "éa", "a.b~c"} {
		msg := []byte(`{"t":"req","id":1,"headers":[["` + name + `","v"]]}`)
		c, err := DecodeControl(bytes.Clone(msg))
		if err != nil {
			t.Fatal(err)
		}
		want := http.CanonicalHeaderKey(strings.ReplaceAll(name, "é", "\xe9")) // a byte string
		if _, ok := c.Header[want]; !ok || len(c.Header) != 1 {
			t.Errorf("%q read as %v, want the name %q", name, c.Header, want)
		}
	}
}
