package wire

import (
	"iter"
	"math/bits"
)

// endSet is a set of the positions where one character's spelling may
// end, each held as its offset from where the spelling starts: adding one
// is a single OR, however many ways lead to it. A spelling runs at most
// 72 bytes (encodedValue.reach): a rune past U+FFFF takes 12 as
// %XX%XX%XX%XX or a \uXXXX\uXXXX pair, and under two layers each of
// those bytes may be a 6-byte \u00XX.
type endSet [2]uint64

func (e *endSet) add(off int) { e[off>>6] |= 1 << (off & 63) }

func (e *endSet) union(o endSet) {
	e[0] |= o[0]
	e[1] |= o[1]
}

// all yields the set's offsets in increasing order.
func (e endSet) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		for w, word := range e {
			for ; word != 0; word &= word - 1 {
				if !yield(w<<6 | bits.TrailingZeros64(word)) {
					return
				}
			}
		}
	}
}
