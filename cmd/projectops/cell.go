package main

import (
	"strings"
	"unicode/utf8"
)

// cell is s on one line, escaped as a line's fields are (printableField:
// newline and tab as \n and \t, so "a\tb" does not read as "a b") before
// a tabwriter measures it, at most n runes (an ellipsis marks a cut).
// Runs of spaces are one space, so pretty-printed text (tool output,
// a build's error) spends the budget on its words, not its indentation;
// a cut falls between escapes, never inside one.
func cell(s string, n int) string {
	var pieces []string // one escaped rune (or invalid byte) each
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		p := s[i : i+size]
		i += size
		if p == " " && len(pieces) > 0 && pieces[len(pieces)-1] == " " {
			continue
		}
		pieces = append(pieces, printableField(p))
	}
	var b strings.Builder
	width := 0
	for i, p := range pieces {
		w := utf8.RuneCountInString(p)
		if width+w > n || width+w == n && i < len(pieces)-1 {
			// The ellipsis needs a rune of its own, after whole escapes.
			return b.String() + "…"
		}
		b.WriteString(p)
		width += w
	}
	return b.String()
}
