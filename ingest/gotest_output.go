package ingest

// boundedOutput keeps the first head bytes and the last tail bytes written
// to it, each with cutMargin more for the redaction that precedes a cut
// (see cutText), counting what fell between.
type boundedOutput struct {
	head    []byte
	tail    []byte // ring of up to tailCap+cutMargin bytes once head is full
	pos     int    // next write position in tail once it is full
	full    bool
	dropped int
	// headCap and tailCap are the last write's: what text keeps.
	headCap, tailCap int
}

func (o *boundedOutput) write(p []byte, headCap, tailCap int) {
	o.headCap, o.tailCap = headCap, tailCap
	headCap += cutMargin
	if tailCap > 0 {
		tailCap += cutMargin
	}
	if n := headCap - len(o.head); n > 0 {
		if n > len(p) {
			n = len(p)
		}
		o.head = append(o.head, p[:n]...)
		p = p[n:]
	}
	if len(p) == 0 || tailCap <= 0 {
		o.dropped += len(p)
		return
	}
	if len(p) >= tailCap {
		// The write alone fills the tail: keep its end.
		o.dropped += o.tailLen() + len(p) - tailCap
		o.tail = append(o.tail[:0], p[len(p)-tailCap:]...)
		o.pos, o.full = 0, true
		return
	}
	if !o.full {
		if room := tailCap - len(o.tail); len(p) <= room {
			o.tail = append(o.tail, p...)
			return
		}
		o.tail = append(o.tail, make([]byte, tailCap-len(o.tail))...)[:len(o.tail)]
		room := tailCap - len(o.tail)
		o.tail = append(o.tail, p[:room]...)
		p = p[room:]
		o.full, o.pos = true, 0
	}
	for len(p) > 0 {
		n := copy(o.tail[o.pos:], p)
		o.dropped += n
		p = p[n:]
		o.pos = (o.pos + n) % tailCap
	}
}

func (o *boundedOutput) tailLen() int { return len(o.tail) }

// text returns the output, or when it is longer than the head and tail
// kept, its head, a marker for what was dropped, and its tail, redacted
// by rd before the cut (see cutText).
func (o *boundedOutput) text(rd redactor) string {
	n := len(o.head) + len(o.tail) + o.dropped
	if n <= o.headCap+max(o.tailCap, 0) { // the common case: nothing to cut
		return string(o.head) + string(o.tail)
	}
	tail := string(o.tail[o.pos:]) + string(o.tail[:o.pos])
	return rd.cutText(string(o.head), tail, n, o.headCap, o.tailCap, "\n")
}

func (o *boundedOutput) reset() {
	o.head, o.tail = o.head[:0], o.tail[:0]
	o.pos, o.full, o.dropped = 0, false, 0
}
