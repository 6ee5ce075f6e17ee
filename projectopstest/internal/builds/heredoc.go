package builds

import (
	"regexp"
	"strings"
	"unicode"
)

// heredocWord is a word Docker reads as a heredoc: [fd]<<[-]NAME.
var heredocWord = regexp.MustCompile(`^[0-9]*<<-?[^<]+$`)

// hasHeredoc reports whether a RUN's arguments open a heredoc, read as
// Docker reads them: a word of the line, split at white space outside
// quotes (a quoted or escaped "<<" is no heredoc), that is [fd]<<[-]NAME.
func hasHeredoc(args string) bool {
	if !strings.Contains(args, "<<") {
		return false
	}
	for _, w := range shellWords(args) {
		if heredocWord.MatchString(w) {
			return true
		}
	}
	return false
}

// shellWords splits s into words at white space outside quotes, keeping
// quotes and escapes in the words.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	var quote rune
	escaped, inWord := false, false
	for _, r := range s {
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
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			continue
		}
		w.WriteRune(r)
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}
