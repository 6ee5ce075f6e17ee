package edge

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// misfitBody is a type covering each Go kind misfit reads.
type misfitBody struct {
	S     string          `json:"s"`
	U     uint8           `json:"u"`
	F     float64         `json:"f"`
	F32   float32         `json:"f32"`
	B     []byte          `json:"b"`
	N     json.Number     `json:"n"`
	A     [1]int          `json:"a"`
	I64   int64           `json:"i64"`
	At    time.Time       `json:"at"`
	Raw   json.RawMessage `json:"raw"`
	Quote int             `json:"q,string"`
	Any   any             `json:"any"`
	Items []misfitInner   `json:"items"`
	ByKey map[string]bool `json:"byKey"`
	misfitInner
}

type misfitInner struct {
	N int `json:"in"`
}

// misfit follows encoding/json's reading of each Go kind (after the
// integral rebind), so it names a value exactly where the decoder refuses
// it by type: each case is also held to encoding/json itself.
func TestMisfit(t *testing.T) {
	cases := []struct {
		in          string
		field, kind string
	}{
		{`{"s":null,"u":null,"items":null}`, "", ""},
		{`{"u":2.0,"f":1.5,"raw":[1],"any":{},"q":"7","b":"AA==","at":"2026-01-01T00:00:00Z"}`, "", ""},
		{`{"u":256}`, "u", "an integer"},
		{`{"u":-1}`, "u", "an integer"},
		{`{"u":-0}`, "", ""},
		{`{"in":1.5}`, "in", "an integer"},
		{`{"s":true}`, "s", "a string"},
		// []byte is base64 text or an array of bytes.
		{`{"b":[1,255]}`, "", ""},
		{`{"b":[256]}`, "b[0]", "an integer"},
		{`{"b":true}`, "b", "an array"},
		// json.Number takes a number, or a string holding one.
		{`{"n":5}`, "", ""},
		{`{"n":"5e3"}`, "", ""},
		{`{"n":true}`, "n", "a number"},
		// Elements past a Go array's end are skipped.
		{`{"a":[1,"x",{}]}`, "", ""},
		{`{"a":["x"]}`, "a[0]", "an integer"},
		// Integers are read from the literal, not a float64.
		{`{"i64":9223372036854775807}`, "", ""},
		{`{"i64":-9223372036854775808}`, "", ""},
		{`{"i64":9223372036854775808}`, "i64", "an integer"},
		{`{"i64":9.223372036854775807e18}`, "i64", "an integer"},
		{`{"f32":1e39}`, "f32", "a number"},
		// Keys match as encoding/json matches them: exactly, else
		// without regard to case.
		{`{"S":true}`, "S", "a string"},
		{`{"s":"x","S":7}`, "S", "a string"},
		{`{"IN":"x"}`, "IN", "an integer"},
		{`{"items":[{"in":1},{"in":"x"}]}`, "items[1].in", "an integer"},
		{`{"items":{}}`, "items", "an array"},
		{`{"byKey":{"a":true,"b":"x"}}`, "byKey.b", "a boolean"},
		{`{"unknown":1,"s":"ok"}`, "", ""},
	}
	for _, c := range cases {
		obj, err := parseNumbers([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		field, kind := misfit(obj, reflect.TypeFor[misfitBody](), "")
		if field != c.field || kind != c.kind {
			t.Errorf("misfit(%s) = %q, %q, want %q, %q", c.in, field, kind, c.field, c.kind)
		}
		if refused := typeRefused(bindLikeDouble([]byte(c.in), reflect.TypeFor[misfitBody]())); refused != (c.kind != "") {
			t.Errorf("%s: encoding/json refuses by type: %v; the case says %v", c.in, refused, c.kind != "")
		}
	}
}

// bindLikeDouble decodes data into a new t as the double binds a body:
// encoding/json, then the integral rebind when it refused a number
// (rebindIntegral). It returns the final error.
func bindLikeDouble(data []byte, t reflect.Type) error {
	err := json.Unmarshal(data, reflect.New(t).Interface())
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && strings.HasPrefix(te.Value, "number ") {
		v, _ := parseNumbers(data)
		if v, changed := integralNumbers(v); changed {
			again, _ := json.Marshal(v)
			err = json.Unmarshal(again, reflect.New(t).Interface())
		}
	}
	return err
}

// typeRefused reports whether err is encoding/json's refusal of a value
// by type.
func typeRefused(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}
