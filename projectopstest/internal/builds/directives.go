package builds

import (
	"regexp"
	"strings"
)

// directiveLine is a parser directive as Docker reads one: "# key=value".
var directiveLine = regexp.MustCompile(`^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$`)

// directives tracks Docker's parser directives, which are directives only
// at the very top of a Dockerfile: the first line that is not one (a blank
// line, any other comment, an instruction) ends them, and below they are
// comments.
type directives struct {
	done bool
	seen map[string]bool
}

// read looks at a line (trimmed of leading white space) while directives
// may still come, and refuses the ones the double does not read.
func (d *directives) read(line string, n int) *Error {
	if d.done {
		return nil
	}
	m := directiveLine.FindStringSubmatch(line)
	key := ""
	if m != nil {
		key = strings.ToLower(m[1])
	}
	switch key {
	case "escape", "syntax", "check":
	default:
		d.done = true
		return nil
	}
	if d.seen[key] {
		return &Error{n, "only one " + key + " parser directive can be used"}
	}
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	d.seen[key] = true
	switch {
	case key == "escape" && m[2] != `\`:
		// Another escape character changes which lines continue.
		return &Error{n, "parser directive escape is not supported: the escape character is the backslash"}
	case key == "syntax":
		// Docker would pull the named frontend image: an image that is not
		// an allowlisted, digest-pinned base.
		return &Error{n, "parser directive syntax is not supported: the service reads Dockerfiles itself"}
	}
	// escape=\ is Docker's default and check only configures lint checks.
	return nil
}
