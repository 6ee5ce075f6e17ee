package builds

import (
	"strings"
	"testing"
)

// TestParseHeredocWithSpaceAfterLessLess: since BuildKit v0.22.0 the shell
// lexer keeps white space after "<<" in the word and the heredoc word is
// ^(\d*)<<(-?)\s*([^<]*)$, so "cat << EOF" opens a heredoc. In the third
// case Docker runs one RUN (lines 3 and 4 are its body), not RUN exit 1 and
// a FROM it never sees; in the fourth it reads a heredoc named "2))".
func TestParseHeredocWithSpaceAfterLessLess(t *testing.T) {
	for _, body := range []string{
		"RUN cat << EOF\nEOF\n",
		"RUN cat <<\tEOF\nEOF\n",
		"RUN cat 2<< \t'EOF'\nEOF\n",
		"RUN cat << \"RUN true\" > /x\nRUN exit 1\nFROM debian@" + pin + "\nRUN true\n",
		"RUN echo $((1 << 2))\n",
	} {
		_, err := Parse("FROM debian@" + pin + "\n" + body)
		if err == nil || !strings.HasPrefix(err.Error(), "line 2: heredocs are not supported") {
			t.Errorf("%q: %v; Docker reads a heredoc at line 2", body, err)
		}
	}
}

// TestParseNoHeredocWithoutName: Docker keeps white space only right after
// "<<", so "<<-" then a space, "<<" at the end of the line and "<<<" leave
// the heredoc word without a name: no heredoc, and the next line is an
// instruction.
func TestParseNoHeredocWithoutName(t *testing.T) {
	for _, run := range []string{"RUN cat <<- EOF || true", "RUN cat <<-\tEOF", "RUN cat << ", "RUN cat <<< EOF", "RUN cat <<<< EOF"} {
		in, err := Parse("FROM debian@" + pin + "\n" + run + "\nRUN exit 1\n")
		if err != nil || len(in) != 3 {
			t.Errorf("%q: %+v, %v; Docker builds it (no heredoc)", run, in, err)
		}
	}
}
