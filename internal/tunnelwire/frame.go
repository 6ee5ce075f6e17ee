// Package tunnelwire is the hosted relay's tunnel protocol,
// "mcpjam-tunnel.v1", shared by the SDK's tunnel host (package tunnels)
// and the double's relay edge (projectopstest). The protocol is the
// service's own (its CLI and inspector speak it as the agent side); the
// tunnels package doc describes it for users. This package only encodes and
// decodes it, and writes many messages with one write.
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

// Proto is the protocol version a hello announces.
const Proto = 1

// Binary messages carry body chunks: a kind byte, the stream id (4 bytes,
// big endian), the payload.
const (
	// ReqChunk (edge → agent) is a piece of a request body.
	ReqChunk byte = 0x01
	// ResChunk (agent → edge) is a piece of a response body.
	ResChunk byte = 0x02
	// HeaderLen is a binary message's fixed header: kind and stream id.
	HeaderLen = 5
)

// WebSocket close codes the edge uses; the host maps them to its errors.
const (
	// CloseBadToken: the connect token is invalid or expired.
	CloseBadToken websocket.StatusCode = 4000
	// CloseReplaced: a newer session of the same tunnel took over.
	CloseReplaced websocket.StatusCode = 4001
	// CloseRevoked: the control plane closed the tunnel (revoked, or its
	// secret rotated by a new create).
	CloseRevoked websocket.StatusCode = 4002
	// CloseEdgeRestart: the edge is restarting; reconnect at once.
	CloseEdgeRestart = websocket.StatusServiceRestart
)

// Limits are the edge's, announced in its hello.
type Limits struct {
	// MaxReqBody caps a relayed request body, in bytes.
	MaxReqBody int64 `json:"maxReqBody"`
	// Chunk caps a body chunk's payload, in bytes.
	Chunk int `json:"chunk"`
	// MaxInflight caps the requests in flight on one session.
	MaxInflight int `json:"maxInflight"`
}

// DefaultLimits are the limits the service's edge announces; a host uses
// them for any the hello leaves out.
var DefaultLimits = Limits{MaxReqBody: 10 << 20, Chunk: 64 << 10, MaxInflight: 32}

// OrDefault fills the limits l leaves out (zero or negative) from
// DefaultLimits.
func (l Limits) OrDefault() Limits {
	if l.MaxReqBody <= 0 {
		l.MaxReqBody = DefaultLimits.MaxReqBody
	}
	if l.Chunk <= 0 {
		l.Chunk = DefaultLimits.Chunk
	}
	if l.MaxInflight <= 0 {
		l.MaxInflight = DefaultLimits.MaxInflight
	}
	return l
}

// Sizes.
const (
	// MaxChunk caps a chunk this package accepts, whatever a hello says.
	MaxChunk = 1 << 20
	// MaxControl caps a control message (its headers, mostly).
	MaxControl = 1 << 20
	// MaxMessage is the read limit both ends set on the WebSocket.
	MaxMessage = HeaderLen + MaxChunk
	// QueueLen is how many chunks a stream buffers before its reader
	// waits for the consumer.
	QueueLen = 16
	// MaxAbortMsg caps an abort's message.
	MaxAbortMsg = 1 << 10
)

// ErrMalformed reports a message that breaks the protocol.
var ErrMalformed = errors.New("malformed tunnel message")

// Chunk is a decoded binary message.
type Chunk struct {
	Kind    byte
	ID      uint32
	Payload []byte // aliases the message
}

// DecodeChunk parses a binary message.
func DecodeChunk(msg []byte) (Chunk, error) {
	if len(msg) < HeaderLen {
		return Chunk{}, fmt.Errorf("%w: binary message of %d bytes", ErrMalformed, len(msg))
	}
	return Chunk{Kind: msg[0], ID: binary.BigEndian.Uint32(msg[1:]), Payload: msg[HeaderLen:]}, nil
}

// AppendChunk appends a binary message's bytes to b.
func AppendChunk(b []byte, kind byte, id uint32, payload []byte) []byte {
	b = binary.BigEndian.AppendUint32(append(b, kind), id)
	return append(b, payload...)
}

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
