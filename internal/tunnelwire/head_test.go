package tunnelwire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/projectops/projectops-go/internal/wire"
)

// slowHead is DecodeHead without the scan.
func slowHead(p []byte) (*Head, error) {
	var h Head
	err := jsonv2.Unmarshal(p, &h, headDecode)
	h.Header = wire.CanonicalHeader(h.Header)
	return &h, err
}

// The scan reads what json/v2 reads wherever it accepts a payload.
func FuzzDecodeHead(f *testing.F) {
	for _, s := range []string{
		`{"method":"POST","uri":"/mcp?x=1","header":{"Accept":["*/*"],"X-A":["1","2"]}}`,
		`{"status":202,"header":{"Content-Type":["application/json"],"X-Empty":[]}}`,
		`{"status":200,"status":201}`, `{"header":{"A":["1"],"A":["2"]}}`, `{"header":{}}`,
		`{"Status":200}`, `{"status":0}`, `{"status":007}`, `{"status":1e2}`, `{"status":-1}`,
		`{"status":1234567890}`, `{"uri":"/a\"b"}`, `{"header":{"A":null}}`, `{"header":null}`,
		`{ "method":"GET"}`, `{}`, `{"x":1}`, `{"method":"GET"} `, `{"method":"GET"}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		fast, ok := scanHead(p)
		if !ok {
			return
		}
		slow, err := slowHead(p)
		if err != nil {
			t.Fatalf("scan accepted %q, json/v2 refuses it: %v", p, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: scan %#v, json/v2 %#v", p, fast, slow)
		}
	})
}

// EncodeHead writes exactly what encoding/json writes, and reads back.
func FuzzEncodeHead(f *testing.F) {
	f.Add("POST", "/mcp?x=1", 0, "Content-Type", "application/json", "X-B", "a<b&c>")
	f.Add("", "", 202, "X-\u2028", "caf\xe9", "", "\x00\"\\")
	f.Fuzz(func(t *testing.T, method, uri string, status int, k1, v1, k2, v2 string) {
		h := &Head{Method: method, URI: uri, Status: status, Header: http.Header{k1: {v1, v2}, k2: nil}}
		if k1 == k2 {
			h.Header[k1] = []string{v1}
		}
		want, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		frame, err := EncodeHead(Response, 9, h)
		if len(want) > MaxHead {
			if err == nil {
				t.Fatal("an oversized head was encoded")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := frame[HeaderLen:]; !bytes.Equal(got, want) {
			t.Fatalf("EncodeHead wrote\n%s\nencoding/json writes\n%s", got, want)
		}
		back, err := DecodeHead(want)
		if err != nil {
			t.Fatal(err)
		}
		if slow, _ := slowHead(want); !reflect.DeepEqual(back, slow) {
			t.Fatalf("DecodeHead = %#v, json/v2 %#v", back, slow)
		}
	})
}

// The heads the relay sends take the scan, not json/v2.
func TestScanHeadTakesOwnHeads(t *testing.T) {
	t.Parallel()
	for _, h := range []*Head{
		{Method: "POST", URI: "/mcp", Header: http.Header{"Accept": {"application/json, text/event-stream"},
			"Content-Type": {"application/json"}, "X-Forwarded-For": {"127.0.0.1"}}},
		{Status: 202, Header: http.Header{"Content-Type": {"text/event-stream"}, "Mcp-Session-Id": {"abc"}}},
		{Status: 204},
	} {
		frame, err := EncodeHead(Request, 1, h)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := scanHead(frame[HeaderLen:])
		if !ok || !reflect.DeepEqual(got, h) {
			t.Errorf("scanHead(%s) = %#v, %v", frame[HeaderLen:], got, ok)
		}
	}
}

func BenchmarkHead(b *testing.B) {
	h := &Head{Method: "POST", URI: "/mcp", Header: http.Header{"Accept": {"application/json, text/event-stream"},
		"Content-Type": {"application/json"}, "Content-Length": {"40"}, "User-Agent": {"Go-http-client/1.1"},
		"X-Forwarded-For": {"127.0.0.1"}, "X-Forwarded-Host": {"127.0.0.1:41234"}}}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := EncodeHead(Request, 1, h); err != nil {
				b.Fatal(err)
			}
		}
	})
	p, _ := json.Marshal(h)
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeHead(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode-jsonv2", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := slowHead(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkHeadEncodingJSON(b *testing.B) {
	h := &Head{Method: "POST", URI: "/mcp", Header: http.Header{"Accept": {"application/json, text/event-stream"},
		"Content-Type": {"application/json"}, "Content-Length": {"40"}, "User-Agent": {"Go-http-client/1.1"},
		"X-Forwarded-For": {"127.0.0.1"}, "X-Forwarded-Host": {"127.0.0.1:41234"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(h); err != nil {
			b.Fatal(err)
		}
	}
}
