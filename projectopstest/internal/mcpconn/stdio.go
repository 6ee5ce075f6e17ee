package mcpconn

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport runs a stdio server's command and speaks MCP with it
// over go-sdk's IOTransport, handling the process as mcp.CommandTransport
// does (stdin and stdout pipes; Close closes stdin, then signals a server
// that has not exited). It differs in one way: the server's stdout is read
// through messageLines, which drops lines that are not JSON-RPC messages
// (a banner, a stray console.log), as the service's stdio client (the
// TypeScript MCP SDK 2.0.0's) skips them, where CommandTransport's decoder
// would end the session.
type stdioTransport struct {
	proc *procGroup
	// terminate is how long the server gets to exit after its stdin
	// closes, and then after SIGTERM, before it is killed.
	terminate time.Duration
	log       *slog.Logger // receives dropped lines' lengths
}

// Connect implements mcp.Transport: it starts the command and speaks MCP
// over its pipes.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := t.proc.cmd
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	td := t.terminate
	if td <= 0 {
		td = defaultTerminate
	}
	p := &stdioProcess{proc: t.proc, stdin: stdin, terminate: td}
	// The lines carry at most go-sdk's frame bound, which its decoder
	// enforces again.
	lines := newMessageLines(stdout, mcp.DefaultMaxLineLength, t.log)
	return (&mcp.IOTransport{Reader: lines, Writer: p}).Connect(ctx)
}

// defaultTerminate is a zero terminate duration's stand-in, go-sdk's
// default.
const defaultTerminate = 5 * time.Second

// stdioProcess is the writing end of a stdio session: the server's stdin,
// and the process's teardown on Close.
type stdioProcess struct {
	proc      *procGroup
	stdin     io.WriteCloser
	terminate time.Duration
}

// Write writes b to the server's stdin.
func (p *stdioProcess) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close ends the session the way the MCP specification asks of a stdio
// client: close the server's stdin, wait for it to exit, then SIGTERM, then
// SIGKILL, each wait bounded by terminate. The wait (procGroup.wait) ends
// what is left of the process group before it reaps the server, and
// closes the stdout pipe, which ends the session's reading.
func (p *stdioProcess) Close() error {
	if err := p.stdin.Close(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- p.proc.wait() }()
	wait := func() (error, bool) {
		t := time.NewTimer(p.terminate)
		defer t.Stop()
		select {
		case err := <-exited:
			return err, true
		case <-t.C:
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if p.proc.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := p.proc.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errUnresponsive
}

// errUnresponsive: a stdio server outlived its kill by a terminate
// duration (its Wait goroutine ends when it finally goes).
var errUnresponsive = errors.New("mcpconn: stdio server did not exit after SIGKILL")
