package tunnelwire

import (
	"encoding/binary"
	"net/http"
)

// Batch is messages that go out together (a request, or a response part),
// each a type byte (1 text, 2 binary, WebSocket's opcodes), a 4-byte
// big-endian length and the message. A Writer writes a round of batches in
// one write on the connection, so the messages of a request cost one
// allocation and one system call between them. The zero Batch is empty and
// ready to append to; Reset keeps its buffer.
type Batch []byte

const (
	textMsg   = 1
	binaryMsg = 2
)

// Reset empties g and keeps its buffer: a Batch handed to Writer.Send is
// the caller's again once Send returns.
func (g Batch) Reset() Batch { return g[:0] }

// Empty reports whether g holds no message.
func (g Batch) Empty() bool { return len(g) == 0 }

func (g Batch) begin(typ byte) (Batch, int) {
	g = append(g, typ, 0, 0, 0, 0)
	return g, len(g)
}

func (g Batch) end(at int) Batch {
	binary.BigEndian.PutUint32(g[at-4:], uint32(len(g)-at))
	return g
}

// Hello adds a hello message.
func (g Batch) Hello(slug string, l Limits) Batch {
	g, at := g.begin(textMsg)
	return Batch(AppendHello(g, slug, l)).end(at)
}

// Req adds a req message (see AppendReq).
func (g Batch) Req(id uint32, method, url string, h http.Header, hasBody, lower bool) Batch {
	g, at := g.begin(textMsg)
	return Batch(AppendReq(g, id, method, url, h, hasBody, lower)).end(at)
}

// Res adds a res message.
func (g Batch) Res(id uint32, status int, h http.Header) Batch {
	g, at := g.begin(textMsg)
	return Batch(AppendRes(g, id, status, h)).end(at)
}

// End adds a req_end or res_end message (t says which).
func (g Batch) End(t string, id uint32) Batch {
	g, at := g.begin(textMsg)
	return Batch(AppendEnd(g, t, id)).end(at)
}

// Abort adds an abort message.
func (g Batch) Abort(id uint32, code, msg string) Batch {
	g, at := g.begin(textMsg)
	return Batch(AppendAbort(g, id, code, msg)).end(at)
}

// Chunk adds a binary chunk message.
func (g Batch) Chunk(kind byte, id uint32, payload []byte) Batch {
	g, at := g.begin(binaryMsg)
	return Batch(AppendChunk(g, kind, id, payload)).end(at)
}

// Len reports how many bytes of messages g holds (framing included).
func (g Batch) Len() int { return len(g) }

// messages calls fn with each message in order.
func (g Batch) messages(fn func(text bool, msg []byte)) {
	for p := []byte(g); len(p) >= 5; {
		n := int(binary.BigEndian.Uint32(p[1:]))
		fn(p[0] == textMsg, p[5:5+n])
		p = p[5+n:]
	}
}
