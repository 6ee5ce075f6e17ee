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

// A cell reads its input only as far as the cut: a row keeps n runes of
// a tool call's output however large it is, without a piece per rune of
// the whole of it.
func TestCellStopsAtTheCut(t *testing.T) {
	big := strings.Repeat("a b\t", 1<<18)
	var got string
	allocs := testing.AllocsPerRun(5, func() { got = cell(big, 10) })
	if want := `a b\ta b…`; got != want {
		t.Errorf("cell = %q, want %q", got, want)
	}
	if allocs > 4 {
		t.Errorf("cell of a 1 MiB string cut at 10 runes made %.0f allocations; want it to stop at the cut", allocs)
	}
	// Spaces that collapse into the last one kept are no more text.
	if got, want := cell("abcd     ", 5), "abcd "; got != want {
		t.Errorf("cell = %q, want %q", got, want)
	}
}
