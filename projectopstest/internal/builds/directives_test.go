package builds

import (
	"strings"
	"testing"
)

// TestParseSyntaxDirectiveAfterShebang: Docker's frontend picks a syntax
// image with parser.DetectSyntax, which drops a first "#!" line before
// reading directives, so a syntax directive below it is refused. The
// parser itself reads escape without dropping it: there "#!" ends the
// directives.
func TestParseSyntaxDirectiveAfterShebang(t *testing.T) {
	for _, df := range []string{
		"#!/usr/bin/env buildctl\n# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n",
		"\ufeff#!x\r\n# check=skip=all\r\n#syntax=evil/frontend\r\nFROM debian@" + pin + "\n",
	} {
		_, err := Parse(df)
		if err == nil || !strings.HasPrefix(err.Error(), "line ") || !strings.Contains(err.Error(), ": parser directive syntax is not supported") {
			t.Errorf("%q: %v; Docker forwards to the syntax image", df, err)
		}
	}
	if _, err := Parse("#!/x\n# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n"); err == nil || !strings.HasPrefix(err.Error(), "line 2: ") {
		t.Errorf("err = %v, want line 2", err)
	}
	// Only a first line: further down "#!" is a comment ending directives.
	for _, df := range []string{
		"\n#!/x\n# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n",
		"  #!/x\n# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n",
		"#!/x\n# escape=`\nFROM debian@" + pin + "\nRUN a `\nRUN true\n",
	} {
		if _, err := Parse(df); err != nil {
			t.Errorf("%q refused: %v", df, err)
		}
	}
}

// TestParseIndentedSyntaxIsAComment: DetectSyntax reads the raw line, so an
// indented "# syntax=" picks no frontend and Docker builds the file itself;
// Docker's parser trims lines before reading escape, so an indented escape
// is still refused.
func TestParseIndentedSyntaxIsAComment(t *testing.T) {
	for _, df := range []string{
		"  # syntax=docker/dockerfile:1\nFROM debian@" + pin + "\nRUN true\n",
		"# check=skip=all\n\t# syntax=docker/dockerfile:1\nFROM debian@" + pin + "\n",
	} {
		if _, err := Parse(df); err != nil {
			t.Errorf("%q refused: %v; Docker builds it without forwarding", df, err)
		}
	}
	if _, err := Parse("  # escape=`\nFROM debian@" + pin + "\n"); err == nil || !strings.HasPrefix(err.Error(), "line 1: parser directive escape is not supported") {
		t.Errorf("indented escape: %v", err)
	}
}
