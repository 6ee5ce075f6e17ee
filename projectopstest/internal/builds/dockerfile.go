// Package builds is the double's reader of the service's Dockerfile
// dialect. It reads a Dockerfile by the rules of Docker's (BuildKit's)
// parser for what the dialect allows: FROM and RUN only, the first
// instruction FROM, comments, blank lines and backslash line continuations
// joined as Docker joins them. It refuses, with a clear error, what it does
// not read: other Dockerfile instructions (unsupported), any other word
// (unknown), the escape and syntax parser directives (the first would
// change how lines continue, the second would fetch a frontend image, not an
// allowlisted base), heredocs, RUN --mount from another image and lines
// longer than Docker reads. A base image must be an official image
// pinned by digest, as the service requires ("an allowlisted official base
// pinned by @sha256 digest"; it does not publish the allowlist, so every
// Docker Official Image passes).
package builds

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// maxLine is the longest line Docker reads (bufio.MaxScanTokenSize - 1).
const maxLine = 64*1024 - 1

// Instr is one instruction; Line is where it starts (1-based).
type Instr struct {
	Line      int
	Cmd, Args string
	Base      string // FROM: the base image reference, normalized; "" for a stage
	Digest    string // FROM: the resolved "sha256:<hex>"
}

// Error says why a Dockerfile cannot be built.
type Error struct {
	Line int // 0 when it is about the whole file
	Msg  string
}

// Error implements error.
func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// otherInstructions are real Dockerfile instructions the service does not
// support: they fail as "unsupported" rather than "unknown".
var otherInstructions = map[string]bool{
	"ADD": true, "ARG": true, "CMD": true, "COPY": true, "ENTRYPOINT": true, "ENV": true,
	"EXPOSE": true, "HEALTHCHECK": true, "LABEL": true, "MAINTAINER": true, "ONBUILD": true,
	"SHELL": true, "STOPSIGNAL": true, "USER": true, "VOLUME": true, "WORKDIR": true,
}

