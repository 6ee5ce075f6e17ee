package contract

import (
	"reflect"
	"testing"
)

func TestDecodeElements(t *testing.T) {
	t.Parallel()
	body := []byte(" {\"runId\":\"r\", \"results\" : [ {\"a\":1} ,\n{\"b\":[2, 3]},\"x\"],\"z\":null} ")
	v, elems, err := DecodeElements(body, "results")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"a":1}`, `{"b":[2, 3]}`, `"x"`}
	if len(elems) != len(want) {
		t.Fatalf("elements = %q", elems)
	}
	for i, e := range elems {
		if string(e) != want[i] {
			t.Errorf("element %d = %q, want %q", i, e, want[i])
		}
	}
	if d, _ := Decode(body); !reflect.DeepEqual(v, d) {
		t.Errorf("DecodeElements = %#v, Decode = %#v", v, d)
	}
	for _, bad := range []string{`{"results":[1,2}`, `{"results":[],"results":[]}`, `{"a":1} {"b":2}`, `{"a":1}x`, "{\"results\":[\"\xff\"]}"} {
		if _, _, err := DecodeElements([]byte(bad), "results"); err == nil {
			t.Errorf("DecodeElements(%q) accepted it", bad)
		}
	}
}

// FuzzDecodeElements holds DecodeElements to Decode: the same verdict and
// value on every input, and elements that decode to the array's items.
func FuzzDecodeElements(f *testing.F) {
	for _, s := range []string{`{}`, `{"results":[1,{"b":null}],"x":2}`, `{"results":[],"results":[]}`,
		"{\"results\":[\"\xff\"]}", `{"results":[1,2`, ` {"results":5} `, `[1]`, `{"a":1} {}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := Decode(data)
		got, elems, err := DecodeElements(data, "results")
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: DecodeElements error %v, Decode error %v", data, err, werr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: DecodeElements = %#v, Decode = %#v", data, got, want)
		}
		if elems == nil {
			return
		}
		arr := want.(map[string]any)["results"].([]any)
		if len(elems) != len(arr) {
			t.Fatalf("%q: %d elements for %d items", data, len(elems), len(arr))
		}
		for i, e := range elems {
			if v, err := Decode(e); err != nil || !reflect.DeepEqual(v, arr[i]) {
				t.Fatalf("%q: element %d %q decodes to %#v, %v; want %#v", data, i, e, v, err, arr[i])
			}
		}
	})
}
