package projectopstest_test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

// An in-process tunnel request the agent has not answered when Close
// cancels it fails (ErrServerClosed) or gets the 502 envelope, never the
// empty 200 net/http would write for a handler that wrote nothing. Which
// of the two Close reaches first varies, so the scenario repeats on fresh
// servers and any 200 fails.
func TestCloseInprocRelayNoFalse200(t *testing.T) {
	for i := range 6 {
		if t.Run(fmt.Sprint("try", i), closeInprocRelayOnce) {
			continue
		}
		return
	}
}

func closeInprocRelayOnce(t *testing.T) {
	f := newRelayFixture(t, false)
	a := f.dial(t)
	ch := f.public(context.Background(), "GET", "", "", nil)
	if m := a.next(); m.T != "req" {
		t.Fatalf("agent got %q, want req", m.T)
	}
	// The agent never answers. Close (bounded: it must not hang).
	done := make(chan struct{})
	go func() { f.srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Close hung")
	}
	var resp = <-ch
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == 200 {
		t.Errorf("unanswered relayed request cut by Close: got %d %q with body %q; want ErrServerClosed or a 5xx envelope",
			resp.StatusCode, resp.Status, b)
	}
	t.Logf("got %d %s", resp.StatusCode, b)
}
