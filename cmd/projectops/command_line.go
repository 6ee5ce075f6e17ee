package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// pasteError is an error that ends in commands to paste (send an
// interrupted eval run again, follow or cancel a run): head is said as
// every error is, text exactly. Its words are not masked as key-shaped
// ("nightly-task_2026..." holds "sk_"; so can a run id the service sent):
// a masked word would name another run, and a masked idempotency key
// would start a second one. The API key's own value is still masked, in
// any spelling (app.exit).
type pasteError struct{ head, text string }

func (e pasteError) Error() string { return e.head + e.text }

// commandLine is the projectops command path (its words, "eval status")
// with args, each as one shell word, after the global flags that decide
// what the command reaches: --base-url when it was given as a flag (from
// $PROJECTOPS_BASE_URL it is assumed the same; elsewhere the command
// would ask another service), and --project, which the environment may
// not hold.
func commandLine(baseURL, project, path string, args ...string) string {
	words := []string{"projectops", path}
	if baseURL != "" {
		words = append(words, "--base-url", shellWord(baseURL))
	}
	words = append(words, "--project", shellWord(project))
	for _, a := range args {
		words = append(words, shellWord(a))
	}
	return strings.Join(words, " ")
}

// shellWord is s as one word of a shell command line: as it is when it
// holds nothing the shell reads, else single-quoted, or, when it holds a
// control character or a byte that is not UTF-8, $'...'-quoted with those
// escaped: printed inside single quotes, they would be escaped as the CLI
// escapes them (a tab as \t), and the shell would send those characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@,+") == "" {
		return s
	}
	if strings.IndexFunc(s, controlChar) < 0 && utf8.ValidString(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == utf8.RuneError && n == 1, controlChar(r):
			// Byte by byte: \xHH is one byte in bash and zsh.
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteString("'")
	return b.String()
}

// controlChar reports a character the CLI escapes in a field of a line
// (printableField): tab and newline too.
func controlChar(r rune) bool { return unprintable(r) || r == '\t' || r == '\n' }
