package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
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

// The heartbeat prints its state as it is: a build id the service sent is
// escaped there too, so it can neither drive the terminal nor print a line
// of its own.
func TestEnvBuildHeartbeatEscapesBuildID(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = time.Millisecond
	t.Cleanup(func() { heartbeatEvery = old })
	var stderr syncBuffer
	const evilID = "bld_1\x1b[2J\nbuild bld_1: ready"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusAccepted)
			_ = json.NewEncoder(w).Encode(map[string]any{"id": "env_1", "buildId": evilID})
			return
		}
		// Answer the poll once the heartbeat has spoken.
		for i := 0; i < 3000 && !strings.Contains(stderr.String(), ": queued ("); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"items": []map[string]any{{"id": evilID, "status": "ready"}}})
	}))
	t.Cleanup(srv.Close)
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_heartbeat_escape")
	t.Setenv("PROJECTOPS_BASE_URL", srv.URL)
	var stdout bytes.Buffer
	code := run(t.Context(), []string{"env", "build", "-p", "prj_1", "--interval", "1ms", "env_1"}, &stdout, &stderr)
	out := stderr.String()
	if code != 0 || !strings.Contains(out, `bld_1\x1b[2J\nbuild bld_1: ready: queued (`) {
		t.Fatalf("exit %d; want the heartbeat's escaped build id; stderr %q", code, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "\x1b") || strings.HasPrefix(l, "build bld_1: ready") {
			t.Errorf("a build id drove the terminal or printed a line of its own: %q", out)
		}
	}
}
