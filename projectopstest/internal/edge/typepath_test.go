package edge

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// misfit follows encoding/json's reading of each Go kind, so it names a
// value only where the decoder would refuse it too.
func TestMisfit(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type body struct {
		S     string          `json:"s"`
		U     uint8           `json:"u"`
		F     float64         `json:"f"`
		B     []byte          `json:"b"`
		At    time.Time       `json:"at"`
		Raw   json.RawMessage `json:"raw"`
		Quote int             `json:"q,string"`
		Any   any             `json:"any"`
		Items []inner         `json:"items"`
		ByKey map[string]bool `json:"byKey"`
		inner
	}
	cases := []struct {
		in          string
		field, kind string
	}{
		{`{"s":null,"u":null,"items":null}`, "", ""},
		{`{"u":2.0,"f":1.5,"raw":[1],"any":{},"q":"7","b":"AA==","at":"2026-01-01T00:00:00Z"}`, "", ""},
		{`{"u":256}`, "u", "an integer"},
		{`{"u":-1}`, "u", "an integer"},
		{`{"n":1.5}`, "n", "an integer"},
		{`{"s":true}`, "s", "a string"},
		{`{"b":[1]}`, "b", "a string"},
		{`{"items":[{"n":1},{"n":"x"}]}`, "items[1].n", "an integer"},
		{`{"items":{}}`, "items", "an array"},
		{`{"byKey":{"a":true,"b":"x"}}`, "byKey.b", "a boolean"},
		{`{"unknown":1,"s":"ok"}`, "", ""},
	}
	for _, c := range cases {
		var obj map[string]any
		if err := json.Unmarshal([]byte(c.in), &obj); err != nil {
			t.Fatal(err)
		}
		field, kind := misfit(obj, reflect.TypeFor[body](), "")
		if field != c.field || kind != c.kind {
			t.Errorf("misfit(%s) = %q, %q, want %q, %q", c.in, field, kind, c.field, c.kind)
		}
	}
}
