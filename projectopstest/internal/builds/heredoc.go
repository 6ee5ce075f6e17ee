package builds

import (
	"regexp"
	"strings"
	"unicode"
)

// heredocWord is BuildKit's heredoc word, [fd]<<[-][white space]NAME; an
// empty NAME is no heredoc.
var heredocWord = regexp.MustCompile(`^(\d*)<<(-?)\s*([^<]*)$`)

// hasHeredoc reports whether a RUN's arguments open a heredoc, read as
// Docker reads them: a word of the line, split at white space outside
// quotes (a quoted or escaped "<<" is no heredoc), that is [fd]<<[-]NAME.
func hasHeredoc(args string) bool {
	if !strings.Contains(args, "<<") {
		return false
	}
	for _, w := range shellWords(args) {
		if m := heredocWord.FindStringSubmatch(w); m != nil && m[3] != "" {
			return true
		}
	}
	return false
}

// shellWords splits s into words at white space outside quotes, keeping
// quotes and escapes in the words. As BuildKit's lexer does (since
// v0.22.0), it keeps the spaces, tabs and \r right after an unquoted,
// unescaped "<<" in the word, so "cat << EOF" holds the word "<< EOF".
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	var quote rune
	escaped, inWord := false, false
	half, pair := false, false // r follows an unpaired plain '<' / a plain "<<"
	for _, r := range s {
		plain := !escaped && quote == 0
		switch {
		case escaped:
			escaped = false
		case r == '\\' && quote != '\'':
			escaped = true
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case pair && (r == ' ' || r == '\t' || r == '\r'):
			w.WriteRune(r)
			continue
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			half, pair = false, false
			continue
		}
		// The lexer pairs '<'s from the left: "<<<" is "<<" then "<".
		lt := plain && r == '<'
		pair, half = half && lt, lt && !half
		w.WriteRune(r)
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}
