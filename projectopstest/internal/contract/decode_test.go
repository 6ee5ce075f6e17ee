package contract

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode"
	"unicode/utf16"
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
		if err == nil && !json.Valid(data) && len(bytes.Trim(data, " \t\r\n")) > 0 {
			t.Fatalf("Decode accepted invalid JSON %q", data)
		}
	})
}

// jsTrimmed is every code point String.prototype.trim() strips: for (c of
// all code points) if (String.fromCodePoint(c).trim() === "") print(c).
// The service runs Node 24.14.0 (its .nvmrc and Dockerfile); this list was
// taken from Node 20.20.2, the Node at hand, and trim()'s set (ECMAScript's
// WhiteSpace, LineTerminator and Unicode's Zs) is not known to differ in 24.
var jsTrimmed = []rune{0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
	0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff}

func TestBlankIsJSTrim(t *testing.T) {
	trimmed := map[rune]bool{}
	for _, r := range jsTrimmed {
		trimmed[r] = true
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if utf16.IsSurrogate(r) {
			continue
		}
		if got := Blank([]byte(string(r))); got != trimmed[r] {
			t.Errorf("Blank(%U) = %v, want %v", r, got, trimmed[r])
		}
	}
	for s, want := range map[string]bool{
		"": true, " \f\v\u00a0\u2028\ufeff ": true,
		" x ":  false,
		"\xa0": false, "\xff": false, // not UTF-8: text() reads U+FFFD
	} {
		if got := Blank([]byte(s)); got != want {
			t.Errorf("Blank(%q) = %v, want %v", s, got, want)
		}
	}
}

// Decode, which also checks responses and stored rows, keeps JSON.parse's
// rules: only JSON's white space reads as {}; trim()'s wider set, the
// request edge's test (Blank), is invalid JSON there, alone or around a
// value.
func TestDecodeBlankIsJSONWhiteSpaceOnly(t *testing.T) {
	for _, s := range []string{"", " \t\r\n"} {
		if got := mustDecode(t, s); len(got.(map[string]any)) != 0 {
			t.Errorf("Decode(%q) = %#v, want {}", s, got)
		}
	}
	for _, s := range []string{"\f", "\u00a0", " \v\n", "\f{}", "{}\v", "\u00a0{}"} {
		if _, err := Decode([]byte(s)); err == nil {
			t.Errorf("Decode(%q) accepted: JSON.parse refuses it", s)
		}
	}
}
