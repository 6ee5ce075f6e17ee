package contract

import (
	"encoding/json"
	"testing"
)

func TestDecodeRefuses(t *testing.T) {
	for _, tt := range []struct{ name, body, field string }{
		{"duplicate key", `{"name":"a","name":"b"}`, "name"},
		{"duplicate nested key", `{"a":[{"k":1,"k":2}]}`, "a[0].k"},
		{"duplicate after escape", `{"a":1,"\u0061":2}`, "a"},
		{"invalid UTF-8", "{\"name\":\"\xff\"}", "-"},
		{"trailing data", `{} {}`, "-"},
		{"truncated", `{"a":`, "-"},
		{"not JSON", `nope`, "-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.body))
			checkField(t, err, tt.field)
		})
	}
}

func TestDecodeValues(t *testing.T) {
	v := mustDecode(t, `{"n":12,"f":1.5,"a":[true,null,"s"]}`)
	m := v.(map[string]any)
	if m["n"] != 12.0 || m["f"] != 1.5 || len(m["a"].([]any)) != 3 {
		t.Errorf("decoded %#v", m)
	}
	if got := mustDecode(t, "  "); len(got.(map[string]any)) != 0 {
		t.Errorf("empty body = %#v, want {}", got)
	}
}

// FuzzDecode checks that Decode accepts exactly the valid JSON texts
// without duplicate keys, and never panics.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":null}]}`, `{"a":1,"a":2}`, "\"\xff\"", `[1,2`, ` 7 `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Decode(data)
		if err == nil && len(data) > 0 && !json.Valid(data) && len(trim(data)) > 0 {
			t.Fatalf("Decode accepted invalid JSON %q", data)
		}
	})
}

func trim(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}
