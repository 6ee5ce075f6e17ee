package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// printable is s with its control characters escaped, Go-style ("\x1b",
// "\u009b"): C0 controls but tab and newline, DEL, C1 controls, and bytes
// that are not UTF-8 (a C1 control cut in two across writes would
// otherwise reach the terminal whole). Text output prints strings the
// service stores (names any project member may set, titles, messages,
// build logs) and must not let them retitle the terminal, clear it, or
// move the cursor to overwrite a line; --json keeps them exact (JSON
// escapes them itself). It keeps newlines, for output that is many lines
// (a build log): where a service string is one field of a line, use
// printableField, which cannot start a line of its own.
func printable(s string) string {
	i := strings.IndexFunc(s, unprintable)
	if i < 0 && utf8.ValidString(s) {
		return s // the common case: nothing to escape, no copy
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r < 0x80 && unprintable(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unprintable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// unprintable reports a control character a terminal may act on; tab and
// newline lay text out and are kept.
func unprintable(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f)
}

// printableWriter passes what is written through printable: text output
// as a whole, so no field the service sent is missed.
type printableWriter struct{ w io.Writer }

// Write reports all of b written once its escaped text is: the escaped
// text is longer than b, and a caller counts b's bytes.
func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, printable(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// printableField is printable for one field of a line: newline and tab
// are escaped too ("\n", "\t"), so that a stored string can neither print
// a line of its own (faking one of the CLI's) nor shift a table's columns.
func printableField(s string) string {
	return fieldEscaper.Replace(printable(s))
}

// maskedField is printableField of s with the API key and key-shaped
// words masked (maskAPIKey), as error text is: for an id or a name the
// service sent that the CLI prints on stdout or as progress, where
// nothing masks it on the way out.
func maskedField(s string) string {
	return printableField(maskAPIKey(s))
}

// fieldEscaper escapes what printable keeps.
var fieldEscaper = strings.NewReplacer("\n", `\n`, "\t", `\t`)
