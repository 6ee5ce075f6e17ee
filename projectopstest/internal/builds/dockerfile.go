// Package builds is the double's reader of the service's Dockerfile
// dialect: FROM and RUN only, the first instruction FROM, with comments,
// blank lines and backslash line continuations; other Dockerfile
// instructions are refused as unsupported, anything else as unknown. A
// base image must be an official image pinned by digest, as the service
// requires ("an allowlisted official base pinned by @sha256 digest"; it
// does not publish the allowlist, so every Docker Official Image passes).
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
	// imageRef is [registry[:port]/]name[/name...][:tag][@sha256:<64 hex>].
	imageRef = regexp.MustCompile(`^(?:([a-zA-Z0-9.-]+(?::[0-9]+)?)/)?` +
		`([a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*)` +
		`(?::([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$`)
	stageName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_.-]*$`)
)

// Parse checks src and resolves its FROM images to digests. It reads what
// Docker reads: a leading UTF-8 byte order mark is ignored, any white space
// separates an instruction from its arguments, and blank and comment lines
// inside a continuation are skipped. Its errors name the line and at most
// the instruction word, never the rest of the line (a RUN line may hold a
// token).
func Parse(src string) ([]Instr, *Error) {
	src = strings.TrimPrefix(src, "\ufeff")
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out []Instr
	stages := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		start := i + 1
		text := strings.TrimSpace(lines[i])
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		// Join continuation lines; blank and comment lines inside are
		// dropped, as Docker drops them.
		for strings.HasSuffix(text, `\`) {
			text = strings.TrimSpace(strings.TrimSuffix(text, `\`))
			for {
				i++
				if i >= len(lines) {
					return nil, &Error{start, "malformed line: line continuation at end of file"}
				}
				if next := strings.TrimSpace(lines[i]); next != "" && !strings.HasPrefix(next, "#") {
					text = strings.TrimSpace(text + " " + next)
					break
				}
			}
		}
		word, args := text, ""
		if n := strings.IndexFunc(text, unicode.IsSpace); n >= 0 {
			word, args = text[:n], text[n:]
		}
		if !instrWord.MatchString(word) {
			return nil, &Error{start, "malformed line: it does not start with an instruction"}
		}
		cmd := strings.ToUpper(word)
		args = strings.TrimSpace(args)
		switch {
		case cmd != "FROM" && cmd != "RUN" && otherInstructions[cmd]:
			return nil, &Error{start, "unsupported instruction " + cmd + ": only FROM and RUN are supported"}
		case cmd != "FROM" && cmd != "RUN":
			return nil, &Error{start, "unknown instruction " + Clip(word)}
		case args == "":
			return nil, &Error{start, "malformed line: " + cmd + " needs an argument"}
		case cmd == "RUN" && len(out) == 0:
			return nil, &Error{start, "RUN before the first FROM: a Dockerfile starts FROM a base image"}
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

// resolveFrom parses FROM [--platform=p] image [AS name]. An image naming an
// earlier stage is not a base image and gets no digest.
func resolveFrom(in *Instr, stages map[string]bool) *Error {
	fields := strings.Fields(in.Args)
	for len(fields) > 0 && strings.HasPrefix(fields[0], "--") {
		if !strings.HasPrefix(fields[0], "--platform=") {
			return &Error{in.Line, "malformed FROM: unknown flag (only --platform is supported)"}
		}
		fields = fields[1:]
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
