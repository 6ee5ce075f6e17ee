package projectopstest_test

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"
)

// The hello is a session's first message (docs/double.md, the tunnel
// relay): a public request arriving while an agent (re)connects waits for
// it instead of reaching the new agent as a req before the hello.
func TestRelayHelloBeforeReq(t *testing.T) {
	f := newRelayFixture(t, true)
	answer := func(a *agent) {
		for m := range a.in {
			if m.T == "req" {
				_ = a.conn.Write(context.Background(), 1, fmt.Appendf(nil, `{"t":"res","id":%d,"status":200,"headers":[]}`, m.ID))
				_ = a.conn.Write(context.Background(), 1, fmt.Appendf(nil, `{"t":"res_end","id":%d}`, m.ID))
			}
		}
	}
	go answer(f.dial(t))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 { // callers keep the tunnel busy while agents (re)connect
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				resp := <-f.public(ctx, "GET", "", "", nil)
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				cancel()
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	for i := range 50 {
		a := dialAgent(t, f.tg.client, f.relayURL, f.token)
		first := a.next()
		if first.T != "hello" {
			t.Fatalf("reconnect %d: the agent's first message is %q (id %d, url %q), want hello", i, first.T, first.ID, first.URL)
		}
		go answer(a)
	}
}
