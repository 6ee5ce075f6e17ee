package projectopstest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestBackgroundWorkWaitAndClose(t *testing.T) {
	t.Parallel()
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	var finished atomic.Int32
	for range 3 {
		if !s.goBackground(func(context.Context) { finished.Add(1) }) {
			t.Fatal("goBackground refused on an open server")
		}
	}
	s.Wait()
	if n := finished.Load(); n != 3 {
		t.Errorf("after Wait %d jobs finished, want 3", n)
	}

	// Close cancels long-running work and waits for it.
	stopped := make(chan error, 1)
	s.goBackground(func(ctx context.Context) {
		<-ctx.Done()
		stopped <- ctx.Err()
	})
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not cancel background work")
	}
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Errorf("job saw %v", err)
	}
	if s.goBackground(func(context.Context) {}) {
		t.Error("goBackground accepted work after Close")
	}
	if _, _, err := s.AddAPIKey("usr_1", "late"); err != nil {
		t.Errorf("seed helpers keep working on a closed server's store: %v", err)
	}
}

func TestURLBeforeAndAfterStart(t *testing.T) {
	t.Parallel()
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.URL() != InProcessURL {
		t.Errorf("URL before Start = %q", s.URL())
	}
	base, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	if s.URL() != base {
		t.Errorf("URL after Start = %q, want %q", s.URL(), base)
	}
	if _, err := s.Start(); err == nil {
		t.Error("second Start succeeded")
	}
}
