package wire

// ValueScrubber returns what replaces with marker, in text, each of values
// of minScrubbed bytes or more in every spelling SecretScrubber takes a
// long value out in: as written, percent- or JSON-escaped by any encoder
// (hex digits in either case, any mixture character by character) and
// under two layers of encoding; nil when no value is that long. A shorter
// value is left alone: it could be part of any word. Unlike
// SecretScrubber it applies no rule but the values (no credential field
// names, no URL's ?k=), for secrets known by value alone, such as the
// credential headers a client sends.
//
// It is a Scrubber's Scrub: each value's matches are found in the text
// as given, and their union is replaced, overlapping matches as one
// marker. Replacing one value before looking for the next would let a
// value found as written inside another's escaped spelling hide the rest
// of that spelling, whichever of the two is longer.
func ValueScrubber(marker string, values ...string) func(string) string {
	sc := NewScrubber(ScrubValues{Marker: marker, Rule: AnySpelling, Values: values})
	if sc == nil {
		return nil
	}
	return sc.Scrub
}
