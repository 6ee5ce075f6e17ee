package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// oddKey is a PROJECTOPS_API_KEY of no sk_ shape, which only the CLI's
// own mask (by value) knows; oddKeySpellings are ways a test's output, a
// trace or cobra's echo may quote it: percent- or JSON-escaped, in part,
// hex in either case, two layers deep.
const oddKey = "odd-shaped-KEY-987654"

var oddKeySpellings = map[string]string{
	"as written":           oddKey,
	"first letter escaped": "%6Fdd-shaped-KEY-987654",
	"lower-case hex":       "odd%2dshaped%2dKEY-987654",
	`JSON \u escape`:       `odd\u002dshaped-KEY-987654`,
	"two layers":           "odd%252Dshaped-KEY-987654",
}

// keyShown reports whether s holds a piece of oddKey that only the key
// has (its middle, in no spelling here escaped).
func keyShown(s string) bool { return strings.Contains(s, "shaped") }

// The error line masks PROJECTOPS_API_KEY in any spelling: cobra echoes
// an argument as typed, escapes and all.
func TestUsageErrorsMaskKeyAnySpelling(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", oddKey)
	for name, spelt := range oddKeySpellings {
		code, out, errOut := runCLI(t, "eval", spelt)
		if all := out + errOut; keyShown(all) || code != exitError {
			t.Errorf("%s: exit %d: %s", name, code, all)
		}
	}
}

// What report echoes of tests' output masks the key in any spelling.
func TestMaskWriterKeyAnySpelling(t *testing.T) {
	for name, spelt := range oddKeySpellings {
		var b bytes.Buffer
		m := &maskWriter{w: &b, secret: []byte(oddKey)}
		if _, err := m.Write([]byte("GET /x?key=" + spelt + " failed\n")); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), "GET /x?key=[REDACTED] failed\n"; got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}

// Text and JSON the CLI prints but did not write (an iteration's reason,
// a trace) mask the key in any spelling, the JSON staying JSON.
func TestOutputRedactionMasksKeyAnySpelling(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", oddKey)
	c, err := projectops.NewClient(option.WithAPIKey("sk_another_client_key_0123"), option.WithBaseURL("http://127.0.0.1:1/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	redact := outputRedactor(c)
	for name, spelt := range oddKeySpellings {
		if got := redact("reason: " + spelt); keyShown(got) || !strings.HasPrefix(got, "reason: ") {
			t.Errorf("%s: outputRedactor gives %q", name, got)
		}
		var b bytes.Buffer
		if err := redactedJSON(&b, c, map[string]string{"reason": "used " + spelt}); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); keyShown(got) || !json.Valid(b.Bytes()) {
			t.Errorf("%s: redactedJSON gives %s", name, got)
		}
	}
}

// A long line cut at the end of a long key spelt with every byte \u-escaped
// twice (36 bytes a byte) is cut before the spelling at the first try:
// what a cut keeps back scales with the key's longest spelling, not its
// written length, so the cut redacts the text three times (whole, head,
// tail) rather than failing its check at points inside the spelling.
func TestMaskWriterCutKeepsKeyLongestSpelling(t *testing.T) {
	key := "sk_" + strings.Repeat("Zq9Xw8Vu7Ts6Rp5", 14) // 213 bytes: spelt 7.5 KiB
	var spelt strings.Builder
	for _, c := range []byte(key) {
		for _, d := range []byte(fmt.Sprintf(`\u%04x`, c)) {
			fmt.Fprintf(&spelt, `\u%04x`, d)
		}
	}
	if spelt.Len() <= maskedTailKept {
		t.Fatalf("the spelling (%d bytes) is within what any cut keeps", spelt.Len())
	}
	calls := 0
	var b bytes.Buffer
	m := &maskWriter{w: &b, secret: []byte(key), redact: func(s string) string { calls++; return s }}
	line := strings.Repeat("x", maskedLineMax-spelt.Len()) + " " + spelt.String()
	if _, err := m.Write([]byte(line)); err != nil {
		t.Fatal(err)
	}
	if calls != 3 {
		t.Errorf("the cut redacted %d times, want 3 (its first point)", calls)
	}
	if err := m.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); strings.Contains(got, spelt.String()[:40]) || !strings.Contains(got, "[REDACTED]") {
		t.Errorf("the key spelt twice escaped is echoed: %.80q", got[len(got)-80:])
	}
}

