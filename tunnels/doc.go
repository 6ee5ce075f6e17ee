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
// Serve reconnects with jittered exponential backoff after network drops;
// the backoff starts over only after a healthy session (one that lasted a
// second or relayed a request), so an edge that drops every session right
// after its hello is redialled with growing waits. Once a session has been
// routed to, by default it never gives up, as the service's agent redials a
// dropped tunnel for as long as it runs; before that, it gives up when no
// session has come up in DefaultFirstConnectFor (five minutes: a wrong or
// unreachable relay, or one that never says hello), saying how long it
// tried, with the last cause. It retries until that window is spent (a
// wait is cut short to end with it), so it returns after the window, by up
// to one attempt (at most the connect timeout). WithReconnect's giveUp
// changes that: positive, a window for every run of failed attempts, before
// and after the first session; negative, no window at all (a daemon started
// while the network is down waits for it). A run counts only attempts that
// fail before a hello, and renewals of the grant that fail (an edge that
// drops every session is retried), and starts over with the first redial
// after a session routed to. Each attempt, the first dial and every
// reconnect, must be routed to (the edge's hello) within
// DefaultConnectTimeout (15 s; WithConnectTimeout) of its dial, upgrade
// included, or it fails like a dropped dial (ErrConnectTimeout) and is
// retried. The 15 s are the service's agent's, which times its first
// connect as a whole (retried dials included) and then gives up, and its
// redials after a drop not at all: bounding each attempt is this package's
// choice, so a relay that stalls a redial cannot hold the tunnel down. The
// connect token expires an hour after Create (an established session is not
// cut): when the relay refuses it on a reconnect (close 4000), Serve reads
// the project's servers and, when the token has expired on the service's
// clock (a minute before ConnectTokenExpiresAt or later, by the listing's
// Date), the grant's server still has its name and its url is still the
// grant's (no other Create has rotated it), creates the tunnel again for
// that server, as the service's agent does, which rotates the secret
// (OnGrant tells the new grant), at most DefaultRenewals times within
// RenewalResetAfter of each other (WithRenewals). A tunnel closed through
// the API keeps its url, so one closed while its host was offline past its
// token's expiry is renewed (revived). Once the tunnel has been up, an
// upgrade the edge refuses with a 4xx (401 and 403 too) is retried like a
// drop; before that it ends Serve (a wrong relay URL fails fast). Serve
// stops with ErrRevoked when the grant is revoked (Close) or rotated (a
// newer Create), ErrTokenRejected when the relay refuses the connect token
// on the first dial, after the tunnel was taken over (its url rotated) or
// closed before the token expired while the host was offline, or past the
// renewals, and ErrReplaced when another host connects with the same grant.
// While no host is connected the public URL fails fast with 502
// SERVER_UNREACHABLE; a wrong, old or missing secret and a revoked tunnel
// all answer 404 NOT_FOUND (the double does; the hosted edge may differ in
// status but never says which).
//
// # Relay protocol
//
// Serve speaks the service's own relay protocol, "mcpjam-tunnel.v1", as
// the service's CLI agent does, so a host built on this package works
// against the hosted edge and against projectopstest alike. The host
// dials the grant's RelayWSURL as a WebSocket with that subprotocol and
// "Authorization: Bearer <ConnectToken>". Control messages are JSON text
// messages with a "t" member; body chunks are binary messages: a kind
// byte (1 a request chunk, 2 a response chunk), the stream id (4 bytes,
// big endian), the bytes.
//
//	hello    edge → host  {"t":"hello","proto":1,"slug",
//	                      "limits":{"maxReqBody","chunk","maxInflight"}}:
//	                      the session is routed to; only the first one's
//	                      limits count (a later one is ignored, so they
//	                      never change mid-session; the service's agent
//	                      reads none)
//	req      edge → host  {"t":"req","id","method","url","headers":[[name,
//	                      value],...],"hasBody"}; url is the public path and
//	                      query as the caller sent them (?k= included);
//	                      with hasBody, request chunks and "req_end" follow
//	res      host → edge  {"t":"res","id","status","headers"}; response
//	                      chunks and "res_end" follow
//	abort    both ways    {"t":"abort","id","code","msg"?}: the stream is
//	                      over, cut short; codes timeout, too_large,
//	                      client_gone, upstream_error, overloaded
//
// The edge forwards every request of a tunnel under
// /api/mcp/adapter-http/{serverId}, the path of the public URL. The host
// serves only that path (anything else answers 404 without reaching the
// handler), and the handler sees it as PublicPath ("/mcp", plus the
// caller's sub-path) with the query minus k and minus any parameter that
// carries the grant's secret under another name or in an encoded spelling
// (K=<secret>, token=%41...), so the secret never reaches it; the rest of
// the query is as the caller wrote it, byte for byte (empty parameters and
// ';' included: within a parameter, a ';'-separated piece is dropped only
// when it carries the secret, so sql=select+1;k=2 is kept whole); a
// Referer has k's value redacted (also as ?k%3D...) and the secret too, in
// any spelling. Header names arrive in any case and are made canonical. As
// from net/http's server, a relayed Host is r.Host, not in r.Header (the
// edge's X-Forwarded-Host, the public host, wins), and Transfer-Encoding
// is r.TransferEncoding (chunked: the length is unknown; any other coding,
// "gzip, chunked" say, is answered 501 Not Implemented without reaching
// the handler); Connection, Keep-Alive, Te and Upgrade stay in r.Header.
// Responses stream: the head goes out at the handler's first Flush and
// each chunk as written (at most the hello's chunk size, itself capped at
// 64 KiB), so SSE and MCP's long-lived GET stream work; a handler that
// fails, or panics, ends its stream with abort (upstream_error), which the
// edge turns into 502 or a response cut short. The messages written at
// once (a whole small response, or the parts of several streams'
// responses) go out in one write on the socket.
//
// The protocol has no flow control of its own. A request body is queued
// for its handler as it arrives, up to the hello's maxReqBody per request,
// without holding up other streams; past that the stream is aborted
// (too_large). At most the hello's maxInflight streams are open at once,
// counted as the edge counts them: a stream is open until the host sends
// its res_end or abort, the edge aborts it, or the edge reuses its id; a
// req past that is aborted (overloaded) without reaching the handler. A
// response head no HTTP edge can write (a status over 999, a header name
// that is not a token, a control character in a value) or too large to
// relay is aborted by the host itself (upstream_error; the caller gets
// 502). The host assumes an edge that forgets a stream for any other
// reason tells it so with an abort: a stream it was not told of counts
// until its handler's response ends. When the edge aborts a stream or
// reuses its id, or the host aborts it (too_large, or a response head it
// cannot relay), its request context is cancelled and the body queued for it is
// dropped at once (a read of it fails), so queued bodies stay within
// maxInflight × maxReqBody. A handler that ignores its cancelled context
// runs on: at most 4 × maxInflight handlers run at once, across
// reconnects, and a req past that is aborted (overloaded) too, which an
// edge that keeps to its own count meets only when handlers ignore
// cancellation. Whatever a hello announces, the host takes at most the
// service's own limits (10 MiB, 64 KiB chunks, 32), so its memory is
// bounded by them, not by the edge. A response is written as fast as the
// relay reads it. The protocol has no message for trailers: a response's
// trailers are not relayed.
//
// A head's method, url and header names and values are byte strings, as
// the service's edge (a Node program) reads and writes them: each byte of
// the HTTP message is one character, U+0000–U+00FF, in the JSON string.
// So the handler sees the caller's bytes (a raw "é" in the query, UTF-8
// c3 a9, arrives as those two bytes), and the bytes of the handler's
// header values reach the caller as they are, as far as the edge can
// write them: a header value with a control character other than tab
// (CR, LF, NUL…) or a name that is not an HTTP token, which Node's
// setHeader refuses, is aborted by the host itself (upstream_error; the
// caller gets 502) where net/http would alter or drop it. A req that is no HTTP
// request, which the service's agent (Node's http.request) refuses to
// send and net/http's server never hands a handler, is not served: its
// stream is aborted (upstream_error). That is a character above U+00FF
// (it stands for no byte), a method or header name that is not a token, a
// control character other than tab in a header value, or a character
// outside U+0021–U+00FF (a space, say) in the url.
//
// The edge closes a session with WebSocket status 4000 when the connect
// token is invalid, expired, revoked or rotated (ErrTokenRejected, or a
// renewal when it expired), 4001 when a newer
// session of the tunnel replaces it (ErrReplaced), 4002 when the tunnel is
// revoked or its secret rotated (ErrRevoked), and 1012 when it restarts
// (Serve reconnects at once, after a session that lasted a second or more).
// Serve pings the edge every 25 s (WithHeartbeat) and reconnects when a
// ping goes unanswered for two intervals. A message the host cannot read
// (not JSON, as the service's agent drops it, or not the protocol's
// shapes) is dropped; the session goes on.
package tunnels
