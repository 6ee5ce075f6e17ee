package mcpconn

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxRawMessage bounds the bytes kept to capture one result from an HTTP
// response; a larger message is passed on without being captured (the
// double then answers from go-sdk's decoding).
const maxRawMessage = 32 << 20

// tapRaw arranges for the result in a streamable HTTP response to reach
// the Raw of the request's context. A POST carries one JSON-RPC request,
// and its response is either that request's answer as a JSON body or an
// SSE stream on which the answer comes (after any notifications or
// requests of the server's). The body is observed as go-sdk reads it, so
// the result is kept before the call returns.
func tapRaw(r *http.Request, resp *http.Response) {
	raw := rawFrom(r.Context())
	if raw == nil || r.Method != http.MethodPost || resp.StatusCode != http.StatusOK || resp.Body == nil {
		return
	}
	if raw.method != "" && raw.method != requestMethod(r) {
		return
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		resp.Body = &jsonTap{ReadCloser: resp.Body, raw: raw}
	case "text/event-stream":
		resp.Body = &sseTap{ReadCloser: resp.Body, raw: raw}
	}
}

// requestMethod is the JSON-RPC method of the request r posts ("" if it
// cannot be read again).
func requestMethod(r *http.Request) string {
	if r.GetBody == nil {
		return ""
	}
	body, err := r.GetBody()
	if err != nil {
		return ""
	}
	defer body.Close()
	var req struct {
		Method string `json:"method"`
	}
	if json.NewDecoder(io.LimitReader(body, maxRawMessage)).Decode(&req) != nil {
		return ""
	}
	return req.Method
}

// keepMessage decodes one JSON-RPC message and keeps its result.
func keepMessage(raw *Raw, data []byte) {
	if msg, err := jsonrpc.DecodeMessage(data); err == nil {
		raw.keep(msg)
	}
}

// jsonTap collects a JSON body and captures its result when the body has
// been read to its end.
type jsonTap struct {
	io.ReadCloser
	raw  *Raw
	buf  []byte
	done bool // captured, or given up (too large)
}

func (t *jsonTap) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if !t.done {
		if len(t.buf)+n > maxRawMessage {
			t.done, t.buf = true, nil
		} else {
			t.buf = append(t.buf, p[:n]...)
		}
		if err == io.EOF && !t.done {
			t.done = true
			keepMessage(t.raw, t.buf)
			t.buf = nil
		}
	}
	return n, err
}

// sseTap parses the SSE stream as it passes (data lines of each event,
// joined by newlines, dispatched at the blank line that ends it) and
// captures the result of the response event.
type sseTap struct {
	io.ReadCloser
	raw       *Raw
	line      []byte // the current line so far
	data      []byte // the current event's data
	hasData   bool
	lineOver  bool // the current line is too large: it is dropped
	eventOver bool // the current event is too large: skipped to its end
}

func (t *sseTap) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.feed(p[:n])
	return n, err
}

func (t *sseTap) feed(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			t.appendLine(b)
			return
		}
		t.appendLine(b[:i])
		t.endLine()
		b = b[i+1:]
	}
}

func (t *sseTap) appendLine(b []byte) {
	if t.lineOver || len(t.line)+len(b) > maxRawMessage {
		t.lineOver, t.line = true, nil
		return
	}
	t.line = append(t.line, b...)
}

func (t *sseTap) endLine() {
	line := bytes.TrimSuffix(t.line, []byte("\r"))
	t.line = t.line[:0]
	switch {
	case t.lineOver:
		t.lineOver, t.eventOver = false, true
	case len(line) == 0: // the event ends
		if t.hasData && !t.eventOver {
			keepMessage(t.raw, t.data)
		}
		t.data, t.hasData, t.eventOver = t.data[:0], false, false
	case t.eventOver:
	case bytes.HasPrefix(line, []byte("data:")):
		v := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
		if t.hasData {
			t.data = append(t.data, '\n')
		}
		if len(t.data)+len(v) > maxRawMessage {
			t.eventOver, t.data = true, nil
			return
		}
		t.data, t.hasData = append(t.data, v...), true
	}
}
