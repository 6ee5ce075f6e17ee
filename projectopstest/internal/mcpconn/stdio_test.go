package mcpconn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noiseSecretEnv holds a value the noisy server prints in its stray
// stdout lines, which must never reach a log.
const noiseSecretEnv = "MCPCONN_TEST_NOISE_SECRET"

// serveNoisy serves the test server after printing a banner to stdout, with
// a "noisy" tool that prints stray lines before it answers: a line of
// text, a JSON value that is not an object, an object that is not a
// JSON-RPC message, a blank line. Every stray line carries the secret.
func serveNoisy() {
	secret := os.Getenv(noiseSecretEnv)
	_, _ = os.Stdout.WriteString("banner: starting with " + secret + "\n")
	s := testServer()
	mcp.AddTool(s, &mcp.Tool{Name: "noisy"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		for _, l := range []string{"debug: " + secret, `["` + secret + `"]`, `{"level":"info","msg":"` + secret + `"}`, ""} {
			_, _ = os.Stdout.WriteString(l + "\n") // one write a line: the transport's own lines stay whole
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	serveStdio(s)
}

// writeJunk writes lines that are not JSON-RPC messages until its stdin
// closes: a process that runs but never answers initialize.
func writeJunk() {
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for {
		_, _ = os.Stdout.WriteString("not json-rpc\n")
		time.Sleep(10 * time.Millisecond)
	}
}

// serveAtLimit is a hand-written stdio server whose initialize answer is
// a JSON line of exactly mcp.DefaultMaxLineLength bytes, the line end not
// counted, written after a line of blanks longer than that when
// blankFirst; any other request gets an empty result.
func serveAtLimit(blankFirst bool) {
	r := bufio.NewReader(os.Stdin)
	for {
		line, err := r.ReadBytes('\n')
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 {
			head := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":`
			if req.Method == "initialize" {
				if blankFirst {
					_, _ = os.Stdout.WriteString(strings.Repeat(" ", mcp.DefaultMaxLineLength+1) + "\n")
				}
				head += `{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"at-limit","version":"1"},"instructions":"`
				tail := `"}}`
				_, _ = os.Stdout.WriteString(head + strings.Repeat("p", mcp.DefaultMaxLineLength-len(head)-len(tail)) + tail + "\n")
			} else {
				_, _ = os.Stdout.WriteString(head + "{}}\n")
			}
		}
		if err != nil {
			os.Exit(0)
		}
	}
}

// A stdio server whose initialize answer is as long as go-sdk's own
// stdio transport takes (its CommandTransport, checked first, takes it),
// written after a longer blank line, can be dialed: the double's filter
// counts a message as go-sdk does, and drops the blank line, however
// long, as the service's client skips it. go-sdk alone would count the
// blanks into the message.
func TestStdioMessageAtGoSDKLimit(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = stdioEnviron([]string{stdioEnv + "=at-limit"})
	ref := mcp.NewClient(&mcp.Implementation{Name: "ref", Version: "1"}, nil)
	cs, err := ref.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatalf("premise: go-sdk's CommandTransport refused the server: %v", err)
	}
	_ = cs.Close()

	d := testDialer()
	d.ConnectTimeout = time.Minute // the lines are large, and the race detector slow
	c, err := d.Dial(t.Context(), Target{Transport: TransportStdio, Command: exe, Env: []string{stdioEnv + "=at-limit-blank"}})
	if err != nil {
		t.Fatalf("Dial of a server whose initialize answer is %d bytes: %v", mcp.DefaultMaxLineLength, err)
	}
	c.Close()
}

// logBuffer is a concurrency-safe sink for a text slog handler.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A stdio server that prints a banner before serving and stray lines
// during a call keeps its session, as with the service's stdio client,
// which skips lines that are not messages: the call answers, the session
// stays usable, and the log records each dropped line's length, never
// its content.
func TestStdioSkipsStdoutNoise(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const secret = "s3cret-banner-value"
	var logs logBuffer
	d := testDialer()
	d.Log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := d.Dial(t.Context(), Target{Transport: TransportStdio, Command: exe,
		Env: []string{stdioEnv + "=noisy", noiseSecretEnv + "=" + secret}})
	if err != nil {
		t.Fatalf("Dial of a server that printed a banner: %v", err)
	}
	defer c.Close()
	res, err := c.Session.CallTool(t.Context(), &mcp.CallToolParams{Name: "noisy"})
	if err != nil {
		t.Fatalf("a call whose tool printed stray lines: %v", err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "done" {
		t.Fatalf("noisy = %q, want done", got)
	}
	echo(t, c)
	got := logs.String()
	if strings.Contains(got, secret) {
		t.Errorf("the log holds a dropped line's content: %s", got)
	}
	// The banner and three of the call's stray lines (the blank one is
	// not worth a record), each by its length, newline included.
	for _, n := range []int{len("banner: starting with " + secret + "\n"), len("debug: " + secret + "\n"),
		len(`["` + secret + `"]` + "\n"), len(`{"level":"info","msg":"` + secret + `"}` + "\n")} {
		if !strings.Contains(got, "bytes="+strconv.Itoa(n)+"\n") {
			t.Errorf("no record of a dropped %d-byte line in the log:\n%s", n, got)
		}
	}
	if k := strings.Count(got, "dropped"); k != 4 {
		t.Errorf("%d lines logged as dropped, want 4:\n%s", k, got)
	}
}

// A process that writes only lines that are not messages never answers
// initialize: connecting times out (the API's 504), rather than failing
// on the first line.
func TestStdioOnlyNoiseTimesOut(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	d := testDialer()
	d.ConnectTimeout = 300 * time.Millisecond
	_, err = d.Dial(t.Context(), Target{Transport: TransportStdio, Command: exe, Env: []string{stdioEnv + "=junk"}})
	if !errors.Is(err, ErrConnectTimeout) {
		t.Fatalf("Dial of a process that writes only junk = %v, want ErrConnectTimeout", err)
	}
	if f := Classify(err, nil, t.Context(), nil); f.Kind != Timeout {
		t.Fatalf("classified as %v, want Timeout", f.Kind)
	}
}
