package builds

import (
	"strings"
	"testing"
)

// TestParseJoinsContinuationsWithNothingBetween: Docker removes the
// backslash (and the spaces after it) and joins the next line as it is, so
// a word split across lines is one word.
func TestParseJoinsContinuationsWithNothingBetween(t *testing.T) {
	for name, df := range map[string]string{
		"split image ref":       "FROM debi\\\nan@" + pin + "\nRUN true\n",
		"split instruction":     "FR\\\nOM debian@" + pin + "\nRUN true\n",
		"spaces after the \\":   "FROM debian@" + pin + "\nRUN true \\ \t\n && false\n",
		"a lone \\ line":        "FROM debian@" + pin + "\nRUN true \\\n\\\n && false\n",
		"CRLF after the \\":     "FROM debi\\\r\nan@" + pin + "\r\n",
		"indented continuation": "FROM debian@" + pin + "\n  RUN a\\\n  b\n",
	} {
		if _, err := Parse(df); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
	in, err := Parse("FROM debian@" + pin + "\nRUN a\\\n  b\\\nc \\\n\n# x\n d\n")
	if err != nil || len(in) != 2 || in[1].Args != "a  bc  d" {
		t.Errorf("instructions = %+v, %v; want RUN args %q", in, err, "a  bc  d")
	}
	for _, df := range []string{
		"FROM debian@" + pin + "\nRUN\\\necho hi\n", // RUNecho
		"FROM\\\ndebian@" + pin + "\n",              // FROMdebian@…
	} {
		if in, err := Parse(df); err == nil || !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%q = %+v, %v; Docker reads one (unknown) word", df, in, err)
		}
	}
	if _, err := Parse("FROM debian@" + pin + "\nRUN\\\necho hi\n"); err == nil || err.Error() != "line 2: unknown instruction RUNecho" {
		t.Errorf("err = %v", err)
	}
}

// TestParseEscapedBackslashDoesNotContinue: as in Docker, a backslash after
// a backslash ends the line, so the next line is an instruction of its own
// (here an unpinned FROM, refused) rather than part of the RUN.
func TestParseEscapedBackslashDoesNotContinue(t *testing.T) {
	_, err := Parse("FROM debian@" + pin + "\nRUN echo a\\\\\nFROM debian:latest\n")
	if err == nil || !strings.HasPrefix(err.Error(), "line 3: FROM: the base image must be pinned by digest") {
		t.Errorf("err = %v", err)
	}
}

// TestParseContinuationAtEndOfFile: Docker ends the instruction at the end
// of the file and builds it, also after blank and comment lines.
func TestParseContinuationAtEndOfFile(t *testing.T) {
	for _, df := range []string{
		"FROM debian@" + pin + "\nRUN true \\",
		"FROM debian@" + pin + "\nRUN true \\\n",
		"FROM debian@" + pin + "\nRUN true \\\n\n",
		"FROM debian@" + pin + "\nRUN true \\\n# c\n",
		"FROM debian@" + pin + " \\\n",
	} {
		in, err := Parse(df)
		if err != nil {
			t.Errorf("%q refused: %v", df, err)
			continue
		}
		if last := in[len(in)-1]; last.Cmd == "RUN" && last.Args != "true" {
			t.Errorf("%q: RUN args %q", df, last.Args)
		}
	}
}

// TestParseWhiteSpaceIsASCII: only ASCII white space separates the
// instruction word, and only spaces and tabs may follow a continuation's
// backslash; U+00A0 and U+0085 are characters of a word, as in Docker.
func TestParseWhiteSpaceIsASCII(t *testing.T) {
	for _, sep := range []string{"\u00a0", "\u0085"} {
		_, err := Parse("FROM" + sep + "debian@" + pin + "\n")
		if err == nil || err.Error() != "line 1: malformed line: it does not start with an instruction" {
			t.Errorf("FROM%+q image: %v", sep, err)
		}
		// Not a continuation: line 3 is an unpinned FROM of its own.
		_, err = Parse("FROM debian@" + pin + "\nRUN echo \\" + sep + "\nFROM debian:latest\n")
		if err == nil || !strings.HasPrefix(err.Error(), "line 3: FROM: the base image must be pinned") {
			t.Errorf("backslash + %+q: %v", sep, err)
		}
		// In FROM's arguments too: "image<NBSP>AS" is one word.
		if _, err := Parse("FROM debian@" + pin + sep + "AS x\n"); err == nil {
			t.Errorf("FROM image%+qAS x accepted", sep)
		}
	}
	// The refusal quotes an instruction word only when it is letters.
	const secret = "ghpS3cretT0ken"
	if _, err := Parse("FROM debian@" + pin + "\nRUN\u00a0" + secret + "\n"); err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("err = %v", err)
	}
}

// TestParseLineNumbers: an error names the line its instruction starts on,
// counting blank, comment and continued lines, a BOM and CRLF endings.
func TestParseLineNumbers(t *testing.T) {
	for src, want := range map[string]string{
		"FROM debian@" + pin + "\nRUN a \\\n\n# c\n b\nCOPY x y\n":               "line 6:",
		"\ufeff\n\nFROM debian@" + pin + "\r\nRUN a \\\r\n\r\n b\r\nADD x y\r\n": "line 7:",
	} {
		if _, err := Parse(src); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %s", src, err, want)
		}
	}
}

