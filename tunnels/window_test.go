package tunnels_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// fastGet asks the tunnel's quick path and fails the test if it is held up
// for more than 5 seconds behind another stream.
func fastGet(t *testing.T, f *fixture, u string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatalf("a request held up behind another stream: %v", err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); string(b) != "fast" {
		t.Fatalf("got %q", b)
	}
}

// quickOr serves "fast" unless the query asks for slow: slow is called then.
func quickOr(slow http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("slow") {
			slow(w, r)
			return
		}
		_, _ = io.WriteString(w, "fast")
	})
}

// A handler that never reads a large request body holds up its own stream
// only: the host's reader never waits for it (the body is queued, within
// the edge's maxReqBody), other requests go through, and when its caller
// gives up the handler is cancelled.
func TestUnreadBodyHoldsUpItsStreamOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	cancelled := make(chan struct{})
	serve(t, f, g, quickOr(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // never reads the body
		close(cancelled)
	}))
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, g.URL+"&slow=1", bytes.NewReader(make([]byte, 3<<20)))
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	fastGet(t, f, g.URL)
	cancel()
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not cancelled after its caller went away")
	}
	fastGet(t, f, g.URL)
}

// A large request body a handler reads slowly arrives whole, in order.
func TestLargeBodyArrivesWhole(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, quickOr(func(w http.ResponseWriter, r *http.Request) {
		var got bytes.Buffer
		buf := make([]byte, 100<<10)
		for {
			n, err := r.Body.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		_, _ = w.Write(got.Bytes())
	}))
	body := make([]byte, 3<<20+12345)
	for i := range body {
		body[i] = byte(i * 7)
	}
	status, got := get(t, f, http.MethodPost, g.URL+"&slow=1", string(body))
	if status != http.StatusOK || got != string(body) {
		t.Errorf("status %d, %d bytes back of %d (equal: %v)", status, len(got), len(body), got == string(body))
	}
}

// A caller that reads a large response as fast as it can gets all of it,
// every time: a host's burst can outrun it for a moment (the edge used to
// cut such callers once they lagged relay.MaxQueuedResponse behind).
func TestEagerCallerGetsLargeResponseWhole(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	big := make([]byte, 24<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(big)))
		_, _ = w.Write(big)
	}))
	for i := range 5 {
		resp, err := f.Srv.Client().Get(g.URL)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || !bytes.Equal(got, big) {
			t.Fatalf("read %d: %d of %d bytes (%v)", i, len(got), len(big), err)
		}
	}
}

// A caller that reads a long response slowly but steadily (never idle)
// is cut too, instead of setting the pace of the tunnel's other streams
// for as long as its response lasts; the tunnel goes on serving.
func TestSteadySlowCallerIsCut(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	chunk := make([]byte, 32<<10)
	serve(t, f, g, quickOr(func(w http.ResponseWriter, r *http.Request) {
		n := 0
		for r.Context().Err() == nil && (n < 8<<20 || r.URL.Query().Has("endless")) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			n += len(chunk)
			w.(http.Flusher).Flush()
		}
	}))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"&slow=1&endless=1", nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cut := make(chan error, 1)
	go func() { // 32 KiB every 50 ms: never idle, about 0.6 MiB a second
		buf := make([]byte, 32<<10)
		for {
			if _, err := io.ReadFull(resp.Body, buf); err != nil {
				cut <- err
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	start := time.Now()
	select {
	case err := <-cut:
		t.Logf("cut after %v: %v", time.Since(start), err)
	case <-time.After(15 * time.Second):
		t.Fatal("a caller reading 0.6 MiB a second, 4 MiB behind, was never cut")
	}
	big, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL+"&slow=1", nil)
	bresp, err := f.Srv.Client().Do(big)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, bresp.Body)
	bresp.Body.Close()
	if err != nil || n != 8<<20 {
		t.Errorf("the download after it: %d bytes, %v", n, err)
	}
}

// A public caller that stops reading a long response is cut, and the
// tunnel's other requests go through: the double's edge queues up to
// relay.MaxQueuedResponse for it, waits relay.SlowCallerGrace for it to
// read, then cuts that response (telling the host, whose handler is
// cancelled).
func TestSlowCallerIsCutNotTheTunnel(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	cancelled := make(chan struct{})
	serve(t, f, g, quickOr(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 32<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				break
			}
			w.(http.Flusher).Flush()
		}
		close(cancelled)
	}))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL+"&slow=1", nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close() // not read until the end
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler streaming to a caller that reads nothing was never stopped")
	}
	fastGet(t, f, g.URL)
	if _, err := io.Copy(io.Discard, resp.Body); err == nil {
		t.Error("the slow caller's response ended cleanly; want it cut")
	}
}
