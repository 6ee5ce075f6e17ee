package builds

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in, err := Parse("# base\nFROM python:3.13-slim@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d AS base\nRUN pip install \\\n  # a comment inside\n  httpx\nFROM base\nRUN exit 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 4 || in[0].Base != "docker.io/library/python:3.13-slim@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d" || in[0].Digest != "sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d" ||
		in[1].Args != "pip install   httpx" || in[2].Digest != "" || in[3].Line != 7 {
		t.Errorf("instructions = %+v", in)
	}
	if err := RunExit(in[3]); err == nil || !strings.Contains(err.Error(), "exited with code 3") {
		t.Errorf("RunExit = %v", err)
	}
	if RunExit(in[1]) != nil {
		t.Error("a plain RUN failed")
	}
	// Official images normalize to docker.io/library, with or without a
	// tag, however the registry is spelled.
	for _, ref := range []string{"debian@", "library/debian@", "docker.io/library/debian@", "index.docker.io/debian@"} {
		in, err := Parse("FROM " + ref + "sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\n")
		if err != nil || in[0].Base != "docker.io/library/debian@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d" {
			t.Errorf("FROM %s: %+v, %v", ref, in, err)
		}
	}
}

// pin is a well-formed digest for FROM lines.
const pin = "sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41"

// TestParseAcceptsWhatDockerBuilds: Dockerfiles Docker builds, in the
// dialect the service accepts, are read.
func TestParseAcceptsWhatDockerBuilds(t *testing.T) {
	for name, df := range map[string]string{
		"continuations":                    "FROM debian:bookworm-slim@" + pin + "\nRUN apt-get update && \\\n    apt-get install -y curl \\\n    && rm -rf /var/lib/apt/lists/*\n",
		"comment in continuation":          "FROM debian@" + pin + "\nRUN a \\\n# note\n    b\n",
		"blank line in continuation":       "FROM debian@" + pin + "\nRUN a \\\n\n    b\n",
		"white space line in continuation": "FROM debian@" + pin + "\nRUN a \\\n \t\n    b\n",
		"lower case":                       "from debian@" + pin + "\nrun true\n",
		"tab after instruction":            "FROM\tdebian@" + pin + "\nRUN\ttrue\n",
		"crlf":                             "FROM debian@" + pin + "\r\nRUN true\r\n",
		"BOM":                              "\ufeffFROM debian@" + pin + "\nRUN true\n",
		"exec form":                        "FROM debian@" + pin + "\nRUN [\"echo\", \"hi\"]\n",
		"platform + AS":                    "FROM --platform=linux/amd64 debian@" + pin + " AS base\nRUN true\nFROM base\n",
		"no trailing newline":              "FROM debian@" + pin,
		"-- ends the flags":                "FROM -- debian@" + pin + "\nFROM --platform=linux/amd64 -- debian@" + pin + " AS b\n",
		"UI template":                      "# Allowlisted official base (debian, ubuntu, node, python) pinned by digest.\n# Only FROM + RUN are supported today. Change the base or digest as needed.\nFROM debian:bookworm-slim@sha256:60eac759739651111db372c07be67863818726f754804b8707c90979bda511df\nRUN echo \"customize me\"\n",
	} {
		if _, err := Parse(df); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
	in, err := Parse("FROM\tdebian@" + pin + "\nRUN a \\\n\n  \n# c\n  b\nRUN\tc\n")
	if err != nil || len(in) != 3 || in[0].Cmd != "FROM" || in[1].Args != "a   b" || in[1].Line != 2 || in[2].Args != "c" || in[2].Line != 7 {
		t.Errorf("instructions = %+v, %v", in, err)
	}
}

// TestParseErrorsQuoteNoLineContent: an error names the line and at most
// the instruction word; the rest of a line may hold a secret.
func TestParseErrorsQuoteNoLineContent(t *testing.T) {
	const secret = "ghp_S3cretT0kenValue0123456789"
	for _, src := range []string{
		secret + "\n",
		"FROM debian@" + pin + "\n--token=" + secret + "\n",
		"FROM debian@" + pin + "\nCOPY " + secret + " /x\n",
		"FROM --token=" + secret + " debian@" + pin + "\n",
		"FROM " + secret + "!\n",
		"FROM " + strings.ToLower(secret) + "\n",
		"FROM registry.example/" + strings.ToLower(secret) + "@" + pin + "\n",
		"FROM debian@" + pin + " AS " + secret + "!\n",
	} {
		_, err := Parse(src)
		if err == nil {
			t.Errorf("Parse(%q) accepted", src)
			continue
		}
		if msg := strings.ToLower(err.Error()); strings.Contains(msg, "s3cret") {
			t.Errorf("Parse(%q) = %q, quoting the line", src, err)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for src, want := range map[string]string{
		"":           "no FROM instruction",
		"RUN echo\n": "line 1: RUN before the first FROM",
		"FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\nCOPY . /x\n":    "line 2: unsupported instruction COPY",
		"FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\nFROBNICATE x\n": "line 2: unknown instruction FROBNICATE",
		"FROM Not_An_Image\n": "line 1: malformed FROM: invalid image reference",
		"FROM --weird=1 a\n":  "line 1: malformed FROM: unknown flag",
		// The service's rule: an allowlisted official base pinned by digest.
		"FROM debian:bookworm-slim\n": "line 1: FROM: the base image must be pinned by digest",
		"FROM acme/base@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\n":             "line 1: FROM: not an allowlisted official base image",
		"FROM ghcr.io/acme/base@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\n":     "line 1: FROM: not an allowlisted official base image",
		"FROM localhost:5000/debian@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\n": "line 1: FROM: not an allowlisted official base image",
	} {
		if _, err := Parse(src); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestStripANSI(t *testing.T) {
	for in, want := range map[string]string{
		"plain [text] (ok) ~ 7 8":                  "plain [text] (ok) ~ 7 8",
		"\x1b[31merror\x1b[0m done":                "error done",
		"\x1b[1;38;5;196mbold\x1b[m":               "bold",
		"\x1b[31merror\x1b(B\x1b[m done":           "error done", // tput sgr0
		"\x1b7step 1/3\x1b8":                       "step 1/3",
		"\x1bcreset":                               "reset",
		"\x1b]0;title\x07kept":                     "kept",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "link",
		"bad \x1b]title\nline 2\nline 3":           "bad \nline 2\nline 3", // unterminated: cut at its line's end
		"stray \x1b":                               "stray ",
	} {
		if got := StripANSI(in); got != want {
			t.Errorf("StripANSI(%q) = %q, want %q", in, got, want)
		}
	}
}
