// Package tunnelwire is the relay frame protocol shared by the SDK's tunnel
// host (package tunnels) and the double's relay (projectopstest). The
// protocol is documented for users in the tunnels package doc; this package
// only encodes and decodes it.
package tunnelwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/coder/websocket"
)

// Subprotocol is the WebSocket subprotocol the relay requires.
const Subprotocol = "mcpjam-tunnel.v1"

// Kind is a frame's type.
type Kind byte

// Frame kinds. Every frame travels as one binary WebSocket message:
// kind (1 byte), stream id (4 bytes, big endian), payload.
const (
	// Ready (relay → host, id 0): the session is registered; public
	// requests are routed to it from now on. The payload lists the
	// optional features the relay uses (FeatureBatch), empty for none.
	Ready Kind = 1
	// Request (relay → host): a Head with Method, URI and Header; the body
	// follows as Data frames and an End frame.
	Request Kind = 2
	// Response (host → relay): a Head with Status and Header; the body
	// follows as Data frames and an End frame (a relay drops Data that
	// comes before the head, and an End without one fails the request).
	Response Kind = 3
	// Data (both ways): a body chunk of at most MaxChunk bytes.
	Data Kind = 4
	// End (both ways): the body is complete; a non-empty payload is an error
	// text and means the body was cut short.
	End Kind = 5
	// Cancel (relay → host, no payload): the public caller went away.
	Cancel Kind = 6
)

// String implements fmt.Stringer.
func (k Kind) String() string {
	switch k {
	case Ready:
		return "ready"
	case Request:
		return "request"
	case Response:
		return "response"
	case Data:
		return "data"
	case End:
		return "end"
	case Cancel:
		return "cancel"
	case Batch:
		return "batch"
	}
	return fmt.Sprintf("kind(%d)", byte(k))
}

// Sizes.
const (
	// HeaderLen is the fixed frame header: kind and stream id.
	HeaderLen = 5
	// MaxChunk caps a Data frame's payload.
	MaxChunk = 32 << 10
	// MaxHead caps a Request or Response frame's JSON payload.
	MaxHead = 256 << 10
	// MaxMessage is the read limit both ends set on the WebSocket.
	MaxMessage = HeaderLen + MaxHead
	// MaxError caps an End frame's error text.
	MaxError = 1 << 10
	// QueueLen is how many chunks a stream buffers before its reader
	// waits for the consumer: at most QueueLen*MaxChunk bytes per stream.
	QueueLen = 16
)

// WebSocket close codes the relay uses; the host maps them to its errors.
const (
	// CloseRevoked: the grant was revoked or rotated (a new create).
	CloseRevoked websocket.StatusCode = 4001
	// CloseReplaced: a newer session of the same grant took over.
	CloseReplaced websocket.StatusCode = 4002
)

// Frame is one decoded frame.
type Frame struct {
	Kind    Kind
	ID      uint32
	Payload []byte
}

// Encode builds a frame alone, as a message of its own (Group.Append
// builds frames that go out together).
func Encode(k Kind, id uint32, payload []byte) []byte {
	return Group(nil).Append(k, id, payload)[HeaderLen+4:]
}

// EncodeEnd builds an End frame; err may be nil.
func EncodeEnd(id uint32, err error) []byte { return Encode(End, id, endPayload(err)) }

// endPayload is an End frame's payload: empty for a clean end, else the
// error's text, cut to MaxError.
func endPayload(err error) []byte {
	if err == nil {
		return nil
	}
	p := []byte(err.Error())
	if len(p) > MaxError {
		p = p[:MaxError]
	}
	if len(p) == 0 {
		p = []byte("error")
	}
	return p
}

// ErrMalformed reports a frame that breaks the protocol.
var ErrMalformed = errors.New("malformed tunnel frame")

// Decode parses a message. The payload aliases msg.
func Decode(msg []byte) (Frame, error) {
	if len(msg) < HeaderLen {
		return Frame{}, fmt.Errorf("%w: %d bytes", ErrMalformed, len(msg))
	}
	f := Frame{Kind: Kind(msg[0]), ID: binary.BigEndian.Uint32(msg[1:]), Payload: msg[HeaderLen:]}
	if f.Kind == Data && len(f.Payload) > MaxChunk {
		return Frame{}, fmt.Errorf("%w: data chunk of %d bytes", ErrMalformed, len(f.Payload))
	}
	return f, nil
}

// EndError turns an End payload into an error (nil for a clean end).
func EndError(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	return &RemoteError{Msg: string(p)}
}

// RemoteError is an error reported by the other end in an End frame.
type RemoteError struct{ Msg string }

// Error implements error.
func (e *RemoteError) Error() string { return "tunnel peer: " + e.Msg }

// hopHeaders are connection-level headers never relayed.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// Clean is CleanHeader without the copy when there is nothing to remove:
// it returns h itself then, so the result must not be modified.
func Clean(h http.Header) http.Header {
	if h == nil {
		return http.Header{}
	}
	for k := range h {
		if isHop(k) { // Connection is one
			return CleanHeader(h)
		}
	}
	return h
}

// CleanHeader returns a copy of h without hop-by-hop headers (including
// those named by Connection). Names match in any case: a header set in
// the map directly, or decoded from a peer, need not be canonical.
func CleanHeader(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	var named []string
	for k, vs := range out {
		if !strings.EqualFold(k, "Connection") {
			continue
		}
		for _, v := range vs {
			for name := range strings.SplitSeq(v, ",") {
				if name = strings.TrimSpace(name); name != "" {
					named = append(named, name)
				}
			}
		}
	}
	for k := range out {
		if isHop(k) || slices.ContainsFunc(named, func(n string) bool { return strings.EqualFold(n, k) }) {
			delete(out, k)
		}
	}
	return out
}

// isHop reports a hop-by-hop header name, in any case.
func isHop(k string) bool {
	for _, h := range hopHeaders {
		if len(h) == len(k) && strings.EqualFold(h, k) {
			return true
		}
	}
	return false
}
