package tunnelwire

import (
	"encoding/binary"

	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
)

// countingConn counts the writes that reach the connection.
type countingConn struct {
	io.ReadWriteCloser
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.ReadWriteCloser.Write(p)
}

// wsPair returns the two ends of a WebSocket on loopback; the client's
// connection is under a Cork whose writes are counted.
func wsPair(t *testing.T) (client *websocket.Conn, cork *Cork, writes *atomic.Int64, server *websocket.Conn) {
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
	writes = new(atomic.Int64)
	up := &UpgradeTransport{Base: countingTransport{writes}}
	c, _, err := websocket.Dial(t.Context(), "ws"+srv.URL[len("http"):], &websocket.DialOptions{HTTPClient: &http.Client{Transport: up}})
	if err != nil {
		t.Fatal(err)
	}
	if up.Cork == nil {
		t.Fatal("UpgradeTransport kept no Cork")
	}
	s := <-accepted
	c.SetReadLimit(MaxMessage)
	s.SetReadLimit(MaxMessage)
	t.Cleanup(func() { _ = c.CloseNow(); _ = s.CloseNow(); srv.Close() })
	writes.Store(0)
	return c, up.Cork, writes, s
}

// countingTransport hands a 101's connection back with its writes counted.
type countingTransport struct{ writes *atomic.Int64 }

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		resp.Body = countingConn{resp.Body.(io.ReadWriteCloser), t.writes}
	}
	return resp, err
}

// Messages sent by many goroutines at once arrive whole and, per sender,
// in order; a Send's messages reach the socket in one write.
func TestWriterOrderAndOneWrite(t *testing.T) {
	t.Parallel()
	client, cork, writes, server := wsPair(t)
	w := NewWriter(client, cork)
	if err := w.Send(Batch(nil).Req(1, "POST", "/x", http.Header{"A": {"b"}}, true, false).
		Chunk(ReqChunk, 1, []byte("body")).End(ReqEnd, 1)); err != nil {
		t.Fatal(err)
	}
	if n := writes.Load(); n != 1 {
		t.Errorf("a Send of three messages took %d writes", n)
	}
	r := NewReader(server)
	for _, want := range []string{"req", "chunk", "req_end"} {
		typ, msg, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		switch want {
		case "chunk":
			c, err := DecodeChunk(msg)
			if typ != websocket.MessageBinary || err != nil || c.Kind != ReqChunk || c.ID != 1 || string(c.Payload) != "body" {
				t.Errorf("chunk = %v %+v %v", typ, c, err)
			}
		default:
			c, err := DecodeControl(msg)
			if typ != websocket.MessageText || err != nil || c.T != want || c.ID != 1 {
				t.Errorf("%s = %v %+v %v", want, typ, c, err)
			}
		}
	}

	const senders, each = 8, 50
	writes.Store(0)
	var wg sync.WaitGroup
	for i := range senders {
		wg.Go(func() {
			var g Batch
			for n := range each {
				p := binary.BigEndian.AppendUint32(nil, uint32(n))
				g = g.Reset().Chunk(ResChunk, uint32(i), p).End(ResEnd, uint32(i))
				if err := w.Send(g); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	next := make([]int, senders)
	for range senders * each {
		_, msg, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		c, err := DecodeChunk(msg)
		if err != nil || int(binary.BigEndian.Uint32(c.Payload)) != next[c.ID] {
			t.Fatalf("chunk %+v, %v; want sequence %d", c, err, next[c.ID])
		}
		_, msg, err = r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if e, err := DecodeControl(msg); err != nil || e.T != ResEnd || e.ID != c.ID {
			t.Fatalf("after stream %d's chunk: %+v, %v", c.ID, e, err)
		}
		next[c.ID]++
	}
	wg.Wait()
	if n := writes.Load(); n > senders*each {
		t.Errorf("%d sends took %d writes", senders*each, n)
	}
}

// A failed write fails that Send and every later one.
func TestWriterFailure(t *testing.T) {
	t.Parallel()
	client, cork, _, _ := wsPair(t)
	w := NewWriter(client, cork)
	_ = client.CloseNow()
	if err := w.Send(Batch(nil).End(ResEnd, 1)); err == nil {
		t.Fatal("Send on a closed connection succeeded")
	}
	if err := w.Send(Batch(nil).End(ResEnd, 2)); err == nil {
		t.Fatal("a Send after a failure succeeded")
	}
}
