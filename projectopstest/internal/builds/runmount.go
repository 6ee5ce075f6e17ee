package builds

import (
	"strings"
	"unicode"
)

// mountsFrom reports whether a RUN's flags hold a --mount with a from=
// field naming anything but an earlier stage (stages, lower-cased, as
// resolveFrom records them): another image, which Docker would pull with
// no FROM check seeing it. A stage's own base passed those checks.
//
// It reads the flags as runFlags does, then the mount's comma-separated
// key=value fields; a mount holding quotes or backslashes after that is
// read with them dropped and any from= in it refused, so the reading may
// refuse an odd mount Docker would read otherwise, never miss one.
func mountsFrom(args string, stages map[string]bool) bool {
	for _, w := range runFlags(args) {
		value, ok := strings.CutPrefix(strings.ToLower(w), "--mount=")
		if !ok {
			continue
		}
		// Docker reads the value as a CSV record; without quotes it is a
		// plain split at commas.
		odd := strings.ContainsAny(value, `"'\`)
		if odd {
			value = strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(value)
		}
		for _, field := range strings.Split(value, ",") {
			key, from, _ := strings.Cut(field, "=")
			if strings.TrimSpace(key) == "from" && (odd || !stages[from]) {
				return true
			}
		}
	}
	return false
}

// runFlags returns the flags at the start of a RUN's arguments as
// BuildKit's flag reader (extractBuilderFlags) does, which differs from
// its lexer for the command (shellWords):
//   - it walks bytes, so a word ends at a byte that is white space as a
//     rune (ASCII white space, 0x85, 0xA0), never inside a multi-byte
//     character such as U+3000;
//   - quotes are dropped, and a backslash takes the next byte literally
//     outside quotes and inside both kinds of quotes (a trailing one is
//     dropped);
//   - there is no "<<" rule: white space after "<<" ends the word;
//   - the flags end at a word not starting with "--" or at the word "--";
//   - a flag word without "=" takes the next word as its value
//     ("--mount from=x" is "--mount=from=x"), until a word holding an
//     unquoted "=" is read: after that no flag takes a separate value.
func runFlags(line string) []string {
	var (
		words    []string
		word     strings.Builder
		inWord   bool
		quote    byte // the open quote, or 0
		quoted   bool // the word held quotes, so it counts even if empty
		takesArg bool // the previous flag takes this word as its value
		needArg  = true
	)
	end := func() (stop bool) {
		w := word.String()
		switch {
		case takesArg:
			words[len(words)-1] += "=" + w
			takesArg, needArg = false, true
		case w == "--":
			return true
		case quoted || w != "":
			takesArg = needArg
			words = append(words, w)
		}
		word.Reset()
		inWord, quoted = false, false
		return false
	}
	for i := 0; i < len(line); i++ {
		b := line[i]
		if !inWord {
			if unicode.IsSpace(rune(b)) {
				continue
			}
			if !takesArg && !strings.HasPrefix(line[i:], "--") {
				return words
			}
			inWord = true
		}
		switch {
		case quote == 0 && unicode.IsSpace(rune(b)):
			if end() {
				return words
			}
			continue
		case quote == 0 && (b == '\'' || b == '"'):
			quote, quoted = b, true
			continue
		case quote != 0 && b == quote:
			quote = 0
			continue
		case b == '\\':
			if i+1 == len(line) {
				quote = 0
				continue
			}
			i++
			b = line[i]
		case quote == 0 && b == '=':
			needArg = false
		}
		word.WriteByte(b)
	}
	// At the end of the line BuildKit keeps a last word other than "--"
	// as a word of its own, even after a flag that takes a value.
	if inWord && word.String() != "--" && (quoted || word.Len() > 0) {
		words = append(words, word.String())
	}
	return words
}
