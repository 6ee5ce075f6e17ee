package keylimit

import (
	"testing"
	"time"
)

// wait is Wait's wait alone.
func wait(l *Limiter, key string, now time.Time) time.Duration {
	d, _ := l.Wait(key, now)
	return d
}

func TestWait(t *testing.T) {
	l := New(60, 2) // one a second, bursts of two
	now := time.Unix(1_700_000_000, 0)
	for i := range 2 {
		if d := wait(l, "k", now); d != 0 {
			t.Fatalf("request %d of the burst: wait %v", i+1, d)
		}
	}
	if d := wait(l, "k", now); d <= 0 || d > time.Second {
		t.Fatalf("third request: wait %v, want up to 1s", d)
	}
	// A refused request takes nothing: after a second exactly one passes.
	now = now.Add(time.Second)
	first, second := wait(l, "k", now), wait(l, "k", now)
	if first != 0 || second == 0 {
		t.Errorf("refill after a second: waits %v then %v, want 0 then more", first, second)
	}
	if wait(l, "other", now) != 0 {
		t.Error("keys share a bucket")
	}
	if wait(New(0, 0), "k", now) != 0 {
		t.Error("a zero limit refused")
	}
}

// A refusal at the reading of the key's previous request is stalled: no
// time passed that could have refilled the bucket.
func TestWaitStalled(t *testing.T) {
	l := New(60, 1)
	now := time.Unix(1_700_000_000, 0)
	if d, stalled := l.Wait("k", now); d != 0 || stalled {
		t.Fatalf("first request: wait %v stalled %v", d, stalled)
	}
	if d, stalled := l.Wait("k", now); d == 0 || !stalled {
		t.Errorf("second request at the same reading: wait %v stalled %v, want refused and stalled", d, stalled)
	}
	if d, stalled := l.Wait("k", now.Add(time.Second/2)); d == 0 || stalled {
		t.Errorf("half a second later: wait %v stalled %v, want refused, not stalled", d, stalled)
	}
}

// A clock set back is a new origin at the next request: the time stepped
// forward from there refills.
func TestWaitClockSetBack(t *testing.T) {
	late := time.Unix(1_700_003_600, 0)
	early := late.Add(-time.Hour)
	l := New(60, 1)
	if wait(l, "k", late) != 0 {
		t.Fatal("first request refused")
	}
	if d := wait(l, "k", early); d == 0 {
		t.Fatal("the empty bucket refilled by going back")
	}
	if d := wait(l, "k", early.Add(time.Second)); d != 0 {
		t.Errorf("a second after the set-back reading: wait %v, want 0", d)
	}
}
