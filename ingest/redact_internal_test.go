package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// The built-in rules remove secrets and leave ordinary test output alone.
func TestRedactRules(t *testing.T) {
	t.Parallel()
	rd := redactor{key: func(s string) string { return strings.ReplaceAll(s, "sk_thekey.with.dots", Redacted) }}
	for _, tt := range []struct{ in, want string }{
		{"key sk_thekey.with.dots here", "key [REDACTED] here"},
		{"sk_live_0123456789abcdef", "[REDACTED]"},
		{"Authorization: Bearer abc.def.ghi\nnext line", "Authorization: [REDACTED]\nnext line"},
		{"proxy-authorization:basic Zm9vOmJhcg==", "proxy-authorization:[REDACTED]"},
		{"Set-Cookie: a=1; b=\"2\"\nok", "Set-Cookie: [REDACTED]\nok"},
		{"x-api-key: 12345", "x-api-key: [REDACTED]"},
		{"sent bearer eyJhbGciOiJIUzI1NiJ9.e30.sig!", "sent bearer [REDACTED]!"},
		{"dial postgres://admin:s3cret@db:5432/x", "dial postgres://[REDACTED]@db:5432/x"},
		// Not secrets.
		{"the risk_of sk_ prefix alone, task_sk_1", "the risk_of sk_ prefix alone, task_sk_1"},
		{"cookie jar is empty; authorization failed", "cookie jar is empty; authorization failed"},
		{"mail me at a@b.c, see https://example.com/x", "mail me at a@b.c, see https://example.com/x"},
		{"--- FAIL: TestBearer (0.00s)", "--- FAIL: TestBearer (0.00s)"},
	} {
		enc, _ := json.Marshal(tt.in)
		out := rd.apply(enc)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q: redaction broke the JSON: %s", tt.in, out)
		}
		if got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// boundedOutput keeps exactly the first head and last tail bytes.
func TestBoundedOutput(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	var o boundedOutput
	for i := range 500 {
		s := strings.Repeat(string(rune('a'+i%26)), i%37)
		all.WriteString(s)
		o.write([]byte(s), 50, 70)
		full := all.String()
		want := full
		if len(full) > 120 {
			want = full[:50] + "\n" + marker(len(full)-120) + "\n" + full[len(full)-70:]
		}
		if got := o.String(); got != want {
			t.Fatalf("after %d writes (%d bytes):\n got %q\nwant %q", i+1, len(full), got, want)
		}
	}
}