var (
	instrWord = regexp.MustCompile(`^[A-Za-z]+$`)
	// asciiSpace separates an instruction from its arguments, and FROM's
	// arguments, as in Docker: no other white space (U+00A0 is a letter of
	// a word there).
	asciiSpace = regexp.MustCompile(`[\t\v\f\r ]+`)
	// imageRef is [registry[:port]/]name[/name...][:tag][@sha256:<64 hex>].
	imageRef = regexp.MustCompile(`^(?:([a-zA-Z0-9.-]+(?::[0-9]+)?)/)?` +
		`([a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*)` +
		`(?::([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$`)
	stageName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_.-]*$`)
)

// Parse checks src and resolves its FROM images to digests. It reads lines
// as Docker does: a leading UTF-8 byte order mark is ignored; parser
// directives are read only at the very top; a line ending in a backslash
// (and spaces or tabs) continues on the next line that is not blank or a
// comment, joined with nothing between (the next line keeps its leading
// white space), and a continuation may run into the end of the file; the
// instruction word ends at the first space, tab, \v, \f or \r. Its errors
// name the line and at most the instruction word, never the rest of the
// line (a RUN line may hold a token).
func Parse(src string) ([]Instr, *Error) {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		// Docker's line scanner holds at most 64 KiB: a line and its "\n"
		// (a leading byte order mark counted).
		if len(l) > maxLine {
			return nil, &Error{i + 1, fmt.Sprintf("line greater than max allowed size of %d bytes", maxLine)}
		}
	}
	lines[0] = strings.TrimPrefix(lines[0], "\ufeff")
	var out []Instr
	stages := map[string]bool{}
	var dirs directives
	for i := 0; i < len(lines); i++ {
		start := i + 1
		raw := strings.TrimRight(lines[i], "\r")
		if err := dirs.read(raw, start); err != nil {
			return nil, err
		}
		first := strings.TrimLeftFunc(raw, unicode.IsSpace)
		if strings.HasPrefix(first, "#") {
			continue
		}
		text, more := cutContinuation(first)
		if !more && text == "" {
			continue
		}
		// Blank and comment lines inside a continuation are dropped, as
		// Docker drops them; the end of the file ends the instruction.
		for more && i+1 < len(lines) {
			i++
			next := strings.TrimRight(lines[i], "\r")
			if t := strings.TrimLeftFunc(next, unicode.IsSpace); t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			var part string
			part, more = cutContinuation(next)
			text += part
		}
		word, args := splitInstr(text)
		if !instrWord.MatchString(word) {
			return nil, &Error{start, "malformed line: it does not start with an instruction"}
		}
		cmd := strings.ToUpper(word)
		switch {
		case cmd != "FROM" && cmd != "RUN" && otherInstructions[cmd]:
			return nil, &Error{start, "unsupported instruction " + cmd + ": only FROM and RUN are supported"}
		case cmd != "FROM" && cmd != "RUN":
			return nil, &Error{start, "unknown instruction " + Clip(word)}
		case args == "":
			return nil, &Error{start, "malformed line: " + cmd + " needs an argument"}
		case cmd == "RUN" && len(out) == 0:
			return nil, &Error{start, "RUN before the first FROM: a Dockerfile starts FROM a base image"}
		case cmd == "RUN" && mountsFrom(args, stages):
			// Docker would pull that image: a base the FROM checks never
			// see.
			return nil, &Error{start, "RUN --mount from another image is not supported: only FROM names images (an earlier stage may be mounted)"}
		case cmd == "RUN" && hasHeredoc(args):
			// Docker would read the lines below as the heredoc's body.
			return nil, &Error{start, "heredocs are not supported: write the RUN's script inline (with line continuations)"}
		}
		in := Instr{Line: start, Cmd: cmd, Args: args}
		if cmd == "FROM" {
			if err := resolveFrom(&in, stages); err != nil {
				return nil, err
			}
		}
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, &Error{0, "no FROM instruction: a Dockerfile starts FROM a base image"}
	}
	return out, nil
}

// cutContinuation removes a line continuation, a backslash followed only
// by spaces and tabs, from the end of line, and says whether there was one.
// As in Docker, a backslash after another backslash is not one.
func cutContinuation(line string) (string, bool) {
	body, ok := strings.CutSuffix(strings.TrimRight(line, " \t"), `\`)
	if !ok || strings.HasSuffix(body, `\`) {
		return line, false
	}
	return body, true
}

// splitInstr splits an instruction into its word and its arguments, as
// Docker does: trimmed of white space, split at the first run of ASCII
// white space.
func splitInstr(text string) (word, args string) {
	parts := asciiSpace.Split(strings.TrimSpace(text), 2)
	if len(parts) == 2 {
		args = strings.TrimSpace(parts[1])
	}
	return parts[0], args
}

// resolveFrom parses FROM [--platform=p] image [AS name]. An image naming an
// earlier stage is not a base image and gets no digest.
func resolveFrom(in *Instr, stages map[string]bool) *Error {
	// Docker reads flags up to any white space, the rest split at ASCII
	// white space only.
	rest := in.Args
	for strings.HasPrefix(rest, "--") {
		flag, after := rest, ""
		if n := strings.IndexFunc(rest, unicode.IsSpace); n >= 0 {
			flag, after = rest[:n], rest[n:]
		}
		if flag == "--" {
			// Docker's flag reader takes "--" as the end of the flags.
			rest = strings.TrimLeftFunc(after, unicode.IsSpace)
			break
		}
		if !strings.HasPrefix(flag, "--platform=") {
			return &Error{in.Line, "malformed FROM: unknown flag (only --platform is supported)"}
		}
		rest = strings.TrimLeftFunc(after, unicode.IsSpace)
	}
	fields := asciiSpace.Split(rest, -1)
	if rest == "" {
		fields = nil
	}
	bad := &Error{in.Line, "malformed FROM: expected FROM image[:tag][@sha256:digest] [AS name]"}
	switch {
	case len(fields) == 3 && strings.EqualFold(fields[1], "AS") && stageName.MatchString(fields[2]):
		defer func() { stages[strings.ToLower(fields[2])] = true }()
	case len(fields) != 1:
		return bad
	}
	ref := fields[0]
	if stages[strings.ToLower(ref)] {
		return nil
	}
	m := imageRef.FindStringSubmatch(ref)
	if m == nil {
		return &Error{in.Line, "malformed FROM: invalid image reference"}
	}
	registry, name, tag, digest := m[1], m[2], m[3], m[4]
	if registry != "" && !strings.ContainsAny(registry, ".:") && registry != "localhost" {
		// "acme/base": a Docker Hub account's image, not a registry.
		registry, name = "", registry+"/"+name
	}
	switch registry {
	case "", "index.docker.io", "registry-1.docker.io":
		registry = "docker.io"
	}
	if registry == "docker.io" && !strings.Contains(name, "/") {
		name = "library/" + name
	}
	official := registry == "docker.io" && strings.HasPrefix(name, "library/") && strings.Count(name, "/") == 1
	switch {
	case digest == "":
		return &Error{in.Line, "FROM: the base image must be pinned by digest (image:tag@sha256:<64 hex digits>)"}
	case !official:
		return &Error{in.Line, "FROM: not an allowlisted official base image (Docker Official Images such as debian, ubuntu or alpine)"}
	}
	norm := registry + "/" + name
	if tag != "" {
		norm += ":" + tag
	}
	in.Base, in.Digest = norm+"@"+digest, digest
	return nil
}

// ansiEscape matches terminal escape sequences: CSI (colours, cursor
// moves), OSC (titles, links; ended by BEL or ST, or cut at the end of its
// line when unterminated), other escapes (ESC, intermediate bytes, a final
// byte: charset selection "ESC ( B", cursor save "ESC 7", reset "ESC c"),
// and a stray ESC.
var ansiEscape = regexp.MustCompile(`\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|[ -/]*[0-~])?`)

// StripANSI removes terminal escape sequences from build log text.
func StripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansiEscape.ReplaceAllString(s, "")
}

// Clip shortens user text quoted in errors and logs.
func Clip(s string) string {
	if r := []rune(s); len(r) > 64 {
		return string(r[:64]) + "…"
	}
	return s
}

// ContentHash identifies a Dockerfile's content.
func ContentHash(dockerfile string) string {
	sum := sha256.Sum256([]byte(dockerfile))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// RunExit "runs" a RUN instruction: the double executes nothing, except
// that `exit N` with N != 0 fails, so a failing step can be scripted.
func RunExit(in Instr) error {
	rest, ok := strings.CutPrefix(in.Args, "exit ")
	if !ok {
		return nil
	}
	if code, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && code != 0 {
		// The arguments are only "exit N", but say so without quoting the
		// line (errors never do).
		return fmt.Errorf("RUN exit %d: exited with code %d", code, code)
	}
	return nil
}
