package mcpconn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// messageLines reads a stdio server's stdout and passes on only its lines
// that are JSON-RPC messages go-sdk can decode, each ending in one "\n".
// The service's stdio client, StdioClientTransport of the TypeScript MCP
// SDK 2.0.0 (@modelcontextprotocol/client, the version its lock file
// pins), parses each line on its own with JSON.parse and the message
// schema: checked in the published 2.0.0 packages, its ReadBuffer skips a
// line JSON.parse refuses, and the transport reports one the schema
// refuses and reads on. So a server that prints a banner, or logs to
// stdout during a call, keeps working there. go-sdk's decoder would end
// the session on the first such line, so a line is judged by go-sdk's own
// jsonrpc.DecodeMessage before it is handed on: what it refuses (a log
// object tagged "jsonrpc":"2.0", a "JSONRPC" key its case-sensitive
// decoding does not read) is dropped, not fatal. Blanks after a message,
// which JSON.parse ignores and go-sdk's decoder reads as trailing data,
// are cut.
//
// A dropped line is logged by its length only: its content may be
// anything the server printed, secrets from its environment included. A
// line that cannot be a message (its first byte that is not blank is not
// '{'), or is blank, is discarded as it streams, whatever its length; a
// line that may be one is buffered while its JSON value (blanks around it
// and the line end not counted) is at most limit bytes, past which reading
// fails, as go-sdk's own frame bound does.
type messageLines struct {
	r     *bufio.Reader
	limit int
	log   *slog.Logger
	line  []byte // the line being read, reused
	out   []byte // what is left to hand out of the last message
	err   error  // what ended reading, returned once out is drained
}

// messageLineBuffer is the read buffer: a chunk of a line, not a bound.
const messageLineBuffer = 64 << 10

// keptLineCap is the largest line buffer kept between lines: a session
// that once read a huge message does not hold its size for life.
const keptLineCap = 1 << 20

// errLineTooLong: a stdout line that may be a message passed the limit.
var errLineTooLong = errors.New("mcpconn: stdio server wrote a line longer than the message size limit")

func newMessageLines(r io.Reader, limit int, log *slog.Logger) *messageLines {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &messageLines{r: bufio.NewReaderSize(r, messageLineBuffer), limit: limit, log: log}
}

// Read implements io.Reader: the kept messages, one after another, then
// the error that ended reading.
func (m *messageLines) Read(p []byte) (int, error) {
	for len(m.out) == 0 {
		if m.err != nil {
			return 0, m.err
		}
		m.out, m.err = m.next()
	}
	n := copy(p, m.out)
	m.out = m.out[n:]
	return n, nil
}

// Close does nothing: the pipe is the process's, closed by its Wait.
func (m *messageLines) Close() error { return nil }

// next reads one line and returns it when it is a message, nil when it was
// dropped, with the error that ended reading, if any.
//
// Only the JSON value is kept and counted against the limit, as go-sdk's
// frame bound counts it: leading blanks are skipped as they stream, and
// blanks after the last byte that is not blank are kept only up to the
// limit, so a line of blanks, or a message followed by a long blank run,
// is bounded without being refused. Leading blanks are also left out of
// what is handed on, since go-sdk would count them against the same limit.
func (m *messageLines) next() ([]byte, error) {
	if cap(m.line) > keptLineCap {
		m.line = nil
	}
	m.line = m.line[:0]
	size, keep := 0, true
	end := 0 // the kept line's length without trailing blanks
	for {
		chunk, err := m.r.ReadSlice('\n')
		size += len(chunk)
		if keep && len(m.line) == 0 {
			chunk = bytes.TrimLeft(chunk, jsonSpace)
			keep = len(chunk) == 0 || chunk[0] == '{'
		}
		if keep && len(chunk) > 0 {
			if n := len(bytes.TrimRight(chunk, jsonSpace)); n > 0 {
				end = len(m.line) + n
			}
			if end > m.limit {
				return nil, errLineTooLong
			}
			// What passes the limit is blanks, which cannot be part of a
			// message that fits: one more byte that is not blank fails
			// the line, and without one they are cut below.
			m.line = append(m.line, chunk[:min(len(chunk), m.limit-len(m.line))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if size == 0 {
			return nil, err
		}
		// A last line without a newline is judged as it is: go-sdk's
		// decoder takes a message the stream's end closes.
		if keep && isMessage(m.line[:end]) {
			m.line = append(m.line[:end], '\n')
			return m.line, err
		}
		if !keep || end > 0 {
			m.log.LogAttrs(context.Background(), slog.LevelDebug,
				"projectopstest mcp stdio: dropped a stdout line that is not a JSON-RPC message",
				slog.Int("bytes", size))
		}
		return nil, err
	}
}

// jsonSpace is JSON's whitespace, which JSON.parse skips around a value.
const jsonSpace = " \t\r\n"

// isMessage reports whether line is one JSON value (blanks around it
// aside) that go-sdk decodes as a JSON-RPC message. json.Valid comes
// first because DecodeMessage reads the first value only and would pass
// text after it, which go-sdk's stream decoder then rejects.
func isMessage(line []byte) bool {
	if !json.Valid(line) {
		return false
	}
	_, err := jsonrpc.DecodeMessage(line)
	return err == nil
}
