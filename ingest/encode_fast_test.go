package ingest

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func encodingJSON(t *testing.T, res *Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestAppendSimple(t *testing.T) {
	t.Parallel()
	res := &Result{CaseTitle: "pkg.TestA <b>&</b>", Passed: true, DurationMs: 12.5, Error: "line\n\t\"q\" \\ \x01 \u2028 \xff",
		ExternalIterationID: "gotest:1", Metadata: map[string]any{"package": "pkg", "elapsed": 1e-7, "n": 3, "ok": false, "big": 1e21},
		IsNegativeTest: true, ExpectedOutput: "é"}
	got, ok := appendSimple(nil, res)
	if !ok {
		t.Fatal("appendSimple declined a simple result")
	}
	if want := encodingJSON(t, res); !bytes.Equal(got, want) {
		t.Errorf("appendSimple:\n%s\nencoding/json:\n%s", got, want)
	}
	for _, r := range []*Result{{Trace: json.RawMessage(`"t"`)}, {Tokens: &Tokens{}}, {DurationMs: math.NaN()},
		{Metadata: map[string]any{"x": []any{1}}}, {Metadata: map[string]any{"x": math.Inf(1)}}} {
		if _, ok := appendSimple(nil, r); ok {
			t.Errorf("appendSimple took %+v", r)
		}
	}
}

// FuzzAppendSimple holds appendSimple to encoding/json byte for byte.
func FuzzAppendSimple(f *testing.F) {
	f.Add("pkg.TestA", "--- FAIL\n\"x\"\x00\u2029\xfe", "k", "v", 0.01, true)
	f.Add("", "", "", "", 0.0, false)
	f.Add("é", "<>&", "Ü", "\\", 1e-9, false)
	f.Fuzz(func(t *testing.T, title, errText, key, val string, num float64, passed bool) {
		res := &Result{CaseTitle: title, Error: errText, Passed: passed, DurationMs: num, ExternalCaseID: val,
			Metadata: map[string]any{key: val, "num": num, "flag": passed}}
		got, ok := appendSimple(nil, res)
		if !ok {
			if finite(num) {
				t.Fatalf("declined %+v", res)
			}
			return
		}
		if want := encodingJSON(t, res); !bytes.Equal(got, want) {
			t.Fatalf("appendSimple:\n%q\nencoding/json:\n%q", got, want)
		}
	})
}

// An empty metadata map set on a result is sent as {} by encoding/json
// (omitzero), an empty advancedConfig left out; the fast path must agree,
// or the same result encodes two ways.
func TestAppendSimpleEmptyMaps(t *testing.T) {
	t.Parallel()
	for _, res := range []*Result{{CaseTitle: "a", Metadata: map[string]any{}}, {CaseTitle: "b", AdvancedConfig: map[string]any{}}} {
		want := encodingJSON(t, res)
		if bytes.Contains(want, []byte(":{}")) == (res.AdvancedConfig != nil) {
			t.Fatalf("%s: metadata {} is sent, advancedConfig {} (part of a case's identity) is not", want)
		}
		if got, ok := appendSimple(nil, res); ok && !bytes.Equal(got, want) {
			t.Errorf("appendSimple:\n%s\nencoding/json:\n%s", got, want)
		}
	}
}
