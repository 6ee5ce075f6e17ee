package edge

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// eventWriter records the deadlines set and the writes made, in order.
type eventWriter struct {
	http.ResponseWriter
	events []string
}

func (e *eventWriter) SetWriteDeadline(time.Time) error {
	e.events = append(e.events, "deadline")
	return nil
}

func (e *eventWriter) Write(b []byte) (int, error) {
	e.events = append(e.events, fmt.Sprint("write ", len(b)))
	return len(b), nil
}

func (e *eventWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) { return nil, nil, nil }

// Every write to the connection has a fresh deadline, a large one in
// pieces, so the deadline bounds a write the client does not drain, not
// how long a client that reads takes over a large body or a long stream.
func TestWriteDeadlineMovesBeforeEachPiece(t *testing.T) {
	e := &eventWriter{ResponseWriter: httptest.NewRecorder()}
	WriteDeadline(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(make([]byte, 2*writePiece+1))
	}), time.Second).ServeHTTP(e, httptest.NewRequest(http.MethodGet, "/", nil))
	want := fmt.Sprint([]string{"deadline", "deadline", fmt.Sprint("write ", writePiece), "deadline",
		fmt.Sprint("write ", writePiece), "deadline", "write 1", "deadline"})
	if got := fmt.Sprint(e.events); got != want {
		t.Errorf("events %s, want %s", got, want)
	}
}

// A hijacked connection is its new owner's: no deadline is set on it after.
func TestWriteDeadlineLeavesHijackedConnAlone(t *testing.T) {
	e := &eventWriter{ResponseWriter: httptest.NewRecorder()}
	WriteDeadline(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if _, _, err := http.NewResponseController(w).Hijack(); err != nil {
			t.Fatal(err)
		}
	}), time.Second).ServeHTTP(e, httptest.NewRequest(http.MethodGet, "/", nil))
	if got := fmt.Sprint(e.events); got != "[deadline]" {
		t.Errorf("events %s, want only the request's first deadline", got)
	}
}
