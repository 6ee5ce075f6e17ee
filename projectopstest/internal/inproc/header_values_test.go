package inproc

import (
	"net/http"
	"testing"
)

// A streaming handler that kept its header map, changed it after the
// status (so the sent header is rebuilt from the noted entries) and goes
// on using it after the flush: the rebuilt header has value slices of its
// own, so what the handler does to its map after the response reached the
// client does not change the client's resp.Header, as with net/http.
func TestRebuiltHeaderHasValuesOfItsOwn(t *testing.T) {
	read, changed, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	h := &host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		hdr := w.Header()
		hdr.Set("X-A", "1")
		hdr.Set("X-B", "b")
		hdr.Add("Vary", "a")
		hdr.Add("Vary", "b")
		hdr.Add("Vary", "c") // len 3, cap 4
		w.WriteHeader(http.StatusOK)
		hdr.Del("X-A") // changed since the status: the sent header is rebuilt
		w.(http.Flusher).Flush()
		<-read
		hdr["X-B"][0] = "late"  // in place, after the response was sent
		hdr.Add("Vary", "late") // appends into the shared backing array
		close(changed)
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	resp, err := get(t, tr, "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if got := resp.Header.Get("X-A"); got != "1" {
		t.Fatalf("X-A = %q, want the header at the status", got)
	}
	resp.Header.Add("Vary", "client")
	close(read)
	<-changed
	if got := resp.Header.Get("X-B"); got != "b" {
		t.Errorf("X-B = %q after the handler changed its own map, want %q", got, "b")
	}
	if v := resp.Header["Vary"]; len(v) != 4 || v[3] != "client" {
		t.Errorf("client's Vary = %q, want its own 4th value kept", v)
	}
	<-done
}

// Same, run concurrently: a data race between the handler's map and the
// client's header (go test -race).
func TestRebuiltHeaderNoRaceWithHandler(t *testing.T) {
	done := make(chan struct{})
	h := &host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		hdr := w.Header()
		hdr.Set("X-A", "1")
		hdr.Set("X-B", "b")
		w.WriteHeader(http.StatusOK)
		hdr.Del("X-A")
		w.(http.Flusher).Flush()
		hdr["X-B"][0] = "late"
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	resp, err := get(t, tr, "/stream")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Header.Get("X-B")
	<-done
	resp.Body.Close()
}
