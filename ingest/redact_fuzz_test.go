package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// headerForms are the ways a header and its value reach test output: a
// header line, with a scheme, http.Header printed with %v and %#v, JSON
// text, and a structured result field keyed by the name.
var headerForms = []func(name, secret string) Result{
	func(n, s string) Result { return Result{Error: n + ": " + s} },
	func(n, s string) Result { return Result{Error: n + ":Bearer " + s} },
	func(n, s string) Result { return Result{Error: fmt.Sprint(http.Header{n: {s, "other"}})} },
	func(n, s string) Result { return Result{Error: fmt.Sprintf("%#v", http.Header{n: {s}})} },
	func(n, s string) Result {
		b, _ := json.Marshal(map[string][]string{n: {s}})
		return Result{Error: string(b)}
	},
	func(n, s string) Result {
		b, _ := json.Marshal(map[string]string{n: s})
		return Result{Query: string(b)}
	},
	func(n, s string) Result { return Result{Metadata: map[string]any{n: s}} },
	func(n, s string) Result {
		return Result{Metadata: map[string]any{"headers": map[string]any{n: []any{s, "x"}}}}
	},
	func(n, s string) Result { return Result{Error: "GET /x?" + n + "=" + s} },
	func(n, s string) Result {
		b, _ := json.Marshal([]map[string]string{{"name": n, "value": s}})
		return Result{Error: string(b)}
	},
	func(n, s string) Result {
		return Result{Trace: json.RawMessage(`{"headers":[{"name":"` + n + `","value":"` + s + `"}]}`)}
	},
	func(n, s string) Result {
		return Result{WidgetSnapshots: []WidgetSnapshot{{WidgetHTML: "<pre>" + n + ": " + s + "</pre>"}}}
	},
	func(n, s string) Result {
		return Result{WidgetSnapshots: []WidgetSnapshot{{WidgetHTML: "<tr><th>" + n + "</th><td>" + s + "</td></tr>"}}}
	},
	func(n, s string) Result {
		return Result{WidgetSnapshots: []WidgetSnapshot{{WidgetHTML: "<p><b>" + n + "</b>:\n " + s + "</p>"}}}
	},
	func(n, s string) Result {
		return Result{Trace: json.RawMessage(`{"headers":[{"value":"` + s + `","comment":"","name":"` + n + `"}]}`)}
	},
	// Folded values (obs-fold), whatever the indentation of either line.
	func(n, s string) Result { return Result{Error: "    " + n + ": Basic\r\n\t" + s + "\r\n"} },
	func(n, s string) Result { return Result{Error: "  " + n + ": x;\r\n  " + s + "\r\n"} },
	func(n, s string) Result { return Result{Error: n + ": x;\n " + s} },
	func(n, s string) Result { return Result{Error: "    x_test.go:5: " + n + ": x;\n        " + s + "\n"} },
	func(n, s string) Result {
		return Result{WidgetSnapshots: []WidgetSnapshot{{WidgetHTML: "<p>\n    " + n + ": x;\n    " + s + "\n  </p>"}}}
	},
	// Values a rule other than the header's finds, whatever the name: a
	// tunnel URL's ?k= secret behind an HTML-escaped '&', in text and in
	// widget HTML, and an sk_ token written with a JSON \u escape, in
	// text (JSON quoted in it) and in a Trace.
	func(n, s string) Result {
		return Result{Error: `<a href="https://h/t/mcp?` + n + `=1&amp;k=` + s + `&amp;b=2">`}
	},
	func(n, s string) Result {
		return Result{WidgetSnapshots: []WidgetSnapshot{{WidgetHTML: `<a href="https://h/t/mcp?` + n + `=1&#x26;k=` + s + `">`}}}
	},
	func(n, s string) Result { return Result{Error: `{"` + n + `":"sk\u005f` + s + `"}`} },
	func(n, s string) Result {
		return Result{Trace: json.RawMessage(`{"h":{"` + n + `":"x"},"k":"\u0073k_` + s + `"}`)}
	},
	// The ?k= secret's other spellings (wire.SecretParamAt): the name
	// percent-encoded as the relay reads it, the '&' escaped twice for
	// HTML, a JSON-escaped '?' (in text and in a Trace), ';'.
	func(n, s string) Result { return Result{Error: "GET https://h/t/mcp?" + n + "=1&%6b=" + s + "&b=2"} },
	func(n, s string) Result {
		return Result{WidgetSnapshots: []WidgetSnapshot{{WidgetHTML: `<a href="https://h/t/mcp?` + n + `=1&amp;amp;k=` + s + `">`}}}
	},
	func(n, s string) Result { return Result{Error: `{"` + n + `":"https://h/t/mcp\u003f%6B=` + s + `"}`} },
	func(n, s string) Result {
		return Result{Trace: json.RawMessage(`{"h":{"` + n + `":"x"},"u":"https://h/t/mcp\u003fk=` + s + `"}`)}
	},
	func(n, s string) Result { return Result{Error: "GET https://h/t/mcp?" + n + "=1;k=" + s} },
	// A URL inside a URL inside a URL: percent-encoded twice (%253F,
	// %2526, %253B, %253D), and ';' JSON-escaped in a query.
	func(n, s string) Result {
		return Result{Error: "GET https://x/login?next=https%3A%2F%2Fh%2Ft%2Fmcp%253Fk%253D" + s + "%2526" + n + "%253D1"}
	},
	func(n, s string) Result {
		return Result{Error: "GET https://x/login?next=https%3A%2F%2Fh%2Ft%2Fmcp%253F" + n + "%253D1%2526k%253D" + s}
	},
	func(n, s string) Result {
		return Result{Error: "GET https://x/login?next=https%3A%2F%2Fh%2Ft%2Fmcp%253F" + n + "%253D1%253B%256B%253D" + s}
	},
	func(n, s string) Result { return Result{Error: `{"u":"https://h/t/mcp?` + n + `=1\u003bk=` + s + `"}`} },
}

