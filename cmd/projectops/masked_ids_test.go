package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// signalWriter is a lockedBuffer that closes seen once what it holds
// contains want.
type signalWriter struct {
	lockedBuffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	n, err := w.lockedBuffer.Write(p)
	if strings.Contains(w.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

// Every id and name the service sends that the CLI prints, on stdout or
// as progress on stderr, is masked when key-shaped, as error text is:
// eval status --wait's heartbeat and closing line, env list's table, and
// tunnel's status lines.
func TestPrintedServiceIDsAreMasked(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = time.Millisecond
	t.Cleanup(func() { heartbeatEvery = old })
	const heartbeatLine = "run run_sk_***: running, 1/2 iterations done"
	// Any heartbeat of the first poll's state lets the run end: masked or
	// not, so the test fails rather than hangs on an unmasked id.
	stderr := &signalWriter{want: "iterations done", seen: make(chan struct{})}
	var polls int
	var mu sync.Mutex
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/computer-environments"):
			io.WriteString(w, `{"items":[{"id":"env_sk_live_ENVKEY1234","name":"sk_live_NAMEKEY1234","sharing":"personal",`+
				`"isOwner":true,"currentBuild":{"id":"bld_sk_live_BLDKEY1234","status":"ready"}}],"nextCursor":""}`)
		case strings.HasSuffix(r.URL.Path, "/iterations"):
			io.WriteString(w, `{"items":[],"nextCursor":""}`)
		case strings.Contains(r.URL.Path, "/eval-runs/"):
			mu.Lock()
			polls++
			first := polls == 1
			mu.Unlock()
			if first {
				io.WriteString(w, `{"id":"run_sk_live_RUNKEY1234","suiteId":"evs_sk_live_SUITEKEY12","status":"running","summary":{"total":2,"passed":1,"failed":0}}`)
				return
			}
			// The run ends only once the heartbeat has printed the
			// first poll's state: ordered, not timed.
			select {
			case <-stderr.seen:
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, `{"id":"run_sk_live_RUNKEY1234","suiteId":"evs_sk_live_SUITEKEY12","status":"completed","result":"passed",`+
				`"summary":{"total":2,"passed":2,"failed":0,"passRate":1}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test_0000000000000000")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")

	var stdout lockedBuffer
	code := run(t.Context(), []string{"eval", "status", "--wait", "--interval", "1ms", "run_1"}, &stdout, stderr)
	out, errOut := stdout.String(), stderr.String()
	if code != 0 || !strings.Contains(errOut, heartbeatLine) || !strings.Contains(out, "run run_sk_*** completed") {
		t.Errorf("eval status --wait: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if all := out + errOut; strings.Contains(all, "RUNKEY") || strings.Contains(all, "SUITEKEY") {
		t.Errorf("eval status --wait printed a key-shaped id:\n%s", all)
	}

	code, out, errOut = runCLI(t, "env", "list")
	if code != 0 || !strings.Contains(out, "env_sk_***") || !strings.Contains(out, "ready bld_sk_***") ||
		strings.Contains(out, "ENVKEY") || strings.Contains(out, "NAMEKEY") || strings.Contains(out, "BLDKEY") {
		t.Errorf("env list: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}

	// The tunnel's lines name the server as the service stored it.
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	t.Cleanup(local.Close)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	_, tstderr, done := runTunnelNamed(t, ctx, local.URL, "sk_live_TUNNELKEY12")
	cancel()
	<-done
	if s := tstderr.String(); !strings.Contains(s, "(sk_***) -> ") || strings.Contains(s, "TUNNELKEY") {
		t.Errorf("tunnel's stderr:\n%s", s)
	}
}
