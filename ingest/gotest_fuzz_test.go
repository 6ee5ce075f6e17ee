package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
)

// The fast test2json scanner agrees with encoding/json on every line it
// accepts, and accepts nothing encoding/json rejects.
func FuzzParseGoEvent(f *testing.F) {
	seeds := []string{
		`{"Time":"2026-01-01T00:00:00Z","Action":"output","Package":"p","Test":"T","Output":"a\tb\n"}`,
		`{"Action":"pass","Package":"p","Test":"T/sub#01","Elapsed":0.25}`,
		`{"Action":"output","Package":"p","Output":"\u00e9\ud83d\ude00 \"q\" \\ \/"}`,
		`{"ImportPath":"p [p.test]","Action":"build-output","Output":"x.go:1: bad\n"}`,
		`{"Action":"fail","Package":"p","Elapsed":1e-3,"FailedBuild":"p [p.test]"}`,
		`{"Action":"start","Package":"p","Extra":{"nested":[1,2]}}`,
		`{"Act\u0069on":"run","Package":"p"}`,
		`{"Action":"run","Package":"p","Test":null,"Flag":true}`,
		`{"Action":"run"} trailing`,
		`{"Action":"run",}`,
		// Once accepted by the fast scanner although encoding/json rejects
		// them (type mismatches) or reads them differently (folded keys).
		`{"":"000000000","Action":"0000","Package":0}`,
		`{"Action":true}`, `{"Action":"run","Elapsed":"1"}`, `{"Action":"run","Elapsed":false}`,
		"{\"Action\":\"run\",\"Te\u017ft\":\"T\"}", "{\"Action\":\"run\",\"Pac\u212aage\":\"p\"}",
		`not json`, `{}`, `{"Action":""}`, `{"Action":"run","Elapsed":-}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/gotest.jsonl"); err == nil {
		for _, l := range bytes.Split(b, []byte("\n"))[:40] {
			f.Add(l)
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var ev goEvent
		ok := parseGoEvent(line, &ev)
		var std struct {
			Action, Package, Test, Output, ImportPath, FailedBuild string
			Elapsed                                                float64
		}
		stdErr := json.Unmarshal(line, &std)
		if !ok {
			return
		}
		if stdErr != nil {
			t.Fatalf("accepted %q that encoding/json rejects: %v", line, stdErr)
		}
		out := string(ev.output)
		if ev.outputEscaped {
			out = string(appendUnescaped(nil, ev.output))
		}
		got := [6]string{string(ev.action), string(ev.pkg), string(ev.test), out, string(ev.importPath), string(ev.failedBuild)}
		want := [6]string{std.Action, std.Package, std.Test, std.Output, std.ImportPath, std.FailedBuild}
		if got != want || ev.elapsed != std.Elapsed {
			t.Fatalf("line %q:\n got %q %v\nwant %q %v", line, got, ev.elapsed, want, std.Elapsed)
		}
	})
}

// ReadGoTest never fails or panics on arbitrary input, and every result it
// records is well formed.
func FuzzReadGoTest(f *testing.F) {
	if b, err := os.ReadFile("testdata/gotest.jsonl"); err == nil {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte("{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"T\"}\nplain\n{\"Action\":\"fail\",\"Package\":\"p\"}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		n := 0
		rec := RecorderFunc(func(_ context.Context, r Result) error {
			if r.CaseTitle == "" || r.ExternalIterationID == "" {
				t.Fatalf("bad result %+v", r)
			}
			n++
			return nil
		})
		st, err := ReadGoTest(context.Background(), bytes.NewReader(in), rec, GoTestOptions{OutputHead: 64, OutputTail: 64})
		if err != nil {
			t.Fatal(err)
		}
		if st.Passed+st.Failed != n {
			t.Fatalf("stats %+v but %d results", st, n)
		}
	})
}

// skipPlain stops at the first quote, backslash or control byte, wherever
// it falls in an eight-byte word and whatever surrounds it.
func TestSkipPlain(t *testing.T) {
	t.Parallel()
	naive := func(b []byte, j int) int {
		for ; j < len(b); j++ {
			if c := b[j]; c == '"' || c == '\\' || c < 0x20 {
				return j
			}
		}
		return j
	}
	fills := []byte{'a', 0x20, 0x7f, 0x80, 0xff, 0x21, 0x23, 0x5b, 0x5d}
	for _, fill := range fills {
		for _, special := range []byte{'"', '\\', 0x00, 0x01, 0x1f, 0} {
			for n := 0; n <= 19; n++ {
				for at := -1; at < n; at++ {
					b := bytes.Repeat([]byte{fill}, n)
					if at >= 0 {
						b[at] = special
					}
					for start := 0; start <= n; start++ {
						if got, want := skipPlain(b, start), naive(b, start); got != want {
							t.Fatalf("skipPlain(%q, %d) = %d, want %d", b, start, got, want)
						}
					}
				}
			}
		}
	}
}
