// Package tunnels exposes a local MCP server through a relay tunnel: Create
// registers (or repoints) a project server and returns a Grant, Serve hosts
// the tunnel by answering the requests that reach the grant's public URL
// with an http.Handler (ProxyTo forwards them to a local URL), and Close
// revokes it. The saved server's url is the public URL, so validate, tools,
// calls and evals target a local server like any remote one.
//
// # Secrets
//
// A Grant is a credential: its URL carries the tunnel secret in the ?k=
// query parameter and ConnectToken authenticates the relay connection.
// Printing a Grant (fmt, %v, %+v, %#v, slog) redacts both; PublicURL and
// RedactURL give a printable URL. Every Create rotates the secret and
// revokes the previous grant (its live session is disconnected), which is
// why Create is never retried once the request may have reached the
// service (a 429 is, as for any write).
//
// # Lifecycle
//
// Serve reconnects with jittered exponential backoff after network drops
// and stops with ErrRevoked when the grant is revoked (Close) or rotated (a
// newer Create), ErrTokenRejected when the relay refuses the connect token
// (it expires; an established session is not cut), and ErrReplaced when
// another host connects with the same grant. While no host is connected the
// public URL fails fast with 502 SERVER_UNREACHABLE; a wrong, old or
// missing secret and a revoked tunnel all answer 404 NOT_FOUND (the double
// does; the hosted edge may differ in status but never says which).
//
// # Relay protocol
//
// The host dials the grant's RelayWSURL as a WebSocket with subprotocol
// "mcpjam-tunnel.v1" and "Authorization: Bearer <ConnectToken>". Every
// frame is one binary message (or part of a batch): a 1-byte kind, a
// 4-byte big-endian stream id, then the payload.
//
//	1 ready    relay → host  id 0, payload the optional features the relay
//	                         uses (see below): the session is routed to
//	2 request  relay → host  JSON {method, uri, header}; uri is the path
//	                         after the tunnel's prefix ("/mcp" for the public
//	                         URL) plus the query without k, read as an
//	                         HTTP request line's origin-form ("" is "/");
//	                         header names may come in any case
//	3 response host → relay  JSON {status, header}
//	4 data     both ways     a body chunk, at most 32 KiB
//	5 end      both ways     the body is complete; a non-empty payload is an
//	                         error text and means the body was cut short
//	6 cancel   relay → host  the public caller went away
//	7 batch    both ways     id 0: several frames in one message, each a
//	                         4-byte big-endian length and the frame
//	8 credit   both ways     the receiver consumed N of the stream's data
//	                         frames (N as 4 bytes big-endian): the sender
//	                         may send N more
//
// Batches and credit are optional: the host offers them with the dial
// header "X-Tunnel-Features: batch,credit", and the relay lists those it
// will use as its ready frame's payload ("batch,credit"). Without batches
// every frame is its own message. A request (head, body, end) or a response part
// written at once then travels as one message, and frames of concurrent
// streams written at the same moment share one.
//
// Streams are multiplexed by id: a request is a request frame, data frames
// and an end frame; its response is a response frame, data frames and an
// end frame. Responses stream (the host sends the head at its first Flush
// and each chunk as written, so SSE and MCP's long-lived GET stream work);
// the relay reads a request body (at most 4 MiB) before relaying it.
// Frames are capped (request and response heads 256 KiB, data 32 KiB).
// With credit, a sender has at most 8 data frames of a stream
// unacknowledged and then waits for credit, so a receiver holds at most
// 256 KiB of any stream and its reader never waits: a handler that does
// not read its body, or a public caller that stops reading, holds up its
// own stream only. Without credit, each side queues at most 16 chunks per
// stream and its reader waits beyond that (for every stream). No body is
// buffered whole. Headers are relayed end to end without
// hop-by-hop headers; the relay adds X-Forwarded-Host and X-Forwarded-For,
// and redacts the secret in a Referer naming the public URL (the host
// never sees k). A bare public URL, /tunnels/{slug}?k=..., reaches the
// host as "/" (which ProxyTo answers 404).
// Heads travel as JSON, so header bytes that are not UTF-8 (HTTP's
// obs-text) arrive as U+FFFD, and the protocol has no frame for trailers:
// a response's trailers are not relayed.
// The relay closes a session with WebSocket status 4001 when the grant is
// revoked or rotated and 4002 when a newer session replaces it.
package tunnels