// A secret header's value never survives redaction, whatever the case of
// its name, the form it is printed in, and the text around it.
func FuzzRedactHeaders(f *testing.F) {
	f.Add(uint8(4), uint64(0b1000_0010_0001), uint8(0), []byte("supersecretvalue"), "GET /x\n", "\nnext")
	f.Add(uint8(0), uint64(1), uint8(2), []byte("tok3n-abcdefgh"), "headers ", " done")
	f.Add(uint8(2), uint64(0xffff), uint8(6), []byte("c00kieValue"), "", "")
	f.Add(uint8(1), uint64(0xaaaa), uint8(3), []byte("Zm9vOmJhcg"), `cookie:"`, `"`)
	f.Add(uint8(5), uint64(0b101), uint8(2), []byte("hunter2hunter2"), "", "")
	f.Add(uint8(8), uint64(0), uint8(8), []byte("hunter2hunter2"), "", "")
	f.Add(uint8(10), uint64(0xffff), uint8(9), []byte("tok3n-abcdefgh"), "", "")
	f.Add(uint8(9), uint64(1), uint8(11), []byte("tok3n-abcdefgh"), "", "")
	for form := uint8(20); int(form) < len(headerForms); form++ { // the forms other rules redact
		f.Add(uint8(3), uint64(0), form, []byte("TUNNELSECRETAMP777"), "", "")
	}
	for form := uint8(15); form < 20; form++ { // the folded forms
		f.Add(uint8(form), uint64(0), form, []byte("f0ldedSecretValue"), "request:\n", "\n    x_test.go:9: next")
	}
	f.Fuzz(func(t *testing.T, which uint8, caseMask uint64, form uint8, raw []byte, prefix, suffix string) {
		const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		if len(raw) < 8 || len(raw) > 64 {
			return
		}
		secret := make([]byte, len(raw))
		for i, c := range raw {
			secret[i] = alnum[int(c)%len(alnum)]
		}
		name := []byte(secretHeaders[int(which)%len(secretHeaders)])
		for i := range name {
			if caseMask&(1<<(i%64)) != 0 {
				name[i] = bytes.ToUpper(name[i : i+1])[0]
			}
		}
		res := headerForms[int(form)%len(headerForms)](string(name), string(secret))
		res.Error = prefix + res.Error + suffix
		if strings.Contains(prefix+suffix, string(secret)) || strings.Contains(Redacted, string(secret)) {
			return // the secret is not only the header's value
		}
		enc := newEncoder(redactor{}, nil, DefaultChunkBytes)
		b, _, err := enc.encode(&res)
		if err != nil {
			t.Skip("not encodable")
		}
		if !json.Valid(b) {
			t.Fatalf("redaction broke the JSON: %s", b)
		}
		var back Result
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf("%s %+v %s", b, back, redactor{}.html(res.Error))
		if strings.Contains(text, string(secret)) {
			t.Fatalf("secret %q survived in %s", secret, b)
		}
	})
}

// FuzzContainsFoldAt holds the pivot search to a plain ASCII-folded
// search, for every word the redactor looks for.
func FuzzContainsFoldAt(f *testing.F) {
	for _, s := range []string{"Authorization: x", "X-API-KEY", "cOoKiE", "bearer", "BEARER k", "kkk zzz", "\xffapi-kEy", "API_KEY", "x-auth-TOKEN", "apikey", "k"} {
		f.Add([]byte(s))
	}
	lower := func(b []byte) []byte {
		out := make([]byte, len(b))
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out[i] = c
		}
		return out
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, w := range []struct {
			word  string
			pivot int
		}{{"authorization", 7}, {"api-key", 4}, {"cookie", 3}, {"bearer", 0}} {
			if got, want := containsFoldAt(b, w.word, w.pivot), bytes.Contains(lower(b), []byte(w.word)); got != want {
				t.Fatalf("containsFoldAt(%q, %q) = %v, want %v", b, w.word, got, want)
			}
		}
		want := false
		for _, w := range keyWords {
			want = want || bytes.Contains(lower(b), []byte(w.word))
		}
		if got := containsKeyWord(b); got != want {
			t.Fatalf("containsKeyWord(%q) = %v, want %v", b, got, want)
		}
	})
}

// containsAt finds exactly what bytes.Contains finds.
func FuzzContainsAt(f *testing.F) {
	for _, s := range []string{"sk_live_x", "_sk_", "s_k_sk", "sk", "__", "a://b@c"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, w := range []struct {
			word  string
			pivot int
		}{{"sk_", 2}, {"sk_", 0}, {"://", 1}} {
			if got, want := containsAt(b, w.word, w.pivot), bytes.Contains(b, []byte(w.word)); got != want {
				t.Fatalf("containsAt(%q, %q, %d) = %v, want %v", b, w.word, w.pivot, got, want)
			}
		}
	})
}
