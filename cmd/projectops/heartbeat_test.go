package main

import (
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Off a terminal, a long wait prints a heartbeat line now and then, and
// nothing once stopped.
func TestHeartbeat(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = time.Millisecond
	t.Cleanup(func() { heartbeatEvery = old })
	var w syncBuffer
	stop := heartbeat(&w, func() string { return "run run_1: running" })
	for !strings.Contains(w.String(), "run run_1: running (") {
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // idempotent
	n := len(w.String())
	time.Sleep(5 * time.Millisecond)
	if len(w.String()) != n {
		t.Error("the heartbeat kept printing after stop")
	}
}
