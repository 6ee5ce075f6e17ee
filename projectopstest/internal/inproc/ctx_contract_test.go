package inproc

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

// After the handler returns without ever calling Done, its context reports
// Canceled. When the request's context later ends (its deadline passes),
// Err must keep returning the same error (context.Context contract:
// "successive calls to Err return the same error"). The eager
// WithCancel version keeps returning Canceled.
func TestHandlerCtxErrFixedAfterRelease(t *testing.T) {
	var kept context.Context
	h := &host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		kept = r.Context() // never calls Done
		_, _ = io.WriteString(w, "ok")
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	reqCtx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(reqCtx, http.MethodGet, "http://double.test/ok", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	first := kept.Err()
	if first != context.Canceled {
		t.Fatalf("after return: Err = %v, want Canceled", first)
	}
	<-reqCtx.Done() // the caller's deadline passes later
	if got := kept.Err(); got != first {
		t.Errorf("Err changed from %v to %v after the request's deadline passed", first, got)
	}
}

// The server closes while the handler runs; Err reports Canceled at once
// (lazy path). Calling Done then builds the merged context, whose
// AfterFunc on the already-closed server context cancels it on another
// goroutine, so Err goes back to nil and Done is open: Err is not monotonic.
func TestHandlerCtxErrStaysAfterDoneOnClosedServer(t *testing.T) {
	failures := 0
	for i := 0; i < 50; i++ {
		hostCtx, closeHost := context.WithCancel(t.Context())
		var before, after error
		h := &host{ctx: hostCtx, h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := r.Context()
			closeHost() // Server.Close during the request
			before = ctx.Err()
			_ = ctx.Done()
			after = ctx.Err()
		})}
		tr := &Transport{Host: h, Closed: errClosed}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://double.test/x", nil)
		if resp, err := tr.RoundTrip(req); err == nil {
			resp.Body.Close()
		}
		closeHost()
		if before != nil && after != before {
			failures++
			if failures == 1 {
				t.Errorf("Err was %v, then %v after calling Done", before, after)
			}
		}
	}
	if failures > 0 {
		t.Logf("%d/50 iterations saw Err go from non-nil back to nil", failures)
	}
}

// Same root cause, seen through context.Cause: once the handler returned
// (Err = Canceled, cause Canceled), a later cancellation of the request's
// context with a cause changes the handler context's Cause to that cause.
func TestHandlerCtxCauseFixedAfterRelease(t *testing.T) {
	var kept context.Context
	h := &host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		kept = r.Context()
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	reqCtx, cancel := context.WithCancelCause(t.Context())
	req, _ := http.NewRequestWithContext(reqCtx, http.MethodGet, "http://double.test/ok", nil)
	if resp, err := tr.RoundTrip(req); err == nil {
		resp.Body.Close()
	}
	first := context.Cause(kept)
	cancel(errors.New("caller gave up later"))
	if got := context.Cause(kept); got != first {
		t.Errorf("Cause changed from %v to %v after the handler had returned", first, got)
	}
}

// The server closes while the handler runs (its context ends, cause
// Canceled); the caller cancelling afterwards with a cause of its own
// changes neither Err nor Cause, as with a context the closing cancelled.
func TestHandlerCtxCauseAfterServerClose(t *testing.T) {
	hostCtx, closeHost := context.WithCancel(t.Context())
	defer closeHost()
	reqCtx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	var errBefore, errAfter, causeAfter error
	h := &host{ctx: hostCtx, h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		closeHost()
		errBefore = ctx.Err()
		cancel(errors.New("caller gave up"))
		errAfter, causeAfter = ctx.Err(), context.Cause(ctx)
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	req, _ := http.NewRequestWithContext(reqCtx, http.MethodGet, "http://double.test/x", nil)
	if resp, err := tr.RoundTrip(req); err == nil {
		resp.Body.Close()
	}
	if errBefore != context.Canceled || errAfter != context.Canceled || causeAfter != context.Canceled {
		t.Errorf("Err %v then %v, Cause %v; want Canceled throughout", errBefore, errAfter, causeAfter)
	}
}

func TestHandlerCtxCauseStaysWhenDoneBuiltAfterServerClose(t *testing.T) {
	hostCtx, closeHost := context.WithCancel(t.Context())
	defer closeHost()
	reqCtx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	callerCause := errors.New("caller gave up")
	var err1, cause1, cause2, cause3, childErr, childCause error
	h := &host{ctx: hostCtx, h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		closeHost()
		err1, cause1 = ctx.Err(), context.Cause(ctx)       // ended: Canceled, Canceled
		cancel(callerCause)                                // later, the caller
		cause2 = context.Cause(ctx)                        // still Canceled
		child, stop := context.WithTimeout(ctx, time.Hour) // calls Done
		defer stop()
		cause3 = context.Cause(ctx)
		childErr, childCause = child.Err(), context.Cause(child)
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	req, _ := http.NewRequestWithContext(reqCtx, http.MethodGet, "http://double.test/x", nil)
	if resp, err := tr.RoundTrip(req); err == nil {
		resp.Body.Close()
	}
	t.Logf("Err %v Cause %v; after caller cancel Cause %v; after Done Cause %v; child Err %v Cause %v",
		err1, cause1, cause2, cause3, childErr, childCause)
	if err1 != context.Canceled || cause1 != context.Canceled || cause2 != context.Canceled {
		t.Fatalf("precondition: Err %v Cause %v/%v", err1, cause1, cause2)
	}
	if cause3 != context.Canceled {
		t.Errorf("Cause changed from Canceled to %v once Done was called", cause3)
	}
	if childCause != context.Canceled {
		t.Errorf("derived context: Err %v but Cause %v, want Canceled", childErr, childCause)
	}
}

// The same without any cause: the request has a deadline. The server
// closes, the handler sees Err = Canceled; the deadline passes; the handler
// then calls Done. Cause becomes DeadlineExceeded while Err stays
// Canceled, a pair the eager context (cancelled by the closing, Canceled
// both) never shows.
func TestHandlerCtxCauseStaysAfterDeadlineAndServerClose(t *testing.T) {
	hostCtx, closeHost := context.WithCancel(t.Context())
	defer closeHost()
	reqCtx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
	defer cancel()
	var err1, cause1, err2, cause2 error
	h := &host{ctx: hostCtx, h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		closeHost()
		err1, cause1 = ctx.Err(), context.Cause(ctx)
		<-reqCtx.Done()
		<-ctx.Done()
		err2, cause2 = ctx.Err(), context.Cause(ctx)
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	req, _ := http.NewRequestWithContext(reqCtx, http.MethodGet, "http://double.test/x", nil)
	if resp, err := tr.RoundTrip(req); err == nil {
		resp.Body.Close()
	}
	if err1 != context.Canceled || cause1 != context.Canceled {
		t.Fatalf("precondition: Err %v Cause %v", err1, cause1)
	}
	if err2 != context.Canceled || cause2 != context.Canceled {
		t.Errorf("after the deadline and Done: Err %v, Cause %v; want Canceled, Canceled (as before)", err2, cause2)
	}
}
