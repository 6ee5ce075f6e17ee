package tunnelwire

import (
	"bytes"
	"context"

	"github.com/coder/websocket"
)

// Reader reads a session's WebSocket messages into one buffer that it
// reuses: a session reads several small messages per request, and the fresh,
// regrown buffer websocket.Conn.Read makes for each was a tenth of what a
// relayed request allocates. A message, and the payloads of the chunks
// decoded from it, alias the buffer until the next Read: a payload that
// outlives its message is copied.
type Reader struct {
	conn *websocket.Conn
	buf  bytes.Buffer
}

// NewReader returns a Reader on conn. Only one goroutine may read.
func NewReader(conn *websocket.Conn) *Reader { return &Reader{conn: conn} }

// Read returns the next message. Reads carry no context: a session ends a
// blocked read by closing the connection, since a read whose context ends
// tears the connection down without a close handshake.
func (r *Reader) Read() (websocket.MessageType, []byte, error) {
	typ, mr, err := r.conn.Reader(context.Background())
	if err != nil {
		return 0, nil, err
	}
	r.buf.Reset()
	if _, err := r.buf.ReadFrom(mr); err != nil {
		return 0, nil, err
	}
	return typ, r.buf.Bytes(), nil
}
