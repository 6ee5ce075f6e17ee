package inproc

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

type ctxKey struct{}

// TestHandlerContext pins what an ordinary route's handler sees of its
// context, built lazily or not: the request's values, the server's closing
// and the request's cancellation (also through a context derived from it),
// and a cancelled context once the handler has returned.
func TestHandlerContext(t *testing.T) {
	hostCtx, closeHost := context.WithCancel(t.Context())
	defer closeHost()
	var kept context.Context
	var derivedErr, valueOK, errBefore error
	h := &host{ctx: hostCtx, h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		kept = ctx
		if ctx.Value(ctxKey{}) != "v" {
			valueOK = errors.New("request value lost")
		}
		switch r.URL.Path {
		case "/close": // the server closes while the handler runs
			errBefore = ctx.Err()
			closeHost()
			if ctx.Err() != context.Canceled {
				derivedErr = errors.New("Err before Done: " + errString(ctx.Err()))
				return
			}
			<-ctx.Done()
		case "/derived": // a derived context sees the server's closing
			d, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			if d.Value(ctxKey{}) != "v" {
				valueOK = errors.New("derived context lost the request value")
			}
			closeHost()
			select {
			case <-d.Done():
				derivedErr = d.Err()
			case <-time.After(10 * time.Second):
				derivedErr = errors.New("derived context not cancelled")
			}
		case "/cancel": // the caller gives up while the handler runs
			r.Context().Value(cancelKey{}).(context.CancelFunc)()
			derivedErr = ctx.Err()
		}
		_, _ = io.WriteString(w, "ok")
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	roundTrip := func(path string, ctx context.Context) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://double.test"+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := tr.RoundTrip(req); err == nil {
			resp.Body.Close()
		}
	}
	base := context.WithValue(t.Context(), ctxKey{}, "v")

	roundTrip("/ok", base)
	if valueOK != nil {
		t.Error(valueOK)
	}
	// Once the handler has returned, its context is done, built or not.
	if kept.Err() != context.Canceled {
		t.Errorf("after return: Err = %v", kept.Err())
	}
	select {
	case <-kept.Done():
	default:
		t.Error("after return: Done not closed")
	}
	d, cancelD := context.WithCancel(kept)
	defer cancelD()
	if d.Err() != context.Canceled {
		t.Errorf("derived after return: Err = %v", d.Err())
	}

	roundTrip("/close", base)
	if errBefore != nil || derivedErr != nil {
		t.Errorf("close: before %v, after %v", errBefore, derivedErr)
	}

	hostCtx, closeHost2 := context.WithCancel(t.Context())
	defer closeHost2()
	closeHost = closeHost2
	h.ctx = hostCtx
	roundTrip("/derived", base)
	if derivedErr != context.Canceled || valueOK != nil {
		t.Errorf("derived: %v, %v", derivedErr, valueOK)
	}

	h.ctx = t.Context()
	ctx, cancel := context.WithCancel(base)
	roundTrip("/cancel", context.WithValue(ctx, cancelKey{}, cancel))
	if derivedErr != context.Canceled {
		t.Errorf("cancel: Err = %v", derivedErr)
	}
}

type cancelKey struct{}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
