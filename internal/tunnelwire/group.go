package tunnelwire

import (
	"encoding/binary"
	"fmt"
)

// Group is frames that go out together (a request or a response part),
// laid out as the payload of a Batch frame: each a 4-byte big-endian length
// and the frame. Its first HeaderLen bytes are room for the Batch frame's
// own header, so a Writer round of one group goes out as one message
// without a copy, and the frames of a request cost one allocation instead
// of one each. The zero Group is empty and ready to append to.
type Group []byte

// Reset empties g and keeps its buffer: a Group handed to Writer.Send is
// the caller's again once Send returns.
func (g Group) Reset() Group { return g[:min(len(g), HeaderLen)] }

// Empty reports whether g holds no frame.
func (g Group) Empty() bool { return len(g) <= HeaderLen }

// start reserves the batch header (for a zero Group) and the frame's length
// and header; the caller appends the payload and calls end.
func (g Group) start(k Kind, id uint32) (Group, int) {
	if len(g) < HeaderLen {
		g = append(g[:0], make([]byte, HeaderLen)...)
	}
	at := len(g)
	g = append(g, 0, 0, 0, 0, byte(k))
	return binary.BigEndian.AppendUint32(g, id), at
}

// end writes the length of the frame that starts at at.
func (g Group) end(at int) Group {
	binary.BigEndian.PutUint32(g[at:], uint32(len(g)-at-4))
	return g
}

// Append adds a frame.
func (g Group) Append(k Kind, id uint32, payload []byte) Group {
	g, at := g.start(k, id)
	return append(g, payload...).end(at)
}

// AppendHead adds a Request or Response frame; on error g is unchanged.
func (g Group) AppendHead(k Kind, id uint32, h *Head) (Group, error) {
	out, at := g.start(k, id)
	out = appendHead(out, h)
	if n := len(out) - at - 4 - HeaderLen; n > MaxHead {
		return g, fmt.Errorf("tunnel %s head of %d bytes exceeds %d", k, n, MaxHead)
	}
	return out.end(at), nil
}

// AppendEnd adds an End frame; err may be nil.
func (g Group) AppendEnd(id uint32, err error) Group {
	return g.Append(End, id, endPayload(err))
}

// entries calls fn with each frame's entry (length and frame) in order.
func (g Group) entries(fn func(entry []byte)) {
	for p := g[min(len(g), HeaderLen):]; len(p) >= 4; {
		n := 4 + int(binary.BigEndian.Uint32(p))
		fn(p[:n])
		p = p[n:]
	}
}
