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
