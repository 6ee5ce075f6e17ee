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
//
// It reads s only as far as the cut: a tool call's output can be large,
// and a row keeps n runes of it.
func cell(s string, n int) string {
	var b strings.Builder
	width := 0
	space := false // the last rune kept was a space
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		r := s[i : i+size]
		i += size
		if r == " " && space {
			continue
		}
		space = r == " "
		p := printableField(r) // one escaped rune (or invalid byte)
		w := utf8.RuneCountInString(p)
		if width+w > n || width+w == n && more(s[i:], space) {
			// The ellipsis needs a rune of its own, after whole escapes.
			return b.String() + "…"
		}
		b.WriteString(p)
		width += w
	}
	return b.String()
}

// more reports whether rest adds to a cell: not when it is all spaces
// following a space, which collapse into it.
func more(rest string, space bool) bool {
	if space {
		rest = strings.TrimLeft(rest, " ")
	}
	return rest != ""
}
