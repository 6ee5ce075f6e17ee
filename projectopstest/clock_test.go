package projectopstest_test

import (
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 7, 9, 12, 0, 0, 0, time.UTC)
	c := projectopstest.NewClock(start)
	if !c.Now().Equal(start) {
		t.Fatalf("Now = %v, want %v", c.Now(), start)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { c.Advance(time.Second); _ = c.Now() })
	}
	wg.Wait()
	if got := c.Now().Sub(start); got != 10*time.Second {
		t.Errorf("after 10 concurrent Advance(1s): %v", got)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Errorf("Set: Now = %v", c.Now())
	}
}

// With WithClock the double dates its API answers by that clock, in
// process and over a listener (where net/http would stamp the real time):
// clients judge the service's time by Date, as a tunnel host's renewal
// does. Without it, an API answer over a listener carries net/http's Date.
func TestWithClockDatesAPIAnswers(t *testing.T) {
	t.Parallel()
	clk := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clk.Now))
	for _, tg := range targets(t, srv) {
		r := tg.call(t, "GET", "/me", srv.Default().APIKey, nil)
		if got := r.header.Get("Date"); got != "Fri, 02 Jan 2026 03:04:05 GMT" {
			t.Errorf("%s: Date %q, want the double's clock's", tg.name, got)
		}
	}
}
