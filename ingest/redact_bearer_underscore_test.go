package ingest

import (
	"strings"
	"testing"
)

// d9d9f3d rewrote the bearer rule's boundary but kept '_' out of it and
// out of the separator, while 5c916c4 made '_' a boundary for sk_ for the
// very reason that go test writes a subtest name's spaces as '_': a
// subtest named "token Bearer eyJ…" is reported as
// "TestX/token_Bearer_eyJ…", and the token is sent in clear.
func TestRedactBearerInSubtestName(t *testing.T) {
	var svc *Service
	s := "TestX/token_Bearer_eyJhbGciOiJIUzI1NiJ9.e30.sig"
	if got := svc.RedactText(s); strings.Contains(got, "eyJhbGciOiJIUzI1NiJ9") {
		t.Errorf("RedactText(%q) = %q: bearer token survives", s, got)
	}
}

// A bearer token with one character written as a \u00XX escape (which
// redactEscapedTokens exists to catch for sk_ tokens) is not redacted:
// isSecretToken knows no bearer token, and reBearer's token class stops
// at '\'.
func TestRedactBearerEscapedTokenChar(t *testing.T) {
	var svc *Service
	doc := `{"e":"Authorisation was Bearer ab\u0063defgh12345678"}`
	if got := string(svc.RedactJSON([]byte(doc))); strings.Contains(got, "defgh12345678") {
		t.Errorf("RedactJSON(%s) = %s: bearer token survives", doc, got)
	}
}

// More spellings: '_' before "bearer" and as its separator, escapes of
// the token's other characters (. / as \u002e, \/), of "bearer" itself
// and at a second depth of quoting; ordinary names that hold "bearer_"
// are kept.
func TestRedactBearerSpellings(t *testing.T) {
	var svc *Service
	for _, s := range []string{
		"--- FAIL: TestX/token_Bearer_eyJhbGciOiJIUzI1NiJ9.e30.sig (0.00s)",
		"TestX/send_bearer__abcdefgh12345678",
		"auth_bearer eyJhbGciOiJIUzI1NiJ9",
	} {
		if got := svc.RedactText(s); strings.Contains(got, "eyJhbGciOiJIUzI1NiJ9") || strings.Contains(got, "abcdefgh12345678") {
			t.Errorf("RedactText(%q) = %q: bearer token survives", s, got)
		}
	}
	for _, doc := range []string{
		`{"e":"Bearer abc\u002edefgh12345678"}`,
		`{"e":"Bearer abc\/defgh12345678"}`,
		`{"e":"\u0042earer abcdefgh12345678"}`,
		`{"e":"Bearer\u0020abcdefgh12345678"}`,
		`{"e":"x {\"h\":\"Bearer ab\\u0063defgh12345678\"}"}`,
		`{"e":"TestX/token_Bearer_ab\u0063defgh12345678"}`,
	} {
		if got := string(svc.RedactJSON([]byte(doc))); strings.Contains(got, "defgh12345678") {
			t.Errorf("RedactJSON(%s) = %s: bearer token survives", doc, got)
		}
	}
	for _, s := range []string{"TestAuth/bearer_token_is_missing", "TestAuth/no_bearer_header_present_at_all", "TestBearer_auth_flow_is_retried"} {
		if got := svc.RedactText(s); got != s {
			t.Errorf("RedactText(%q) = %q, want it kept", s, got)
		}
	}
}

// After '_' a bearer token needs no digit: an uppercase letter or a
// token's punctuation marks it, and a long enough run is one whatever it
// holds; snake_case words stay.
func TestRedactBearerUnderscoreWithoutDigit(t *testing.T) {
	var svc *Service
	for _, tok := range []string{
		"AbCdEfGhIjKlMnOpQrSt",                       // mixed case, no digit
		"abcdefghij.klmnopqrst",                      // a dot
		"abcdefghijklmnopqrstuvwxyzabcdefghijklmnop", // 42 lower-case letters
	} {
		s := "--- FAIL: TestX/auth_Bearer_" + tok + " (0.00s)"
		if got := svc.RedactText(s); strings.Contains(got, tok) {
			t.Errorf("RedactText(%q) = %q: bearer token survives", s, got)
		}
	}
	for _, s := range []string{"TestAuth/bearer_token_is_missing_from_request", "TestX/no_bearer_header_set_in_the_request"} {
		if got := svc.RedactText(s); got != s {
			t.Errorf("RedactText(%q) = %q: an ordinary name changed", s, got)
		}
	}
}

// The escaped spellings follow the same rule after '_': a mark or a long
// run, no digit needed.
func TestRedactBearerUnderscoreEscapedWithoutDigit(t *testing.T) {
	var svc *Service
	for _, s := range []string{
		`{"e":"TestX/token_Bearer\u005fabcDEFghiJKLmnoPQR"}`,
		`{"e":"TestX/token_Bearer_abc\u0044EFghiJKLmnoPQR"}`,
	} {
		if got := string(svc.RedactJSON([]byte(s))); strings.Contains(got, "ghiJKLmnoPQR") {
			t.Errorf("RedactJSON(%s) = %s: bearer token survives", s, got)
		}
	}
}

// JSON a test prints is text to the reporter, so its escapes are escaped
// once more where the rules read it: "Bearer\t<token>" in printed JSON
// is still a bearer token.
func TestRedactBearerAfterPrintedEscape(t *testing.T) {
	var svc *Service
	for _, s := range []string{
		`{"a":"x Bearer\tabcdefgh12345678"}`,
		`{"a":"x Bearer\u0020abcdefgh12345678"}`,
		`{"a":"x bearer\n\nabcdefgh12345678"}`,
	} {
		got := svc.RedactText(s)
		if strings.Contains(got, "abcdefgh12345678") {
			t.Errorf("RedactText(%s) = %s: bearer token survives", s, got)
		}
		if again := svc.RedactText(got); again != got {
			t.Errorf("not idempotent: %s -> %s", got, again)
		}
	}
}
