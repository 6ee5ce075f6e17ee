package builds

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in, err := Parse("# base\nFROM python:3.13-slim AS base\nRUN pip install \\\n  # a comment inside\n  httpx\nFROM base\nRUN exit 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 4 || in[0].Base != "docker.io/library/python:3.13-slim" || !strings.HasPrefix(in[0].Digest, "sha256:") ||
		in[1].Args != "pip install httpx" || in[2].Digest != "" || in[3].Line != 7 {
		t.Errorf("instructions = %+v", in)
	}
	if err := RunExit(in[3]); err == nil || !strings.Contains(err.Error(), "exited with code 3") {
		t.Errorf("RunExit = %v", err)
	}
	if RunExit(in[1]) != nil {
		t.Error("a plain RUN failed")
	}
	again, _ := Parse("FROM python:3.13-slim\n")
	if again[0].Digest != in[0].Digest {
		t.Error("tag resolution is not deterministic")
	}
}

func TestParseRefuses(t *testing.T) {
	for src, want := range map[string]string{
		"":                       "no FROM instruction",
		"RUN echo\n":             "line 1: RUN before the first FROM",
		"FROM a\nCOPY . /x\n":    "line 2: unsupported instruction COPY",
		"FROM a\nFROBNICATE x\n": "line 2: unknown instruction FROBNICATE",
		"FROM a\nRUN x \\":       "line 2: malformed line: line continuation at end of file",
		"FROM Not_An_Image\n":    "line 1: malformed FROM: invalid image reference",
		"FROM --weird=1 a\n":     "line 1: malformed FROM: unknown flag",
	} {
		if _, err := Parse(src); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", src, err, want)
		}
	}
}
