package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// pasteError is an error that ends in commands to paste (send an
// interrupted eval run again, follow or cancel a run or a build): head is
// said as every error is (errText masks it), text exactly. text is the
// CLI's own words and commands that pasteCommand let through: masking a
// word of a command would name another run, or send another idempotency
// key and start a second run, so a command that would need masking is
// not printed at all.
type pasteError struct{ head, text string }

func (e pasteError) Error() string { return e.head + e.text }

// notPrinted stands for a command pasteCommand withheld.
const notPrinted = "[a command not printed: it holds the API key or a key-shaped word]"

// shellCommand is a command to print for pasting: its words as given,
// quoted for the shell only when printed (String).
type shellCommand struct{ words []string }

// String is the command line, each word quoted for the shell (shellWord).
func (c shellCommand) String() string {
	q := make([]string, len(c.words))
	for i, w := range c.words {
		q[i] = shellWord(w)
	}
	return strings.Join(q, " ")
}

// pastable reports whether c can be printed as it is: no word holds the
// value of PROJECTOPS_API_KEY, in any spelling the CLI masks it in
// (keyMask), nor a key-shaped word (reKeyShaped). Each word is judged as
// given, not as quoted: the quoting respells what precedes a key (a tab
// as \x09) and the key itself (a single quote in it). Every printed
// command is judged by it: masked, it would no longer be the command.
func (c shellCommand) pastable() bool {
	key := keyMask(string(apiKeySecret()), "sk_***") // nil, masking nothing, without a key
	for _, w := range c.words {
		if reKeyShaped.MatchString(w) || key.Scrub(w) != w {
			return false
		}
	}
	return true
}

// pasteCommand is c's line when it is pastable, else notPrinted.
func pasteCommand(c shellCommand) string {
	if c.pastable() {
		return c.String()
	}
	return notPrinted
}

// commandBaseURL is the base URL a printed command names with
// --base-url: c's, whether from the flag or $PROJECTOPS_BASE_URL, so that
// the command pasted in another shell asks the same service; "" for the
// hosted service. The client checked it (no credentials, query or
// fragment), so it is as safe to print as the flag it came from.
func commandBaseURL(c *projectops.Client) string {
	if u := c.BaseURL(); u != strings.TrimRight(option.DefaultBaseURL, "/") {
		return u
	}
	return ""
}

// commandLine is the projectops command path (its words, "eval status")
// with flags (flag names and values, as given) and then args (positional
// words), each value as one shell word. The global flags that decide what
// the command reaches come first: --base-url unless it is the hosted
// service, and --project, which the environment may not hold. A "--"
// comes before args when one starts with "-", which would be read as a
// flag.
func commandLine(baseURL, project, path string, flags []string, args ...string) shellCommand {
	words := append([]string{"projectops"}, strings.Fields(path)...)
	if baseURL != "" {
		words = append(words, "--base-url", baseURL)
	}
	words = append(words, "--project", project)
	words = append(words, flags...)
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			words = append(words, "--")
			break
		}
	}
	return shellCommand{append(words, args...)}
}

// shellWord is s as one word of a shell command line: as it is when it
// holds nothing the shell reads, else single-quoted, or, when it holds a
// control character or a byte that is not UTF-8, $'...'-quoted with those
// escaped: printed inside single quotes, they would be escaped as the CLI
// escapes them (a tab as \t), and the shell would send those characters.
// "=" is left bare only after a word's start: zsh expands a word starting
// with it (=cmd, to cmd's path). "~" and "#", which a shell reads at a
// word's start, are never left bare.
func shellWord(s string) string {
	if s != "" && s[0] != '=' &&
		strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@,+") == "" {
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
