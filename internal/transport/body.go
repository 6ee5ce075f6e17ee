package transport

import "io"

// Reading a success body.

// blank reports whether b is only JSON white space (or empty).
func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// heldBody is a response body already whole in memory, as the double's
// in-process transport answers: TakeBytes hands over what is unread,
// without a copy, and leaves the body at its end. The bytes are handed
// over: the body keeps no reference to them (the double's are the
// response's own buffer), so they may be decoded where they lie and given
// to the caller (WithResponseInto) as they are.
type heldBody interface{ TakeBytes() []byte }

// readSized reads a body of declared length n (0 < n <= limit, the
// client's cap) as one buffer of n bytes, with at most one copy: the
// first min(n, sizedFirstRead) bytes, then, once they arrived, the rest
// into a buffer of n they are copied to. io.ReadAll's doubling would
// allocate about twice the body, and a buffer of n up front would let a
// lying Content-Length (32 MiB declared, 10 bytes sent) allocate it all.
// A held body is taken without a copy. A body shorter than n is
// io.ErrUnexpectedEOF (io.EOF when empty), as io.ReadFull reports it. A
// body longer than n (a RoundTripper that decoded gzip but left the
// compressed length) is read on to its end under the cap (errOverCap past
// it), as a body of unknown length is, so data after the JSON value is
// the same decoding error whatever the framing, never silently dropped.
func readSized(body io.Reader, n, limit int64) ([]byte, error) {
	if h, ok := body.(heldBody); ok {
		switch b := h.TakeBytes(); {
		case len(b) == 0: // as io.ReadFull reports these
			return nil, io.EOF
		case int64(len(b)) < n:
			return nil, io.ErrUnexpectedEOF
		case int64(len(b)) > limit:
			return nil, errOverCap
		default:
			return b, nil
		}
	}
	// One byte of spare capacity past n, for the read that tells whether
	// the body ends there: a byte array of its own would escape to the
	// heap through the interface call, an allocation on every call.
	first := min(n, sizedFirstRead)
	b := make([]byte, first, first+1)
	if _, err := io.ReadFull(body, b); err != nil {
		return nil, err
	}
	if first < n {
		// Not slices.Grow: its append of a fresh slice allocates that
		// slice too when the compiler does not elide it (under -race).
		whole := make([]byte, n, n+1)
		copy(whole, b)
		b = whole
		if _, err := io.ReadFull(body, b[first:]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // the first part came: the body is cut
			}
			return nil, err
		}
	}
	return readPast(body, b, limit)
}

// readPast is b, the declared n bytes of body read, with whatever body
// holds after them (under the cap): nearly always nothing, which one read
// into b's spare byte tells.
func readPast(body io.Reader, b []byte, limit int64) ([]byte, error) {
	n := int64(len(b))
	got, err := io.ReadFull(body, b[n:n+1])
	switch {
	case got == 0 && (err == io.EOF || err == io.ErrUnexpectedEOF):
		return b, nil // the body ends where it said it would
	case got == 0:
		return nil, err
	case n+1 > limit:
		return nil, errOverCap
	}
	rest, err := io.ReadAll(&cappedReader{r: body, left: limit - n - 1})
	if err != nil {
		return nil, err
	}
	return append(b[:n+1], rest...), nil
}

// sizedFirstRead is how much of a body of declared length readSized
// allocates before any of it arrived.
const sizedFirstRead = 1 << 20
