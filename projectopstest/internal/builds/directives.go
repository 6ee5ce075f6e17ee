package builds

import (
	"regexp"
	"strings"
	"unicode"
)

// directiveLine is a parser directive's "key=value", after its "#".
var directiveLine = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$`)

// directives tracks Docker's parser directives, which are directives only
// at the very top of a Dockerfile: the first line that is not one (a blank
// line, any other comment, an instruction) ends them, and below they are
// comments. Docker reads them twice, by different rules: its parser reads
// escape on lines trimmed of leading white space, while the frontend picks
// a syntax image (parser.DetectSyntax) from the raw lines, after dropping
// a first "#!" line.
type directives struct {
	parser, syntax directiveScan
}

// directiveScan is one reading of the directives.
type directiveScan struct {
	done bool
	seen map[string]bool
}

// next returns the directive on line ("" when it is none, which ends the
// directives) and whether it repeats one.
func (s *directiveScan) next(line string) (key, value string, again bool) {
	if s.done {
		return "", "", false
	}
	rest, ok := strings.CutPrefix(line, "#")
	var m []string
	if ok {
		m = directiveLine.FindStringSubmatch(strings.TrimLeftFunc(rest, unicode.IsSpace))
	}
	if m != nil {
		key = strings.ToLower(m[1])
	}
	switch key {
	case "escape", "syntax", "check":
	default:
		s.done = true
		return "", "", false
	}
	again = s.seen[key]
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[key] = true
	return key, m[2], again
}

// read looks at line n (raw, without its "\n") while directives may still
// come, and refuses the ones the double does not read.
func (d *directives) read(line string, n int) *Error {
	key, value, again := d.parser.next(strings.TrimLeftFunc(line, unicode.IsSpace))
	switch {
	case again:
		return &Error{n, "only one " + key + " parser directive can be used"}
	case key == "escape" && value != `\`:
		// Another escape character changes which lines continue.
		return &Error{n, "parser directive escape is not supported: the escape character is the backslash"}
	}
	// escape=\ is Docker's default and check only configures lint checks.
	if n == 1 && strings.HasPrefix(line, "#!") {
		return nil
	}
	if key, _, _ := d.syntax.next(line); key == "syntax" {
		// Docker would pull the named frontend image: an image that is not
		// an allowlisted, digest-pinned base.
		return &Error{n, "parser directive syntax is not supported: the service reads Dockerfiles itself"}
	}
	return nil
}
