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

// readSized reads a body of known length n in one exact allocation, or
// none for a held body (the decoder copies what it keeps, so nothing
// aliases a held body's bytes after the call).
func readSized(body io.Reader, n int64) ([]byte, error) {
	if h, ok := body.(heldBody); ok {
		switch b := h.TakeBytes(); {
		case len(b) == 0: // as io.ReadFull reports these
			return nil, io.EOF
		case int64(len(b)) < n:
			return nil, io.ErrUnexpectedEOF
		default:
			return b[:n], nil
		}
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(body, b); err != nil {
		return nil, err
	}
	return b, nil
}
