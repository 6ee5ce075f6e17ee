package wire

// UTF16Len is the length of s in UTF-16 code units, as JavaScript counts a
// string: the service's schemas limit string lengths so.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n++
		}
		n++
	}
	return n
}
