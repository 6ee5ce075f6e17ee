package projectopstest

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// The double's Dockerfile dialect is the service's: FROM and RUN only, the
// first instruction FROM, with comments, blank lines and backslash line
// continuations. Other Dockerfile instructions are refused as unsupported,
// anything else as unknown.

// dockerInstr is one instruction; line is where it starts (1-based).
type dockerInstr struct {
	line      int
	cmd, args string
	base      string // FROM: the base image reference, normalized; "" for a stage
	digest    string // FROM: the resolved "sha256:<hex>"
}

// dockerfileError says why a Dockerfile cannot be built.
type dockerfileError struct {
	line int // 0 when it is about the whole file
	msg  string
}

func (e *dockerfileError) Error() string {
	if e.line == 0 {
		return e.msg
	}
	return fmt.Sprintf("line %d: %s", e.line, e.msg)
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

// parseDockerfile checks src and resolves its FROM images to digests.
func parseDockerfile(src string) ([]dockerInstr, *dockerfileError) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out []dockerInstr
	stages := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		start := i + 1
		text := strings.TrimSpace(lines[i])
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		// Join continuation lines; comment lines inside are dropped.
		for strings.HasSuffix(text, `\`) {
			text = strings.TrimSpace(strings.TrimSuffix(text, `\`))
			for {
				i++
				if i >= len(lines) {
					return nil, &dockerfileError{start, "malformed line: line continuation at end of file"}
				}
				if next := strings.TrimSpace(lines[i]); !strings.HasPrefix(next, "#") {
					text = strings.TrimSpace(text + " " + next)
					break
				}
			}
		}
		word, args, _ := strings.Cut(text, " ")
		if !instrWord.MatchString(word) {
			return nil, &dockerfileError{start, fmt.Sprintf("malformed line: %q is not an instruction", clip(word))}
		}
		cmd := strings.ToUpper(word)
		args = strings.TrimSpace(args)
		switch {
		case cmd != "FROM" && cmd != "RUN" && otherInstructions[cmd]:
			return nil, &dockerfileError{start, "unsupported instruction " + cmd + ": only FROM and RUN are supported"}
		case cmd != "FROM" && cmd != "RUN":
			return nil, &dockerfileError{start, "unknown instruction " + clip(word)}
		case args == "":
			return nil, &dockerfileError{start, "malformed line: " + cmd + " needs an argument"}
		case cmd == "RUN" && len(out) == 0:
			return nil, &dockerfileError{start, "RUN before the first FROM: a Dockerfile starts FROM a base image"}
		}
		in := dockerInstr{line: start, cmd: cmd, args: args}
		if cmd == "FROM" {
			if err := resolveFrom(&in, stages); err != nil {
				return nil, err
			}
		}
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, &dockerfileError{0, "no FROM instruction: a Dockerfile starts FROM a base image"}
	}
	return out, nil
}

// resolveFrom parses FROM [--platform=p] image [AS name]. An image naming an
// earlier stage is not a base image and gets no digest.
func resolveFrom(in *dockerInstr, stages map[string]bool) *dockerfileError {
	fields := strings.Fields(in.args)
	for len(fields) > 0 && strings.HasPrefix(fields[0], "--") {
		if !strings.HasPrefix(fields[0], "--platform=") {
			return &dockerfileError{in.line, "malformed FROM: unknown flag " + clip(fields[0])}
		}
		fields = fields[1:]
	}
	bad := &dockerfileError{in.line, "malformed FROM: expected FROM image[:tag][@sha256:digest] [AS name]"}
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
		return &dockerfileError{in.line, "malformed FROM: invalid image reference " + clip(ref)}
	}
	registry, name, tag, digest := m[1], m[2], m[3], m[4]
	if registry == "" {
		registry = "docker.io"
		if !strings.Contains(name, "/") {
			name = "library/" + name
		}
	}
	norm := registry + "/" + name
	if tag != "" || digest == "" {
		norm += ":" + cmp.Or(tag, "latest")
	}
	if digest == "" {
		// Resolving a tag: deterministic, as if the registry answered.
		sum := sha256.Sum256([]byte("projectopstest resolve " + norm))
		digest = "sha256:" + hex.EncodeToString(sum[:])
	} else {
		norm += "@" + digest
	}
	in.base, in.digest = norm, digest
	return nil
}

// clip shortens user text quoted in errors and logs.
func clip(s string) string {
	if r := []rune(s); len(r) > 64 {
		return string(r[:64]) + "…"
	}
	return s
}

// contentHash identifies a Dockerfile's content.
func contentHash(dockerfile string) string {
	sum := sha256.Sum256([]byte(dockerfile))
	return "sha256:" + hex.EncodeToString(sum[:])
}
