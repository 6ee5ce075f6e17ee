package ingest

import (
	"strings"
	"testing"
)

// fbb14a6 lets URL credentials hold \uXXXX escapes (what encoding/json
// writes for & < >) but no other escape: a password holding '"' or '\'
// (written \" and \\ in the JSON the rules read, text included) stops
// the match before '@', and the credentials are kept whole.
func TestRedactURLCredsOtherEscapes(t *testing.T) {
	var svc *Service
	for _, s := range []string{
		`dial https://bob:pa"ss1234@db/x`,
		`dial https://bob:pa\ss1234@db/x`,
	} {
		if got := svc.RedactText(s); strings.Contains(got, "ss1234") {
			t.Errorf("RedactText(%q) = %q: URL credentials survive", s, got)
		}
	}
}
