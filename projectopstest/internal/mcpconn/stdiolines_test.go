package mcpconn

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// messageLines passes JSON-RPC messages through byte for byte and drops
// every other line: text, JSON that is not an object, an object without
// the "jsonrpc": "2.0" tag, an object with trailing text, blank lines.
func TestMessageLinesFilters(t *testing.T) {
	t.Parallel()
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
		` {"jsonrpc":"2.0","method":"notifications/x"}` + "\r\n",
		`{"id":2,"jsonrpc":"2.0","error":{"code":-1,"message":"m"}}`, // the stream's end closes it
	}
	in := "banner: hello\n" + msgs[0] + "\n  \n" + `[{"jsonrpc":"2.0","id":3,"result":{}}]` + "\n" + "42\n" +
		`{"level":"info"}` + "\n" + `{"jsonrpc":"1.0","id":4}` + "\n" + `{"jsonrpc":"2.0","id":5,"result":{}} trailing` + "\n" +
		"{not json\n" + msgs[1] + msgs[2]
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
