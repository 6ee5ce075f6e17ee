package mcpconn

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// messageLines passes JSON-RPC messages through, each ending in one "\n",
// and drops every other line: text, JSON that is not an object, an object
// without the "jsonrpc": "2.0" tag, an object with trailing text, blank
// lines.
func TestMessageLinesFilters(t *testing.T) {
	t.Parallel()
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/x"}` + "\n",               // written after a blank, with "\r\n"
		`{"id":2,"jsonrpc":"2.0","error":{"code":-1,"message":"m"}}` + "\n", // the stream's end closes it
	}
	in := "banner: hello\n" + msgs[0] + "\n  \n" + `[{"jsonrpc":"2.0","id":3,"result":{}}]` + "\n" + "42\n" +
		`{"level":"info"}` + "\n" + `{"jsonrpc":"1.0","id":4}` + "\n" + `{"jsonrpc":"2.0","id":5,"result":{}} trailing` + "\n" +
		"{not json\n" + " " + strings.Replace(msgs[1], "\n", "\r\n", 1) + strings.TrimSuffix(msgs[2], "\n")
	got, err := io.ReadAll(newMessageLines(strings.NewReader(in), 1<<10, nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(msgs, ""); string(got) != want {
		t.Fatalf("passed %q, want %q", got, want)
	}
}

// A line that cannot be a message is discarded as it streams, however
// long, so a server printing without a newline cannot grow the double's
// memory; a line that may be one is bounded by the limit.
func TestMessageLinesBoundsLines(t *testing.T) {
	t.Parallel()
	const limit = 256
	junk := strings.Repeat("x", 4*messageLineBuffer) // far past the limit and the read buffer
	msg := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"
	m := newMessageLines(strings.NewReader(junk+"\n"+msg), limit, nil)
	got, err := io.ReadAll(m)
	if err != nil || string(got) != msg {
		t.Fatalf("after a long junk line: %q, %v; want the message", got, err)
	}
	if c := cap(m.line); c > messageLineBuffer {
		t.Errorf("the junk line was buffered: line capacity %d", c)
	}

	long := `{"jsonrpc":"2.0","id":1,"result":{"x":"` + strings.Repeat("y", limit) + `"}}` + "\n"
	_, err = io.ReadAll(newMessageLines(strings.NewReader(long), limit, nil))
	if !errors.Is(err, errLineTooLong) {
		t.Fatalf("a message line over the limit: %v, want errLineTooLong", err)
	}
}

// The limit counts a message line's JSON value only, as go-sdk's frame
// bound does: a value of exactly limit bytes passes whatever blanks and
// line end surround it (go-sdk's IOTransport, checked first, takes it
// too), and one byte more is refused.
func TestMessageLinesLimitCountsTheValue(t *testing.T) {
	t.Parallel()
	const limit = 256
	head, tail := `{"jsonrpc":"2.0","id":1,"result":{"x":"`, `"}}`
	msg := head + strings.Repeat("y", limit-len(head)-len(tail)) + tail
	conn, err := (&mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(msg + "\n")), Writer: nopWriteCloser{}, MaxLineLength: limit}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Read(t.Context()); err != nil {
		t.Fatalf("premise: go-sdk refused a %d-byte message with limit %d: %v", len(msg), limit, err)
	}
	_ = conn.Close()

	for _, line := range []string{msg + "\n", msg + "\r\n", "  \t" + msg + " \r\n", msg} {
		got, err := io.ReadAll(newMessageLines(strings.NewReader(line), limit, nil))
		if err != nil || string(got) != msg+"\n" {
			t.Errorf("%d-byte message in the %d-byte line %.8q...: passed %d bytes, %v; want the message", len(msg), len(line), line, len(got), err)
		}
	}
	// Through go-sdk with the same limit, as the double's stdio dialer
	// stacks them: a line with leading blanks must not reach go-sdk with
	// them, which it would count.
	lines := newMessageLines(strings.NewReader(" "+msg+"\n"), limit, nil)
	conn, err = (&mcp.IOTransport{Reader: lines, Writer: nopWriteCloser{}, MaxLineLength: limit}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Read(t.Context()); err != nil {
		t.Errorf("go-sdk after the filter refused a %d-byte message with limit %d: %v", len(msg), limit, err)
	}
	_ = conn.Close()

	over := head + "y" + msg[len(head):]
	for _, line := range []string{over + "\n", over + strings.Repeat(" ", 2*limit) + "x\n"} {
		if _, err := io.ReadAll(newMessageLines(strings.NewReader(line), limit, nil)); !errors.Is(err, errLineTooLong) {
			t.Errorf("a %d-byte line with a value over the limit: %v, want errLineTooLong", len(line), err)
		}
	}
	// Blanks inside the value count: they are part of what go-sdk buffers.
	spaced := msg[:len(msg)-1] + " }"
	if _, err := io.ReadAll(newMessageLines(strings.NewReader(spaced+"\n"), limit, nil)); !errors.Is(err, errLineTooLong) {
		t.Errorf("a message of limit+1 bytes with a blank inside: %v, want errLineTooLong", err)
	}
}

// A blank line, or a message's trailing blanks, is bounded without being
// refused however long it is: the line of blanks is dropped, the blanks
// are cut, and reading goes on without buffering them.
func TestMessageLinesLongBlankRuns(t *testing.T) {
	t.Parallel()
	const limit = 256
	msg := `{"jsonrpc":"2.0","id":1,"result":{}}`
	blanks := strings.Repeat(" \t", 2*messageLineBuffer) // far past the limit and the read buffer
	m := newMessageLines(strings.NewReader(blanks+"\n"+msg+blanks+"\r\n"+msg+blanks), limit, nil)
	got, err := io.ReadAll(m)
	if want := msg + "\n" + msg + "\n"; err != nil || string(got) != want {
		t.Fatalf("around long blank runs: passed %q, %v; want %q", got, err, want)
	}
	if c := cap(m.line); c > messageLineBuffer {
		t.Errorf("a blank run was buffered: line capacity %d", c)
	}
}

// goSDKReads feeds what messageLines passes on to go-sdk's stdio decoder
// and returns the messages it reads before the stream ends, with the error
// that ended it: io.EOF when every line was taken.
func goSDKReads(t *testing.T, in string) ([]jsonrpc.Message, error) {
	t.Helper()
	lines := newMessageLines(strings.NewReader(in), 1<<20, nil)
	conn, err := (&mcp.IOTransport{Reader: lines, Writer: nopWriteCloser{}}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var msgs []jsonrpc.Message
	for {
		msg, err := conn.Read(t.Context())
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, msg)
	}
}

// nopWriteCloser stands in for the server's stdin, which these tests never
// write.
type nopWriteCloser struct{}

func (nopWriteCloser) Write(b []byte) (int, error) { return len(b), nil }
func (nopWriteCloser) Close() error                { return nil }

// A line tagged "jsonrpc":"2.0" that is no message (a structured log
// line, an error answer to a null id), or keyed "JSONRPC", is dropped as
// the service's client drops it, not handed to go-sdk, whose decoder
// would refuse it and end the session: the message after it is read.
func TestMessageLinesDropsWhatGoSDKRefuses(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		`{"jsonrpc":"2.0","level":"info","msg":"listening"}`,
		`{"JSONRPC":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","method":"x","id":{}}`,
	} {
		msgs, err := goSDKReads(t, line+"\n"+`{"jsonrpc":"2.0","id":1,"result":{}}`+"\n")
		if !errors.Is(err, io.EOF) || len(msgs) != 1 {
			t.Errorf("after %s go-sdk read %d message(s), then %v; want the one message, then EOF", line, len(msgs), err)
		}
	}
}

