package wire

// Spans appends to dst the stretches of s that Scrub replaces, in order,
// each s[sp[0]:sp[1]]: a caller that replaces only some of them (a JSON
// document's strings, not its names or numbers) finds them in one scan
// instead of scrubbing each part of s again.
func (sc *Scrubber) Spans(s string, dst [][2]int) [][2]int {
	if sc == nil {
		return dst
	}
	var buf [8]match // room for the common case without allocating
	ms, _ := sc.sortedMatches(s, buf[:0], false)
	for i := 0; i < len(ms); {
		from, to := ms[i].from, ms[i].to
		for i++; i < len(ms) && ms[i].from < to; i++ {
			to = max(to, ms[i].to)
		}
		dst = append(dst, [2]int{from, to})
	}
	return dst
}
