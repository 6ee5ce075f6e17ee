package builds

import (
	"strings"
	"testing"
)

// TestParseRefusesRunMountFrom: RUN --mount=...,from=<image> makes Docker
// pull and mount that image, one neither allowlisted nor pinned, of any
// mount type; the error quotes nothing of the line.
func TestParseRefusesRunMountFrom(t *testing.T) {
	for _, run := range []string{
		"RUN --mount=type=bind,from=evil/ghpS3cretT0ken:latest,target=/x true",
		"RUN --mount=from=debian:latest,target=/x true",
		"RUN --mount=type=cache,target=/c,from=evil/img true",
		"RUN --network=none --mount=\"type=bind,FROM=evil/img\",target=/x true",
		"RUN --mount=type=cache,target=/c \\\n  --mount=target=/x,from=evil/img true",
	} {
		_, err := Parse("FROM debian@" + pin + "\n" + run + "\n")
		if want := "line 2: RUN --mount from another image is not supported"; err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "S3cret") {
			t.Errorf("%s: %v, want %q", run, err, want)
		}
	}
	// Mounts without from=, and from= past the flags, are read.
	for _, run := range []string{
		"RUN --mount=type=cache,target=/root/.cache true",
		"RUN -- --mount=from=x true",
		"RUN echo --mount=from=x",
	} {
		if _, err := Parse("FROM debian@" + pin + "\n" + run + "\n"); err != nil {
			t.Errorf("%s refused: %v", run, err)
		}
	}
}

// TestParseRunMountFlagsAsBuildKit: the flags are read by BuildKit's flag
// reader, not the command's lexer: words end only at bytes that are white
// space (not inside U+3000), a backslash escapes a quote inside single
// quotes, white space after "<<" ends a word, and a flag without "=" takes
// the next word as its value. Each line makes Docker mount evil/img.
func TestParseRunMountFlagsAsBuildKit(t *testing.T) {
	for name, run := range map[string]string{
		"ideographic space inside the flag": "RUN --mount=type=cache,target=/c\u3000x,from=evil/img,target=/x true",
		"escaped quote in single quotes":    `RUN --mount='type=cache,target=/a\' b' --mount=type=bind,from=evil/img,target=/x true`,
		"white space after <<":              "RUN --mount=type=cache,target=/x<< --mount=from=evil/img,target=/y true",
		"value as the next word":            "RUN --mount from=evil/img,target=/x true",
		"no-break space byte splits words":  "RUN --mount=type=cache,target=/c\u00a0--mount=from=evil/img,target=/x true",
	} {
		_, err := Parse("FROM debian@" + pin + "\n" + run + "\n")
		if err == nil || !strings.Contains(err.Error(), "RUN --mount from another image") {
			t.Errorf("%s: %v; Docker mounts evil/img", name, err)
		}
	}
}

// TestParseRunMountFromStage: a mount from an earlier stage (named in any
// case, as Docker resolves stages) names an image the FROM checks passed;
// any other from= is refused, a stage named only later, one spelt with
// quotes or escapes, and another image after a stage's mount included.
func TestParseRunMountFromStage(t *testing.T) {
	df := func(run string) string {
		return "FROM debian@" + pin + " AS Builder\nRUN true\nFROM debian@" + pin + "\n" + run + "\n"
	}
	for _, run := range []string{
		"RUN --mount=from=builder,target=/b true",
		"RUN --mount=type=bind,FROM=BUILDER,target=/b --mount=type=cache,target=/c true",
		"RUN --mount from=Builder,target=/b true",
	} {
		if _, err := Parse(df(run)); err != nil {
			t.Errorf("%s refused: %v", run, err)
		}
	}
	for _, run := range []string{
		"RUN --mount=from=builder,target=/b --mount=from=evil/img,target=/x true",
		"RUN --mount=from=builder,from=evil/img,target=/x true",
		"RUN --mount=from=later,target=/x true\nFROM debian@" + pin + " AS later",
		`RUN --mount=from=build\\er,target=/x true`,
		`RUN --mount='"from=builder"',target=/x true`,
		"RUN --mount=from=,target=/x true",
	} {
		_, err := Parse(df(run))
		if want := "line 4: RUN --mount from another image is not supported"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", run, err, want)
		}
	}
}