// A key-shaped word is "sk_" and 40 or more key characters anywhere
// (glued to a word, as cobra echoes "-ksk_live_..."), or 8 or more at a
// boundary: after no ASCII letter or digit, or right after a backslash or
// percent escape. An id or name that holds "sk_" inside a word stays
// whole, and a command holding it is printed.
func TestKeyShapedNeedsABoundary(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	const real = "sk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG" // sk_ and 48
	for in, want := range map[string]string{
		// Not keys: fewer than 40 characters after a letter or digit.
		"run_task_20261128":                             "run_task_20261128",
		"nightly-task_20261128":                         "nightly-task_20261128",
		"disk_12345678 Ask_12345678":                    "disk_12345678 Ask_12345678",
		"-disk_12345678":                                "-disk_12345678",
		"-task_20261128":                                "-task_20261128",
		"unknown shorthand flag: 'd' in -disk_12345678": "unknown shorthand flag: 'd' in -disk_12345678",
		"in -ksk_live_ABCDEFGH12":                       "in -ksk_live_ABCDEFGH12",
		"sk_short":                                      "sk_short",
		"run_task_20261128_093015_abcd":                 "run_task_20261128_093015_abcd",
		"task_completion_accuracy_eval":                 "task_completion_accuracy_eval",
		"risk_assessment_team_production":               "risk_assessment_team_production",
		"disk_cleanup_environments":                     "disk_cleanup_environments",
		"nightly-task_completion_accuracy_eval_2026_11": "nightly-task_completion_accuracy_eval_2026_11",
		"Bearer" + real[:42]:                            "Bearer" + real[:42], // sk_ and 39
		// Keys at a boundary.
		"sk_live_ABCDEFGH12":                 "sk_***",
		"run_sk_live_ABCDEFGH12":             "run_sk_***",
		"_sk_live_12345678":                  "_sk_***",
		`"sk_live_ABCDEFGH12"`:               `"sk_***"`,
		"key sk_live_ABCDEFGH12.":            "key sk_***.",
		"a/sk_live_ABCDEFGH12,sk_x_12345678": "a/sk_***,sk_***",
		// Keys right after an escape.
		`k:\nsk_live_ABCDEFGH12`:               `k:\nsk_***`,
		`\u0022sk_live_ABCDEFGH12`:             `\u0022sk_***`,
		`$'\x09sk_live_ABCDEFGH12'`:            `$'\x09sk_***'`,
		`\tsk_live_ABCDEFGH12 \\sk_x_12345678`: `\tsk_*** \\sk_***`,
		"auth=Bearer%20sk_live_ABCDEFGH12":     "auth=Bearer%20sk_***",
		"token%3Dsk_live_ABCDEFGH12":           "token%3Dsk_***",
		// Keys whose underscore is escaped.
		"k=sk%5Flive_ABCDEFGH12":                        "k=sk_***",
		`k=sk\u005flive_ABCDEFGH12`:                     "k=sk_***",
		"Bearer" + strings.Replace(real, "_", "%5F", 1): "Bearersk_***",
		// Keys of 40 or more wherever they stand.
		"Bearer" + real:   "Bearersk_***",
		"in -k" + real:    "in -ksk_***",
		"-vk" + real:      "-vksk_***",
		"run_task" + real: "run_tasksk_***",
	} {
		if got := maskAPIKey(in); got != want {
			t.Errorf("maskAPIKey(%q) = %q, want %q", in, got, want)
		}
		if c := commandLine("", in, "eval status", []string{"--wait"}, "run_1"); c.pastable() != (in == want) {
			t.Errorf("a command with --project %q: pastable %v", in, c.pastable())
		}
	}
}