// Blanks between a message and its newline, which JSON.parse ignores,
// are cut: go-sdk's decoder would read them as trailing data and end the
// session. "\r\n" becomes "\n".
func TestMessageLinesCutsTrailingBlanks(t *testing.T) {
	t.Parallel()
	msg := `{"jsonrpc":"2.0","id":1,"result":{}}`
	in := msg + "  \t\n" + msg + " \r\n" + msg + "\t"
	got, err := io.ReadAll(newMessageLines(strings.NewReader(in), 1<<20, nil))
	if want := strings.Repeat(msg+"\n", 3); err != nil || string(got) != want {
		t.Fatalf("passed %q, %v; want %q", got, err, want)
	}
	msgs, err := goSDKReads(t, in)
	if !errors.Is(err, io.EOF) || len(msgs) != 3 {
		t.Fatalf("go-sdk read %d message(s), then %v; want 3, then EOF", len(msgs), err)
	}
}

// Lines the filter must not break: a message split over many pipe
// writes, one with blanks inside and "jsonrpc" not first, one longer than
// the read buffer; a byte-order mark before a message, which JSON.parse
// refuses, drops the line.
func TestMessageLinesEdgeCases(t *testing.T) {
	t.Parallel()
	read := func(in string) string {
		t.Helper()
		b, err := io.ReadAll(newMessageLines(strings.NewReader(in), 1<<20, nil))
		if err != nil {
			t.Fatalf("reading %.40q: %v", in, err)
		}
		return string(b)
	}
	msg := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < len(msg); i += 5 {
			_, _ = pw.Write([]byte(msg[i:min(i+5, len(msg))]))
		}
		pw.Close()
	}()
	if b, err := io.ReadAll(newMessageLines(pr, 1<<20, nil)); err != nil || string(b) != msg {
		t.Errorf("split message: %q, %v", b, err)
	}
	spaced := `{ "id" : 1 , "jsonrpc" : "2.0", "result": {} }` + "\n"
	if got := read(spaced); got != spaced {
		t.Errorf("spaced message: %q", got)
	}
	big := `{"jsonrpc":"2.0","id":1,"result":{"x":"` + strings.Repeat("y", 3*messageLineBuffer) + `"}}` + "\n"
	if got := read(big); got != big {
		t.Errorf("big message: %d bytes out of %d", len(got), len(big))
	}
	if got := read("\ufeff" + msg); got != "" {
		t.Errorf("message after a byte-order mark passed: %q", got)
	}
}
