package wire

import "testing"

// Spans are the stretches Scrub replaces: overlapping matches of several
// values as one, escaped spellings included.
func TestScrubberSpans(t *testing.T) {
	sc := NewScrubber(ScrubValues{Marker: "[X]", Rule: AnySpelling, Values: []string{"abcdefgh", "efghijkl"}})
	s := `a abcdefghijkl b ab%63defgh c`
	var got string
	last := 0
	for _, sp := range sc.Spans(s, nil) {
		got += s[last:sp[0]] + "[X]"
		last = sp[1]
	}
	got += s[last:]
	if want := sc.Scrub(s); got != want || got != "a [X] b [X] c" {
		t.Errorf("spans give %q, Scrub %q", got, want)
	}
	if sp := (*Scrubber)(nil).Spans(s, nil); sp != nil {
		t.Errorf("nil scrubber: %v", sp)
	}
}
