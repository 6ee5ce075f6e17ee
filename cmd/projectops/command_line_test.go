package main

import (
	"strings"
	"testing"
)

// pastable judges each word as given, not as shellWord quotes it: the
// quoting spells a tab before a key as \x09 and respells a single quote
// in the API key, so the quoted line held neither as written.
func TestPastableJudgesWordsAsGiven(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	id := "\tsk_live_OTHERKEY1234567890"
	if got := maskAPIKey(id); strings.Contains(got, "OTHERKEY") {
		t.Fatalf("raw id not masked: %q", got)
	}
	if cmd := commandLine("", "prj_1", "eval cancel", nil, id); cmd.pastable() {
		t.Errorf("printed with the key-shaped word: %s", cmd)
	}
	if cmd := commandLine("", "prj_1", "eval cancel", nil, "\x01sk_12345678"); cmd.pastable() {
		t.Errorf("printed with the key-shaped word: %s", cmd)
	}

	const key = "odd'shaped-KEY-987654"
	t.Setenv("PROJECTOPS_API_KEY", key)
	for _, cmd := range []shellCommand{
		commandLine("", "prj_1", "eval cancel", nil, key),
		commandLine("", key, "eval cancel", nil, "run_1"),
		commandLine("", "prj_1", "eval run", []string{"--suite", "x" + key}),
	} {
		if cmd.pastable() || pasteCommand(cmd) != notPrinted {
			t.Errorf("printed with the API key: %s", cmd)
		}
	}
}

// An id that holds "sk_" inside a word is no key: its command is printed.
func TestPastableKeepsIDsHoldingSk(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	for _, id := range []string{"-task_20261128", "-disk_12345678", "run_task_20261128"} {
		cmd := commandLine("", "prj_1", "eval cancel", nil, id)
		if !cmd.pastable() || pasteCommand(cmd) != cmd.String() {
			t.Errorf("withheld: %s", cmd)
		}
	}
	if got, want := commandLine("", "prj_1", "eval cancel", nil, "-task_20261128").String(),
		"projectops eval cancel --project prj_1 -- -task_20261128"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
