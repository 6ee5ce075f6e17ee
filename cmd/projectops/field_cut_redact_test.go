package main

import (
	"bytes"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
)

// details.field is masked and redacted before it is cut: a key (of a
// shape the sk_ rule does not catch) that a cut splits would no longer
// match by value, and all but its last runes would be printed.
func TestErrorLineFieldCutKeepsKeyMasked(t *testing.T) {
	key := "odd-shaped-KEY-9876543210abcdefghij" // 35 runes
	t.Setenv("PROJECTOPS_API_KEY", key)
	// The field is one rune too long: cut to 119 runes and "…" inside the key.
	field := strings.Repeat("a", detailFieldMax+1-len(key)) + key
	var stderr bytes.Buffer
	a := &app{stderr: &stderr}
	a.exit(nil, &projectops.Error{StatusCode: 400, Code: projectops.CodeValidation, Message: "bad request",
		Details: map[string]any{"field": field}})
	line := stderr.String()
	if strings.Contains(line, key[:16]) {
		t.Errorf("the error line shows the API key (all but its last runes): %q", line)
	}
}
