package ingest_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// lateBodyRT passes the append route's requests to inner with a copy of
// their body, and leaves the body it was given unread until read is
// called, then reads and closes each on a goroutine of its own. That is
// what net/http's Transport may do (its writeLoop can still be writing a
// body when an early answer arrives) and what http.RoundTripper's contract
// allows: "RoundTrip must always close the body ... but depending on the
// implementation may do so in a separate goroutine even after RoundTrip
// returns". The copy is read from GetBody while RoundTrip runs: the bytes
// that must go out. Other routes go to inner as they are.
type lateBodyRT struct {
	t     *testing.T
	inner http.RoundTripper
	start chan struct{} // closed by read: the held bodies are read
	done  chan lateRead // each held body, once read and closed; holds maxHeld
	mu    sync.Mutex
	sent  [][]byte // each append's body when RoundTrip ran, in order
}

// lateRead is what one held body gave when it was read at last.
type lateRead struct {
	k    int // its append, an index into sent
	body []byte
	err  error
}

// maxHeld bounds the appends one lateBodyRT holds, so its done channel can
// take every reader's answer without a receiver: a test that stops before
// read leaves no reader blocked.
const maxHeld = 64

func newLateBodyRT(t *testing.T, inner http.RoundTripper) *lateBodyRT {
	l := &lateBodyRT{t: t, inner: inner, start: make(chan struct{}), done: make(chan lateRead, maxHeld)}
	// A test that stops early still lets the held bodies' readers end.
	t.Cleanup(func() { l.startReads() })
	return l
}

func (l *lateBodyRT) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.URL.Path, "/eval-ingest/runs/iterations") {
		return l.inner.RoundTrip(req)
	}
	if req.GetBody == nil {
		return nil, errors.New("lateBodyRT: an append without GetBody")
	}
	rc, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	now, err := io.ReadAll(rc)
	_ = rc.Close()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	k := len(l.sent)
	if k == maxHeld {
		l.mu.Unlock()
		return nil, errors.New("lateBodyRT: more appends than maxHeld")
	}
	l.sent = append(l.sent, now)
	l.mu.Unlock()
	body := req.Body
	go func() {
		<-l.start
		b, err := io.ReadAll(body)
		_ = body.Close()
		l.done <- lateRead{k: k, body: b, err: err}
	}()
	fwd := req.Clone(req.Context())
	fwd.Body, fwd.GetBody = io.NopCloser(bytes.NewReader(now)), nil
	return l.inner.RoundTrip(fwd)
}

func (l *lateBodyRT) startReads() {
	select {
	case <-l.start:
	default:
		close(l.start)
	}
}

// read reads every held body, waiting for each reader to say it is done,
// and returns what each append's body held when RoundTrip ran; it fails
// the test for a body whose bytes changed since.
func (l *lateBodyRT) read() [][]byte {
	l.t.Helper()
	l.startReads()
	l.mu.Lock()
	sent := l.sent
	l.mu.Unlock()
	guard := time.After(time.Minute) // a hang made a failure, not a timing
	for i := range sent {
		var r lateRead
		select {
		case r = <-l.done:
		case <-guard:
			l.t.Fatalf("%d of %d held bodies read and closed", i, len(sent))
		}
		if r.err != nil || !bytes.Equal(r.body, sent[r.k]) {
			l.t.Errorf("append %d went out as %q (%v), not as %q", r.k, r.body, r.err, sent[r.k])
		}
	}
	return sent
}
