package wire

import (
	"strings"
	"unicode"
)

// TrimJS trims s as JavaScript's String.prototype.trim does (the service's
// schemas trim names so): Go's TrimSpace differs on two characters, U+FEFF
// (JavaScript trims it) and U+0085 (JavaScript keeps it).
func TrimJS(s string) string { return strings.TrimFunc(s, jsSpace) }

func jsSpace(r rune) bool { return r == '\uFEFF' || r != '\u0085' && unicode.IsSpace(r) }
