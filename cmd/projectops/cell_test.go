package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A cell keeps \n and \t escapes but not indentation: pretty-printed
// tool output and multi-line build errors spend its budget on words.
func TestCellCollapsesSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"{\n    \"a\": 1,\n    \"b\": 2\n}":   `{\n "a": 1,\n "b": 2\n}`,
		"step 3 failed:\n\tgo build    ./...": `step 3 failed:\n\tgo build ./...`,
		"a\tb":                                `a\tb`,
	} {
		if got := cell(in, 100); got != want {
			t.Errorf("cell(%q) = %q, want %q", in, got, want)
		}
	}
}

// A cut never splits an escape: the cell ends with whole escapes and the
// ellipsis, within n runes.
func TestCellCutKeepsEscapesWhole(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{strings.Repeat("a", 98) + "\x1bbbb", strings.Repeat("a", 98) + "…"},
		{strings.Repeat("a", 97) + "\nbbb", strings.Repeat("a", 97) + `\n` + "…"},
		{strings.Repeat("a", 100), strings.Repeat("a", 100)},
		{strings.Repeat("a", 101), strings.Repeat("a", 99) + "…"},
	} {
		got := cell(tc.in, 100)
		if got != tc.want || utf8.RuneCountInString(got) > 100 {
			t.Errorf("cell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
