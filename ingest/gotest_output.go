package ingest

// boundedOutput keeps the first head bytes and the last tail bytes written
// to it, counting what fell between.
type boundedOutput struct {
	head    []byte
	tail    []byte // ring of up to tailCap bytes once head is full
	pos     int    // next write position in tail once it is full
	full    bool
	dropped int
}

func (o *boundedOutput) write(p []byte, headCap, tailCap int) {
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

// String returns head, a marker for what was dropped, and the tail.
func (o *boundedOutput) String() string {
	if o.dropped == 0 && !o.full {
		return string(o.head) + string(o.tail)
	}
	b := make([]byte, 0, len(o.head)+len(o.tail)+64)
	b = append(b, o.head...)
	if o.dropped > 0 {
		b = append(b, "\n"+marker(o.dropped)+"\n"...)
	}
	b = append(b, o.tail[o.pos:]...)
	b = append(b, o.tail[:o.pos]...)
	return string(b)
}

func (o *boundedOutput) reset() {
	o.head, o.tail = o.head[:0], o.tail[:0]
	o.pos, o.full, o.dropped = 0, false, 0
}
