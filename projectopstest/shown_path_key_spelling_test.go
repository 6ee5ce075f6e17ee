package projectopstest

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// One of the double's keys pasted into a path escaped (a caller who
// pasted "%73k_…" as an id, which the SDK escapes once more, or a key
// JSON-escaped in part) is masked in errors and the request log as the
// key as written is: shownPath reads the path decoded once, so the
// escapes left there were shown with the key's body.
func TestShownPathKeyAnySpellingMasked(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	key := ws.APIKey
	body := key[len(keyPrefix):]
	mid := len(key) / 2
	spellings := map[string]string{
		"first letter escaped": "%73" + key[1:],
		"middle char escaped":  key[:mid] + fmt.Sprintf("%%%02x", key[mid]) + key[mid+1:],
		"every byte escaped":   everyByte(key),
		`JSON \u0073`:          `\u0073` + key[1:],
		"two layers":           "%2573" + key[1:],
	}
	for name, spelt := range spellings {
		p := "/api/v1/projects/" + spelt + "/servers"
		req := httptest.NewRequest("GET", "/api/v1/projects/"+url.PathEscape(spelt)+"/servers", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		if got := s.shownPath(p); keyIn(got, body) {
			t.Errorf("%s: shownPath(%q) = %q shows the key", name, p, got)
		}
		if keyIn(rec.Body.String(), body) {
			t.Errorf("%s: GET -> %d body echoes the key: %s", name, rec.Code, rec.Body.String())
		}
	}
	// An escaped segment that holds no key is shown as it is.
	for _, p := range []string{"/api/v1/projects/prj%5F1/servers", `/api/v1/x/a\u002fb%2541`} {
		if got := s.shownPath(p); got != p {
			t.Errorf("shownPath(%q) = %q, want it as it is", p, got)
		}
	}
	if shown := fmt.Sprintf("%+v", s.Requests()); keyIn(shown, body) {
		t.Errorf("Requests() shows the key: %.600s", shown)
	}
}

// keyIn reports whether s holds most of body (all but its ends), its
// escapes decoded two layers deep by testUnescape.
func keyIn(s, body string) bool {
	return strings.Contains(testUnescape(testUnescape(s)), body[4:len(body)-4])
}

// testUnescape is s with one layer of percent escapes and JSON's \uXXXX,
// \/ and \\ decoded: the test's own decoder, not the one under test, so
// that a test deciding what a path holds does not take the product's word
// for it.
func testUnescape(s string) string {
	return reEscape.ReplaceAllStringFunc(s, func(e string) string {
		switch {
		case e[0] == '%':
			n, _ := strconv.ParseUint(e[1:], 16, 8)
			return string([]byte{byte(n)})
		case e[1] == 'u':
			n, _ := strconv.ParseUint(e[2:], 16, 32)
			return string(rune(n))
		}
		return e[1:]
	})
}

// reEscape is a percent escape or a JSON \u, \/ or \\ escape.
var reEscape = regexp.MustCompile(`%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\[/\\]`)

// everyByte is s with every byte written %XX.
func everyByte(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// One of the double's keys pasted without its sk_, after a backslash that
// was itself escaped (%5C, %5C%5C, \u005c), is a segment of its own once
// decoded, as it is when the backslash is written as one, and so is
// masked: the decoded segment is split at a backslash too.
func TestShownPathKeyAfterEscapedBackslashMasked(t *testing.T) {
	s := NewTestServer(t)
	body := s.Default().APIKey[len(keyPrefix):]
	for _, p := range []string{
		"/api/v1/x/abc%5C" + body,
		"/api/v1/x/abc%5C%5C" + body,
		`/api/v1/x/abc\u005c` + body,
		"/api/v1/x/abc%5C" + body[:1] + fmt.Sprintf("%%%02X", body[1]) + body[2:],
	} {
		if got := s.shownPath(p); keyIn(got, body) {
			t.Errorf("shownPath(%q) = %q shows the key's body", p, got)
		}
	}
}

// The keys as written and the escaped ones share one budget: a path of
// look-alikes of one of the double's keys, as written and escaped, costs
// maxKeyHashes hashes in all, as Server.shownPath's doc says (each step
// with a budget of its own cost twice that), counted where they are made.
func TestShownPathHashesBoundedForWholePath(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	const secret = "sk_test_SECRET123" // too short to be key-shaped: found by hash only
	s.mu.Lock()
	_, err := s.st.addKey(APIKeySpec{UserID: ws.UserID, Secret: Secret(secret)})
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	lookalike := secret[:len(secret)-1] + "X"
	p := "/api/v1/x" + strings.Repeat("/"+lookalike, maxKeyHashes) + strings.Repeat("/%73"+lookalike[1:], maxKeyHashes)
	// The hashes are counted as they are made, not by the counter the
	// bound reads: a step that looked keys up through a keyCheck of its
	// own, or a look-up that skipped the bound, would go past it.
	hashes := 0
	kc := keyCheck{s: s, hash: func(prefix, rest string) [32]byte {
		hashes++
		return hashKeyParts(prefix, rest)
	}}
	if s.shownPathWith(p, &kc); hashes != maxKeyHashes {
		t.Errorf("a path of look-alikes cost %d hashes, want %d: the bound for the whole path", hashes, maxKeyHashes)
	}
	// Within the budget, an escaped key after look-alikes as written is
	// still found.
	p = "/api/v1/x" + strings.Repeat("/"+lookalike, 8) + "/%73" + secret[1:]
	if got, n := s.shownPathHashes(p); strings.Contains(got, "SECRET123") || n == 0 {
		t.Errorf("shownPath(%q) = %q after %d hashes", p, got, n)
	}
}