// TestParseRefusesParserDirectives: escape would change which lines
// continue and syntax would pull a frontend image, so both are refused;
// escape=\ (Docker's default) and check (lint settings) are read.
func TestParseRefusesParserDirectives(t *testing.T) {
	for src, want := range map[string]string{
		"# escape=`\nFROM debian@" + pin + "\nRUN echo a `\n    b\n":               "line 1: parser directive escape is not supported",
		"# escape=`\nFROM debian@" + pin + "\nRUN echo C:\\\nFROM debian:latest\n": "line 1: parser directive escape is not supported",
		"\ufeff  #  ESCAPE = `  \nFROM debian@" + pin + "\n":                       "line 1: parser directive escape is not supported",
		"# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n":                  "line 1: parser directive syntax is not supported",
		"# check=skip=all\n#syntax=evil/frontend\nFROM debian@" + pin + "\n":       "line 2: parser directive syntax is not supported",
		"# escape=\\\n# escape=\\\nFROM debian@" + pin + "\n":                      "line 2: only one escape parser directive can be used",
	} {
		if _, err := Parse(src); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", src, err, want)
		}
	}
	// Directives only at the very top: after a blank line, another comment
	// or an instruction, they are comments.
	for name, df := range map[string]string{
		"escape=\\":            "# escape=\\\nFROM debian@" + pin + "\nRUN a \\\n b\n",
		"check":                "# check=skip=all\nFROM debian@" + pin + "\n",
		"after a blank line":   "\n# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n",
		"after a comment":      "# hello\n# escape=`\nFROM debian@" + pin + "\n",
		"after an unknown one": "# foo=bar\n# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n",
		"after an instruction": "FROM debian@" + pin + "\n# escape=`\nRUN true\n",
	} {
		if _, err := Parse(df); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
}

// TestParseRefusesHeredocs: Docker would read the lines after a RUN with a
// heredoc as its body; the reader refuses it rather than read them as
// instructions. A quoted or escaped << is no heredoc.
func TestParseRefusesHeredocs(t *testing.T) {
	for _, body := range []string{"RUN <<EOF\napt-get update\nEOF\n", "RUN <<-EOF\nFROM x\nEOF\n",
		"RUN cat 2<<'END' > /x\nRUN echo ghpSecretToken\nEND\n", "RUN a && \\\n cat <<\"EOF\"\nx\nEOF\n"} {
		_, err := Parse("FROM debian@" + pin + "\n" + body)
		if err == nil || !strings.HasPrefix(err.Error(), "line 2: heredocs are not supported") || strings.Contains(err.Error(), "Secret") {
			t.Errorf("%q: %v", body, err)
		}
	}
	for _, run := range []string{`RUN echo "<<EOF"`, `RUN echo '<<EOF'`, `RUN echo \<<EOF`, `RUN echo $((1<<2))`,
		`RUN cat <<< word`, `RUN ["sh", "-c", "cat <<EOF"]`} {
		if _, err := Parse("FROM debian@" + pin + "\n" + run + "\n"); err != nil {
			t.Errorf("%s: refused: %v", run, err)
		}
	}
}

// TestParseRefusesLinesDockerCannotRead: Docker's line scanner refuses a
// line over 65535 bytes (a "\r" and a leading byte order mark counted):
// "dockerfile line greater than max allowed size of 65535". The error
// names the line only.
func TestParseRefusesLinesDockerCannotRead(t *testing.T) {
	const secret = "ghpS3cretT0ken"
	from := "FROM debian@" + pin
	run := "RUN echo " + secret
	long := func(s string, n int) string { return s + strings.Repeat(" ", n-len(s)) }
	for _, df := range []string{
		from + "\n" + long(run, 65535) + "\n",
		from + "\n" + long(run, 65534) + "\r\n",
		from + "\n" + long(run, 65535),
		"\ufeff" + long(from, 65535-3) + "\n",
	} {
		if _, err := Parse(df); err != nil {
			t.Errorf("a line of 65535 bytes refused: %v", err)
		}
	}
	for df, line := range map[string]string{
		from + "\n" + long(run, 65536) + "\n":                  "line 2: ",
		from + "\n" + long(run, 65535) + "\r\n":                "line 2: ",
		from + "\n" + long(run, 65536):                         "line 2: ",
		from + "\n" + "# " + long(run, 70000) + "\nRUN true\n": "line 2: ",
		from + "\nRUN a \\\n" + long(run, 65536) + "\n":        "line 3: ",
		"\ufeff" + long(from, 65535-2) + "\n":                  "line 1: ",
	} {
		_, err := Parse(df)
		if want := line + "line greater than max allowed size of 65535 bytes"; err == nil || err.Error() != want {
			t.Errorf("a line over 65535 bytes: %v, want %q", err, want)
		}
	}
}
