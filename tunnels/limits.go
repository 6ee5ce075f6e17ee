package tunnels

import "github.com/projectops/projectops-go/internal/tunnelwire"

// hostLimits are the most a session takes, whatever the edge's hello
// announces: the service's own limits (10 MiB per request body, 64 KiB
// chunks, 32 requests in flight). The protocol has no flow control, so
// the host's memory is bounded by these, not by what an edge (broken or
// hostile) claims: at most MaxInflight bodies of MaxReqBody queued.
var hostLimits = tunnelwire.DefaultLimits

// sessionLimits are the limits of a hello, defaults for any it leaves out,
// each capped at the host's own.
func sessionLimits(announced tunnelwire.Limits) tunnelwire.Limits {
	l := announced.OrDefault()
	l.MaxReqBody = min(l.MaxReqBody, hostLimits.MaxReqBody)
	l.Chunk = min(l.Chunk, tunnelwire.MaxChunk)
	l.MaxInflight = min(l.MaxInflight, hostLimits.MaxInflight)
	return l
}
