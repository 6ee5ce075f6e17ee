package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// Encode writes what encoding/json writes for the values request bodies
// hold (json.Number above all: json/v2 alone would write it as a string).
func TestEncodeIsEncodingJSON(t *testing.T) {
	t.Parallel()
	var args map[string]any
	d := json.NewDecoder(strings.NewReader(`{"count":3,"id":12345678901234567890,"f":1.5e300,"s":"<a&b>","n":null,"l":[1,"x",true]}`))
	d.UseNumber()
	if err := d.Decode(&args); err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{args, struct {
		N json.Number `json:"n"`
		E json.Number `json:"e,omitempty"`
		Z json.Number `json:"z"`
		M map[string]int
		P *int `json:"p,omitempty"`
	}{N: "42"}} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Encode(v, nil)
		if err != nil || string(got) != string(want) {
			t.Errorf("Encode = %s, %v; encoding/json gives %s", got, err, want)
		}
	}
	for _, bad := range []string{"3x", `"1"`, "[1]", "true", "null", " 1", "01", "1."} {
		if _, err := Encode(json.Number(bad), nil); err == nil {
			t.Errorf("the invalid number literal %q was written", bad)
		}
	}
}
