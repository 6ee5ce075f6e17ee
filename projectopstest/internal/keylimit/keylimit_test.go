package keylimit

import (
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	l := New(60, 2) // one a second, bursts of two
	now := time.Unix(1_700_000_000, 0)
	for i := range 2 {
		if d := l.Wait("k", now); d != 0 {
			t.Fatalf("request %d of the burst: wait %v", i+1, d)
		}
	}
	if d := l.Wait("k", now); d <= 0 || d > time.Second {
		t.Fatalf("third request: wait %v, want up to 1s", d)
	}
	// A refused request takes nothing: after a second exactly one passes.
	now = now.Add(time.Second)
	first, second := l.Wait("k", now), l.Wait("k", now)
	if first != 0 || second == 0 {
		t.Errorf("refill after a second: waits %v then %v, want 0 then more", first, second)
	}
	if l.Wait("other", now) != 0 {
		t.Error("keys share a bucket")
	}
	if New(0, 0).Wait("k", now) != 0 {
		t.Error("a zero limit refused")
	}
}
