package tunnels

import (
	"sync"
	"sync/atomic"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// hostLimits are the most a session takes, whatever the edge's hello
// announces: the service's own limits (10 MiB per request body, 64 KiB
// response chunks, 32 requests in flight). The protocol has no flow
// control, so the host's memory is bounded by these, not by what an edge
// (broken or hostile) claims: at most MaxInflight bodies of MaxReqBody
// queued. A response chunk is buffered whole per stream, and buffers up to
// 64 KiB are recycled: the service's agent sends none larger either.
var hostLimits = tunnelwire.DefaultLimits

// sessionLimits are the limits of a hello, defaults for any it leaves out,
// each capped at the host's own.
func sessionLimits(announced tunnelwire.Limits) tunnelwire.Limits {
	l := announced.OrDefault()
	l.MaxReqBody = min(l.MaxReqBody, hostLimits.MaxReqBody)
	l.Chunk = min(l.Chunk, hostLimits.Chunk)
	l.MaxInflight = min(l.MaxInflight, hostLimits.MaxInflight)
	return l
}

// runningPerInflight sets the cap on handlers running at once: this many
// times the session's maxInflight (128 with the service's limits). The
// edge stops counting a stream when it aborts it or reuses its id, and so
// does the host, but the stream's handler runs until it returns: one that
// ignores its cancelled context runs on. The cap bounds those goroutines;
// a req past it is aborted overloaded, which an edge that keeps to its
// maxInflight meets only when handlers ignore cancellation.
const runningPerInflight = 4

// handlerSet is the handlers of one Serve, across its sessions.
type handlerSet struct {
	wg sync.WaitGroup
	// running counts the requests taken in whose handler has not returned,
	// those waiting for their body to start included.
	running atomic.Int64
}
