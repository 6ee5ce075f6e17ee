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
