package main

import (
	"bytes"
	"io"
	"strings"

	"github.com/projectops/projectops-go/ingest"
)

// maxTestText bounds what plainText keeps of one test's output.
const maxTestText = 1 << 20

// plainText renders go test -json events as the text plain go test (no -v)
// prints: nothing for passing or skipped tests; for a failing test its
// "--- FAIL" line and its output, with failing subtests' reports nested
// under their parent; each package's own lines once it ends ("PASS" of a
// passing package dropped, as go test does); build errors on stderr; a
// final "FAIL" when any package failed. It is used when the CLI had to add
// -json to the user's go test command.
type plainText struct {
	out, errw io.Writer
	tests     map[string]*textTest // by package + "\x00" + test
	pkgLines  map[string]*bytes.Buffer
	failed    bool
}

type textTest struct {
	header string
	buf    bytes.Buffer
}

func newPlainText(out, errw io.Writer) *plainText {
	return &plainText{out: out, errw: errw, tests: map[string]*textTest{}, pkgLines: map[string]*bytes.Buffer{}}
}

func (p *plainText) event(ev ingest.GoTestEvent) {
	switch ev.Action {
	case "build-output":
		_, _ = io.WriteString(p.errw, ev.Output)
		return
	case "start", "build-fail":
		return
	}
	if ev.Test == "" {
		p.packageEvent(ev)
		return
	}
	key := ev.Package + "\x00" + ev.Test
	t := p.tests[key]
	if t == nil {
		t = &textTest{}
		p.tests[key] = t
	}
	switch ev.Action {
	case "output":
		line := strings.TrimLeft(ev.Output, " ")
		switch {
		case strings.HasPrefix(line, "=== "):
		case strings.HasPrefix(line, "--- FAIL: ") || strings.HasPrefix(line, "--- PASS: ") || strings.HasPrefix(line, "--- SKIP: "):
			t.header = line
		default:
			if t.buf.Len() < maxTestText {
				t.buf.WriteString(ev.Output)
			}
		}
	case "pass", "skip":
		delete(p.tests, key)
	case "fail":
		delete(p.tests, key)
		header := t.header
		if header == "" {
			header = "--- FAIL: " + ev.Test + "\n"
		}
		report := header + t.buf.String()
		if i := strings.LastIndexByte(ev.Test, '/'); i >= 0 {
			if parent := p.tests[ev.Package+"\x00"+ev.Test[:i]]; parent != nil {
				parent.buf.WriteString(indent(report))
				return
			}
		}
		_, _ = io.WriteString(p.out, report)
	}
}

func (p *plainText) packageEvent(ev ingest.GoTestEvent) {
	lines := p.pkgLines[ev.Package]
	if lines == nil {
		lines = &bytes.Buffer{}
		p.pkgLines[ev.Package] = lines
	}
	switch ev.Action {
	case "output":
		lines.WriteString(ev.Output)
	case "pass", "skip", "fail":
		delete(p.pkgLines, ev.Package)
		if ev.Action == "fail" {
			p.failed = true
			// Tests cut off by a panic or timeout: their output explains it.
			for key, t := range p.tests {
				if strings.HasPrefix(key, ev.Package+"\x00") {
					_, _ = io.WriteString(p.out, t.header+t.buf.String())
					delete(p.tests, key)
				}
			}
		}
		text := lines.String()
		if ev.Action != "fail" {
			text = strings.Replace(text, "PASS\n", "", 1)
		}
		_, _ = io.WriteString(p.out, text)
	}
}

// finish prints go test's closing "FAIL" when a package failed.
func (p *plainText) finish() {
	if p.failed {
		_, _ = io.WriteString(p.out, "FAIL\n")
	}
}

// indent nests a subtest's report under its parent, as testing does.
func indent(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString("    ")
			b.WriteString(line)
		}
	}
	return b.String()
}
