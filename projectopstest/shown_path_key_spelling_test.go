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
// percent and \u escapes decoded two layers deep (by the test's own
// decoder, not the one under test).
func keyIn(s, body string) bool {
	for range 2 {
		s = reEscape.ReplaceAllStringFunc(s, func(e string) string {
			n, _ := strconv.ParseUint(strings.TrimLeft(e, `%\u`), 16, 32)
			return string(rune(n))
		})
	}
	return strings.Contains(s, body[4:len(body)-4])
}

// reEscape is a percent escape or a JSON \u escape.
var reEscape = regexp.MustCompile(`%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}`)

// everyByte is s with every byte written %XX.
func everyByte(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
