package inproc

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
)

// A handler the server's closing cuts before it answers, and that returns
// without writing (the relay's, whose tunnel host had not answered), is a
// request the closing cut, as its connection closed over loopback: its
// caller gets the transport's Closed error, not the empty 200 net/http
// would commit for it, on a streaming route and an ordinary one. A handler
// that answers its cancellation still answers; one that returns without
// writing while the server is up is still an empty 200; a caller that went
// away still gets its own error.
func TestServerClosingCutRequestGetsClosed(t *testing.T) {
	for _, path := range []string{"/stream", "/plain"} {
		t.Run(path, func(t *testing.T) {
			hostCtx, closeHost := context.WithCancel(t.Context())
			entered := make(chan struct{}, 1)
			h := &countingHost{}
			h.ctx = hostCtx
			h.h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Query().Get("do") {
				case "nothing":
					return
				case "answer":
					entered <- struct{}{}
					<-r.Context().Done()
					w.WriteHeader(http.StatusBadGateway)
				default:
					entered <- struct{}{}
					<-r.Context().Done() // returns without writing
				}
			})
			tr := &Transport{Host: h, Closed: errClosed}

			resp, err := get(t, tr, path+"?do=nothing")
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("a handler that writes nothing, server up: %v %v; want the empty 200", resp, err)
			}
			resp.Body.Close()

			// A caller that goes away gets its own error.
			ctx, cancel := context.WithCancel(t.Context())
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://double.test"+path, nil)
			errc := make(chan error, 1)
			go func() {
				resp, err := tr.RoundTrip(req)
				if err == nil {
					resp.Body.Close()
				}
				errc <- err
			}()
			<-entered
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("a caller gone: %v, want context.Canceled", err)
			}

			type result struct {
				resp *http.Response
				err  error
			}
			results := make(chan result, 2)
			for _, do := range []string{"", "answer"} {
				go func() {
					resp, err := get(t, tr, path+"?do="+do)
					results <- result{resp, err}
				}()
				<-entered
			}
			closeHost()
			var cut, answered int
			for range 2 {
				r := <-results
				switch {
				case errors.Is(r.err, errClosed):
					cut++
				case r.err == nil && r.resp.StatusCode == http.StatusBadGateway:
					_, _ = io.Copy(io.Discard, r.resp.Body)
					r.resp.Body.Close()
					answered++
				default:
					if r.err == nil {
						r.resp.Body.Close()
						t.Errorf("cut by the closing: %s, want errClosed or the handler's 502", r.resp.Status)
					} else {
						t.Errorf("cut by the closing: %v, want errClosed or the handler's 502", r.err)
					}
				}
			}
			if cut != 1 || answered != 1 {
				t.Errorf("cut by the closing: %d Closed and %d answered, want 1 and 1", cut, answered)
			}
			h.wg.Wait()
			if n := h.n.Load(); n != 0 {
				t.Errorf("%d requests still counted in flight", n)
			}
		})
	}
}
