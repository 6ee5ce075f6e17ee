package tunnelwire

import (
	"encoding/binary"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/coder/websocket"
)

// wsPair returns the two ends of a WebSocket on loopback.
func wsPair(t *testing.T) (client, server *websocket.Conn) {
	t.Helper()
	accepted := make(chan *websocket.Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		accepted <- c
		<-r.Context().Done()
	}))
	c, _, err := websocket.Dial(t.Context(), "ws"+srv.URL[len("http"):], nil)
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	c.SetReadLimit(MaxMessage)
	s.SetReadLimit(MaxMessage)
	t.Cleanup(func() { _ = c.CloseNow(); _ = s.CloseNow(); srv.Close() })
	return c, s
}

// Frames sent by many goroutines at once arrive complete and, per stream,
// in order; with batching they share messages, without it each frame is
// its own message.
func TestWriterGroupsFrames(t *testing.T) {
	t.Parallel()
	const senders, perSender = 8, 50
	for _, batch := range []bool{false, true} {
		c, s := wsPair(t)
		w := NewWriter(c, batch)
		var wg sync.WaitGroup
		for id := range senders {
			wg.Go(func() {
				for i := range perSender {
					// Three frames per Send, as a request or response.
					seq := binary.BigEndian.AppendUint32(nil, uint32(i))
					g := Group(nil).Append(Request, uint32(id+1), seq).Append(Data, uint32(id+1), seq).AppendEnd(uint32(id+1), nil)
					if err := w.Send(g); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		next := map[uint32]int{}   // per stream: the next sequence number
		kinds := map[uint32]Kind{} // per stream: the last kind seen
		frames, messages := 0, 0
		check := func(f Frame) error {
			frames++
			want := map[Kind]Kind{End: Request, Request: Data, Data: End}[kinds[f.ID]]
			if kinds[f.ID] == 0 {
				want = Request
			}
			if f.Kind != want {
				t.Fatalf("stream %d: %s after %s", f.ID, f.Kind, kinds[f.ID])
			}
			kinds[f.ID] = f.Kind
			if f.Kind == Data {
				if got := int(binary.BigEndian.Uint32(f.Payload)); got != next[f.ID] {
					t.Fatalf("stream %d: chunk %d, want %d", f.ID, got, next[f.ID])
				}
				next[f.ID]++
			}
			return nil
		}
		for frames < senders*perSender*3 {
			_, msg, err := s.Read(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			messages++
			f, err := Decode(msg)
			if err != nil {
				t.Fatal(err)
			}
			if f.Kind == Batch {
				if !batch {
					t.Fatal("a batch was sent with batching off")
				}
				err = SplitBatch(f.Payload, check)
			} else {
				err = check(f)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		wg.Wait()
		if batch && messages > senders*perSender {
			t.Errorf("batching: %d messages for %d Sends", messages, senders*perSender)
		}
		if !batch && messages != frames {
			t.Errorf("no batching: %d messages for %d frames", messages, frames)
		}
	}
}

// A batch never exceeds MaxMessage: large frames are split over messages.
func TestWriterBatchLimit(t *testing.T) {
	t.Parallel()
	c, s := wsPair(t)
	w := NewWriter(c, true)
	big := make([]byte, MaxChunk)
	var g Group // 20 × 32 KiB > MaxMessage, in one group and in twenty
	groups := make([]Group, 20)
	for i := range groups {
		g = g.Append(Data, 1, big)
		groups[i] = Group(nil).Append(Data, 2, big)
	}
	go func() { _ = w.Send(g); _ = w.Send(groups...) }()
	got := 0
	for got < 2*len(groups) {
		_, msg, err := s.Read(t.Context()) // the read limit is MaxMessage
		if err != nil {
			t.Fatal(err)
		}
		f, _ := Decode(msg)
		if f.Kind == Batch {
			_ = SplitBatch(f.Payload, func(Frame) error { got++; return nil })
		} else {
			got++
		}
	}
}

// A write failure fails that Send and every later one.
func TestWriterFailure(t *testing.T) {
	t.Parallel()
	c, _ := wsPair(t)
	_ = c.CloseNow()
	w := NewWriter(c, true)
	if err := w.Send(Group(nil).AppendEnd(1, nil)); err == nil {
		t.Fatal("Send on a closed connection succeeded")
	}
	if err := w.Send(Group(nil).AppendEnd(2, nil)); err == nil {
		t.Fatal("a later Send succeeded")
	}
}

func TestSplitBatchMalformed(t *testing.T) {
	t.Parallel()
	frame := Encode(End, 1, nil)
	ok := binary.BigEndian.AppendUint32(nil, uint32(len(frame)))
	ok = append(ok, frame...)
	nested := binary.BigEndian.AppendUint32(nil, HeaderLen)
	nested = append(nested, Encode(Batch, 0, nil)...)
	for name, p := range map[string][]byte{
		"short length":   {0, 0},
		"length too big": binary.BigEndian.AppendUint32(nil, 100),
		"short frame":    append(binary.BigEndian.AppendUint32(nil, 2), 1, 2),
		"nested batch":   nested,
		"oversized data": append(binary.BigEndian.AppendUint32(nil, uint32(HeaderLen+MaxChunk+1)), Encode(Data, 1, make([]byte, MaxChunk+1))...),
	} {
		if err := SplitBatch(p, func(Frame) error { return nil }); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	n := 0
	if err := SplitBatch(append(ok, ok...), func(Frame) error { n++; return nil }); err != nil || n != 2 {
		t.Errorf("two frames: %d, %v", n, err)
	}
	if !HasFeature("x, batch ,y", FeatureBatch) || HasFeature("batches", FeatureBatch) {
		t.Error("HasFeature")
	}
}
