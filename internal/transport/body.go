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
// in-process transport answers: TakeBytes hands over what is unread, without
// a copy, and leaves the body at its end.
type heldBody interface{ TakeBytes() []byte }

// readSized reads a body of declared length n (within the client's cap)
// as one buffer of n bytes, with at most one copy: the first
// min(n, sizedFirstRead) bytes, then, once they arrived, the rest into a
// buffer of n they are copied to. io.ReadAll's doubling would allocate about
// twice the body, and a buffer of n up front would let a lying
// Content-Length (32 MiB declared, 10 bytes sent) allocate it all. A
// held body is taken without a copy when alias allows it: the decoder
// copies what it keeps, so nothing aliases a held body's bytes after the
// call, while a body handed to the caller (WithResponseInto) must be its
// own. A body shorter than n is io.ErrUnexpectedEOF (io.EOF when empty),
// as io.ReadFull reports it; bytes past n are left unread.
func readSized(body io.Reader, n int64, alias bool) ([]byte, error) {
	if h, ok := body.(heldBody); ok && alias {
		switch b := h.TakeBytes(); {
		case len(b) == 0: // as io.ReadFull reports these
			return nil, io.EOF
		case int64(len(b)) < n:
			return nil, io.ErrUnexpectedEOF
		default:
			return b[:n], nil
		}
	}
	b := make([]byte, min(n, sizedFirstRead))
	if _, err := io.ReadFull(body, b); err != nil {
		return nil, err
	}
	if first := len(b); int64(first) < n {
		// Not slices.Grow: its append of a fresh slice allocates that
		// slice too when the compiler does not elide it (under -race).
		whole := make([]byte, n)
		copy(whole, b)
		b = whole
		if _, err := io.ReadFull(body, b[first:]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // the first part came: the body is cut
			}
			return nil, err
		}
	}
	return b, nil
}

// sizedFirstRead is how much of a body of declared length readSized
// allocates before any of it arrived.
const sizedFirstRead = 1 << 20
