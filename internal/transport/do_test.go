package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"golang.org/x/time/rate"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

func TestDecodeErrorEveryCode(t *testing.T) {
	t.Parallel()
	for _, code := range shared.Codes {
		t.Run(string(code), func(t *testing.T) {
			t.Parallel()
			body := fmt.Sprintf(`{"code":%q,"message":"it failed","details":{"reason":"TRACE_NOT_AVAILABLE","hostedModels":["m1","m2"],"extra":1},"unknownTopLevel":true}`, code)
			mock := httpmock.NewMockTransport()
			mock.RegisterResponder(http.MethodGet, testBase+"/projects/p%201/runs/r1",
				httpmock.NewStringResponder(code.Status(), body).HeaderSet(http.Header{"x-request-id": {"req_abc"}}))
			tr, _ := newTestTransport(t, mock, func(c *Config) { c.MaxRetries = 0 })
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/projects/{projectId}/runs/{runId}",
				Params: []string{"p 1", "r1"}}, nil)
			var got *shared.Error
			if !errors.As(err, &got) {
				t.Fatalf("err = %v, want *shared.Error", err)
			}
			want := &shared.Error{
				StatusCode: code.Status(), Code: code, Message: "it failed",
				Details: map[string]any{"reason": "TRACE_NOT_AVAILABLE", "hostedModels": []any{"m1", "m2"}, "extra": 1.0},
				Reason:  shared.ReasonTraceNotAvailable, HostedModels: []string{"m1", "m2"},
				RequestID: "req_abc", Method: http.MethodGet, Path: "/projects/p%201/runs/r1",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("decoded error (-want +got):\n%s", diff)
			}
			if !errors.Is(err, &shared.Error{Code: code}) || !errors.Is(err, shared.ErrTraceNotAvailable) {
				t.Errorf("errors.Is fails for code %s / reason", code)
			}
		})
	}
}

// TestUnknownCode: an unknown code is kept, and retried (by the transport)
// and temporary (by Temporary) only when the status says so.
func TestUnknownCode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status    int
		temporary bool
	}{
		{400, false}, {404, false}, {418, false}, {422, false}, {501, false},
		{429, true}, {500, true}, {502, true}, {503, true}, {504, true},
	} {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			mock, s := mockRoute(t, http.MethodGet, "/x", reply{status: tt.status, body: `{"code":"BRAND_NEW_CODE","message":"m"}`})
			tr, _ := newTestTransport(t, mock)
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x"}, nil)
			e, ok := apierr.As(err)
			if !ok || e.Code != "BRAND_NEW_CODE" || e.StatusCode != tt.status {
				t.Fatalf("err = %v, want BRAND_NEW_CODE at %d", err, tt.status)
			}
			if e.Temporary() != tt.temporary {
				t.Errorf("Temporary() = %v, want %v", e.Temporary(), tt.temporary)
			}
			want := 1
			if tt.temporary {
				want = 4
			}
			if n := len(s.requests()); n != want {
				t.Errorf("attempts = %d, want %d", n, want)
			}
		})
	}
}

func TestDecodeErrorNonEnvelope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		r      reply
		wantCT string
	}{
		{"HTML 502 page", reply{status: 502, header: map[string]string{"Content-Type": "text/html; charset=utf-8"},
			body: "<html><body><h1>502 Bad Gateway</h1><p>upstream said: boom-body-text</p></body></html>"}, "text/html"},
		{"empty 500", reply{status: 500}, ""},
		{"truncated JSON 404", reply{status: 404, header: map[string]string{"Content-Type": "application/json"},
			body: `{"code":"NOT_FOUND","message":"boom-body-text`}, "application/json"},
		{"JSON without code", reply{status: 400, body: `{"error":"boom-body-text"}`}, ""},
		{"JSON with a numeric code", reply{status: 409, body: `{"code":409,"message":"boom-body-text"}`}, ""},
		{"bodyless 409 (a run cancel's, as the reference declares it)", reply{status: 409}, ""},
		{"JSON array", reply{status: 403, body: `["boom-body-text"]`}, ""},
		{"plain text 401", reply{status: 401, header: map[string]string{"Content-Type": "text/plain"}, body: "boom-body-text"}, "text/plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mock, _ := mockRoute(t, http.MethodGet, "/x", tt.r)
			tr, _ := newTestTransport(t, mock, func(c *Config) { c.MaxRetries = 0 })
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x"}, nil)
			e, ok := apierr.As(err)
			if !ok {
				t.Fatalf("err = %v, want *shared.Error", err)
			}
			// No code can be read from the body: the status gives one, as
			// the official client gives it (a 400 says nothing: none).
			wantCode := map[int]shared.Code{401: shared.CodeUnauthorized, 403: shared.CodeForbidden, 404: shared.CodeNotFound,
				409: shared.CodeConflict, 500: shared.CodeInternal, 502: shared.CodeInternal}[tt.r.status]
			if e.StatusCode != tt.r.status || e.Code != wantCode || e.RequestID != "req-1" || e.Method != "GET" || e.Path != "/x" {
				t.Errorf("got %+v; want status %d, code %q, request id, method and path", e, tt.r.status, wantCode)
			}
			if strings.Contains(err.Error(), "boom-body-text") || strings.Contains(e.Message, "<html") {
				t.Errorf("body echoed: %q", err.Error())
			}
			if !strings.Contains(e.Message, http.StatusText(tt.r.status)) || !strings.Contains(e.Message, fmt.Sprintf("%d bytes", len(tt.r.body))) {
				t.Errorf("Message = %q, want status text and body size", e.Message)
			}
			if tt.wantCT != "" && !strings.Contains(e.Message, tt.wantCT) {
				t.Errorf("Message = %q, want content type %s", e.Message, tt.wantCT)
			}
		})
	}
}

// endless is an error body that never ends; it counts what was read.
type endless struct{ n atomic.Int64 }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.n.Add(int64(len(p)))
	return len(p), nil
}

func TestErrorBodyCap(t *testing.T) {
	t.Parallel()
	t.Run("endless body", func(t *testing.T) {
		t.Parallel()
		body := &endless{}
		rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 500, Header: http.Header{}, Body: io.NopCloser(body), Request: req}, nil
		})
		tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0 })
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x"}, nil)
		e, ok := apierr.As(err)
		if !ok || e.StatusCode != 500 {
			t.Fatalf("err = %v, want a typed 500", err)
		}
		// The cap, plus the small drain that lets the connection be reused.
		if n := body.n.Load(); n > MaxErrorBody+8<<10 {
			t.Errorf("read %d bytes of an error body; cap is %d", n, MaxErrorBody)
		}
		if !strings.Contains(e.Message, fmt.Sprintf("%d bytes", MaxErrorBody)) {
			t.Errorf("Message = %q, want the capped size", e.Message)
		}
	})
	t.Run("envelope over the cap", func(t *testing.T) {
		t.Parallel()
		big := `{"code":"INTERNAL_ERROR","message":"` + strings.Repeat("m", 2*MaxErrorBody) + `"}`
		mock, _ := mockRoute(t, http.MethodGet, "/x", reply{status: 500, body: big})
		tr, _ := newTestTransport(t, mock, func(c *Config) { c.MaxRetries = 0 })
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x"}, nil)
		e, ok := apierr.As(err)
		if !ok || e.StatusCode != 500 || len(err.Error()) > 1024 {
			t.Fatalf("err = %.200v, want a short typed 500", err)
		}
	})
	t.Run("envelope just under the cap", func(t *testing.T) {
		t.Parallel()
		head, tail := `{"code":"INTERNAL_ERROR","message":"`, `"}`
		msg := strings.Repeat("m", MaxErrorBody-len(head)-len(tail))
		mock, _ := mockRoute(t, http.MethodGet, "/x", reply{status: 500, body: head + msg + tail})
		tr, _ := newTestTransport(t, mock, func(c *Config) { c.MaxRetries = 0 })
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x"}, nil)
		if e, ok := apierr.As(err); !ok || e.Code != shared.CodeInternal || e.Message != msg {
			t.Errorf("a %d-byte envelope was not decoded: %.100v", MaxErrorBody, err)
		}
	})
}

func TestDecodeSuccess(t *testing.T) {
	t.Parallel()
	type thing struct {
		ID   string `json:"id"`
		Size int    `json:"size"`
	}
	tests := []struct {
		name    string
		r       reply
		out     bool
		want    thing
		wantErr bool
	}{
		{"known fields", reply{status: 200, body: `{"id":"a","size":2}`}, true, thing{ID: "a", Size: 2}, false},
		{"unknown fields ignored", reply{status: 200, body: `{"id":"a","future":{"x":[1,2]},"size":3,"more":null}`}, true, thing{ID: "a", Size: 3}, false},
		{"201 created", reply{status: 201, body: `{"id":"b"}`}, true, thing{ID: "b"}, false},
		{"202 accepted", reply{status: 202, body: `{"id":"c"}`}, true, thing{ID: "c"}, false},
		{"204 no content", reply{status: 204}, true, thing{ID: "keep"}, false},
		{"204 with a stray body", reply{status: 204, body: `garbage`}, true, thing{ID: "keep"}, false},
		{"200 empty body", reply{status: 200}, true, thing{ID: "keep"}, false},
		{"body without out", reply{status: 200, body: `not even json`}, false, thing{}, false},
		{"malformed JSON", reply{status: 200, body: `{"id":`}, true, thing{}, true},
		{"HTML instead of JSON", reply{status: 200, body: `<html></html>`}, true, thing{}, true},
		{"wrong type", reply{status: 200, body: `{"id":5}`}, true, thing{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mock, s := mockRoute(t, http.MethodGet, "/things/1", tt.r)
			tr, _ := newTestTransport(t, mock)
			got := thing{ID: "keep"}
			var out any
			if tt.out {
				out = &got
			}
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/things/1"}, out)
			if n := len(s.requests()); n != 1 {
				t.Errorf("attempts = %d, want 1 (a decode failure is not retried)", n)
			}
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Do succeeded with %+v, want a decode error", got)
				}
				if _, ok := apierr.As(err); ok {
					t.Errorf("decode failure reported as *shared.Error: %v", err)
				}
				if !strings.Contains(err.Error(), "GET /things/1: decoding response") {
					t.Errorf("err = %q, want method, path and cause", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.out {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("decoded (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestBodyRewind(t *testing.T) {
	t.Parallel()
	payload := map[string]any{"name": "a long-ish name", "items": []int{1, 2, 3}, "nested": map[string]string{"k": "v"}}
	want, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	mock, s := mockRoute(t, http.MethodPost, "/projects/p/hosts", status(503), status(503), status(502), reply{status: 201, body: `{}`})
	tr, _ := newTestTransport(t, mock)
	if err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/projects/{projectId}/hosts",
		Params: []string{"p"}, Body: payload, Class: Idempotent}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(reqs) != 4 {
		t.Fatalf("attempts = %d, want 4", len(reqs))
	}
	for i, r := range reqs {
		if r.Body != string(want) {
			t.Errorf("attempt %d body = %q, want %q", i+1, r.Body, want)
		}
	}
}

func TestEncodeBodyError(t *testing.T) {
	t.Parallel()
	mock := httpmock.NewMockTransport()
	tr, _ := newTestTransport(t, mock)
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: map[string]any{"f": func() {}}}, nil)
	// A typed pre-send error without the encoder's (it may quote the body):
	// body_encode_error_test.go covers the cases.
	if !errors.Is(err, shared.ErrValidation) || !strings.Contains(err.Error(), "func()") {
		t.Errorf("err = %v, want a VALIDATION_ERROR naming the func() type", err)
	}
	if n := mock.GetTotalCallCount(); n != 0 {
		t.Errorf("sent %d requests with an unencodable body", n)
	}
}

// TestCancelDuringBackoff uses the real, context-aware sleep with a huge
// backoff and cancels while the transport waits.
func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		first reply
	}{
		{"backoff after 503", status(503)},
		{"Retry-After", raReply(429, "3000")},
		{"backoff after a network error", reply{err: errReset}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mock, s := mockRoute(t, http.MethodGet, "/x", tt.first)
			tr, _ := newTestTransport(t, mock, func(c *Config) {
				c.BaseDelay, c.MaxDelay, c.MaxRetryAfter = time.Hour, time.Hour, 2*time.Hour
			})
			sleeping := make(chan time.Duration, 1)
			tr.sleep = func(ctx context.Context, d time.Duration) error {
				sleeping <- d
				return sleepCtx(ctx, d)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, nil) }()

			select {
			case d := <-sleeping:
				if d < 30*time.Minute {
					t.Fatalf("waiting only %s; the test needs a long wait", d)
				}
			case err := <-done:
				t.Fatalf("Do returned %v before waiting", err)
			case <-time.After(30 * time.Second):
				t.Fatal("Do never started waiting")
			}
			cancel()
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Do did not return after cancel (deadlock)")
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if tt.first.err != nil {
				if !errors.Is(err, tt.first.err) {
					t.Errorf("err = %v, want the last network error too", err)
				}
			} else if e, ok := apierr.As(err); !ok || e.StatusCode != tt.first.status {
				t.Errorf("err = %v, want the last *shared.Error (%d) too", err, tt.first.status)
			}
			if n := len(s.requests()); n != 1 {
				t.Errorf("attempts = %d, want 1", n)
			}
		})
	}
}

func TestCancelDuringRequest(t *testing.T) {
	t.Parallel()
	inFlight := make(chan struct{})
	var calls atomic.Int32
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		calls.Add(1)
		close(inFlight)
		<-req.Context().Done()
		return nil, req.Context().Err()
	})
	tr, sl := newTestTransport(t, rt)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, nil) }()
	select {
	case <-inFlight:
	case <-time.After(30 * time.Second):
		t.Fatal("request never sent")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Do did not return after cancel (deadlock)")
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("attempts = %d, want 1 (no retry after cancel)", n)
	}
	if d := sl.all(); len(d) != 0 {
		t.Errorf("slept %v after cancel", d)
	}
}

func TestCancelledBeforeCall(t *testing.T) {
	t.Parallel()
	mock, s := mockRoute(t, http.MethodGet, "/x", reply{status: 200, body: `{}`})
	tr, _ := newTestTransport(t, mock)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("sent %d requests on a cancelled context", n)
	}
}

func TestRateLimiter(t *testing.T) {
	t.Parallel()
	t.Run("every attempt takes a token", func(t *testing.T) {
		t.Parallel()
		// The burst covers every attempt, so nothing waits; at one token
		// an hour the bucket does not visibly refill during the test, so
		// the tokens left show one taken per attempt.
		lim := rate.NewLimiter(rate.Every(time.Hour), 5)
		mock, s := mockRoute(t, http.MethodGet, "/x", status(503), status(503), reply{status: 200, body: `{}`})
		tr, _ := newTestTransport(t, mock, func(c *Config) { c.Limiter = lim })
		if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x"}, nil); err != nil {
			t.Fatal(err)
		}
		if n := len(s.requests()); n != 3 {
			t.Fatalf("attempts = %d, want 3", n)
		}
		if tok := lim.Tokens(); tok < 1.99 || tok > 2.01 {
			t.Errorf("tokens left = %.3f, want 2: one of 5 taken per attempt", tok)
		}
	})
	t.Run("paced requests wait for tokens", func(t *testing.T) {
		t.Parallel()
		// One token per hour, burst 2: two requests go, the third would
		// wait an hour, which outlasts the deadline, so it is refused
		// without being sent (rate decides this upfront, without waiting).
		lim := rate.NewLimiter(rate.Every(time.Hour), 2)
		mock, s := mockRoute(t, http.MethodGet, "/x", reply{status: 200, body: `{}`})
		tr, sl := newTestTransport(t, mock, func(c *Config) { c.Limiter = lim })
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		for i := range 2 {
			if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, nil); err != nil {
				t.Fatalf("request %d: %v", i+1, err)
			}
		}
		err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
		}
		if n := len(s.requests()); n != 2 {
			t.Errorf("requests sent = %d, want 2", n)
		}
		if d := sl.all(); len(d) != 0 {
			t.Errorf("a limiter refusal was retried after %v", d)
		}
	})
	t.Run("retries are paced too", func(t *testing.T) {
		t.Parallel()
		lim := rate.NewLimiter(rate.Every(time.Hour), 2)
		mock, s := mockRoute(t, http.MethodGet, "/x", status(503))
		tr, _ := newTestTransport(t, mock, func(c *Config) { c.Limiter = lim })
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded from the limiter", err)
		}
		if n := len(s.requests()); n != 2 {
			t.Errorf("attempts sent = %d, want 2 (the burst)", n)
		}
	})
	t.Run("cancelled while waiting for a token", func(t *testing.T) {
		t.Parallel()
		lim := rate.NewLimiter(rate.Every(time.Hour), 1)
		lim.Allow() // empty the bucket
		mock, s := mockRoute(t, http.MethodGet, "/x", reply{status: 200, body: `{}`})
		tr, _ := newTestTransport(t, mock, func(c *Config) { c.Limiter = lim })
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, nil) }()
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Do did not return after cancel (deadlock)")
		}
		if n := len(s.requests()); n != 0 {
			t.Errorf("sent %d requests without a token", n)
		}
	})
}

// TestConcurrentUse runs calls from many goroutines on one Transport (run
// with -race): each call gets its own backoff and idempotency key.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var mu sync.Mutex
	keys := map[string]int{}
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		keys[req.Header.Get(IdempotencyHeader)]++
		mu.Unlock()
		if calls.Add(1)%2 == 1 {
			return httpmock.NewStringResponse(503, ""), nil
		}
		return httpmock.NewStringResponse(200, `{"ok":true}`), nil
	})
	tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 10 })
	const n = 32
	errs := make(chan error, n)
	for range n {
		go func() {
			var out struct{ OK bool }
			err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: map[string]int{"a": 1},
				Class: Write, IdempotencyKey: true}, &out)
			if err == nil && !out.OK {
				err = errors.New("not decoded")
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(keys) != n {
		t.Errorf("%d distinct idempotency keys for %d calls", len(keys), n)
	}
}

// A success body is read by its length when it is declared and to its end
// otherwise; both paths decode the same, and a body shorter than its
// declared length is an error, not a silently partial value, whatever
// that length (one over the first read's size too); one longer than
// declared is read to its end.
func TestDecodeSuccessByLength(t *testing.T) {
	t.Parallel()
	const body = `{"id":"a","size":2}`
	for _, tc := range []struct {
		name    string
		length  int64
		wantErr bool
	}{
		{"declared length", int64(len(body)), false},
		{"unknown length", -1, false},
		{"declared over the first read", sizedFirstRead + 1, true}, // cut short, never allocated whole (TestLargeBodyBytes)
		{"truncated body", int64(len(body)) + 10, true},
		// A RoundTripper that decoded gzip but left the compressed
		// length: the body is read on to its end (TestBodyLongerThanDeclared).
		{"longer than declared", int64(len(body)) - 5, false},
	} {
		for _, held := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/held=%v", tc.name, held), func(t *testing.T) {
				t.Parallel()
				rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
					b := io.NopCloser(strings.NewReader(body))
					if held { // a body whole in memory, as the in-process transport's
						b = &heldReader{Reader: strings.NewReader(body), all: body}
					}
					return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: tc.length,
						Body: b, Request: r}, nil
				})
				tr, _ := newTestTransport(t, rt)
				var got struct {
					ID   string `json:"id"`
					Size int    `json:"size"`
				}
				err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/things/1"}, &got)
				if tc.wantErr != (err != nil) {
					t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
				}
				if !tc.wantErr && (got.ID != "a" || got.Size != 2) {
					t.Errorf("decoded %+v", got)
				}
			})
		}
	}
}

// A success body that does not decode gives the same error whatever its
// framing (a declared length, none, one over the first read's size,
// WithResponseInto's copy): encoding/json's *UnmarshalTypeError or
// *SyntaxError, which a caller can name with errors.As, under a message
// naming the route.
func TestDecodeFailureSameForEveryFraming(t *testing.T) {
	t.Parallel()
	isType := func(err error) bool { _, ok := errors.AsType[*json.UnmarshalTypeError](err); return ok }
	isSyntax := func(err error) bool { _, ok := errors.AsType[*json.SyntaxError](err); return ok }
	for _, tc := range []struct {
		name, body string
		want       func(error) bool
	}{
		{"wrong type", `{"id":5}`, isType},
		{"trailing junk", `{"id":"a"} junk`, isSyntax},
		{"cut short", `{"id":"a"`, isSyntax},
	} {
		var first string
		for _, framing := range []struct {
			name   string
			length int64
			keep   bool
		}{
			{"declared length", int64(len(tc.body)), false},
			{"unknown length", -1, false},
			{"declared over the first read", sizedFirstRead + 1, false},
			{"response kept", int64(len(tc.body)), true},
			{"response kept, unknown length", -1, true},
		} {
			body := tc.body
			if framing.length > 0 {
				// White space up to the declared length: a longer body,
				// which decodes (or fails) as the short one.
				body += strings.Repeat(" ", int(framing.length)-len(body))
			}
			rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
					ContentLength: framing.length, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
			})
			tr, _ := newTestTransport(t, rt)
			ctx := t.Context()
			if framing.keep {
				ctx = WithOptions(ctx, []option.RequestOption{option.WithResponseInto(new(option.Response))})
			}
			var got struct {
				ID string `json:"id"`
			}
			err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/things/1"}, &got)
			if err == nil || !tc.want(err) || !strings.Contains(err.Error(), "GET /things/1: decoding response: ") {
				t.Errorf("%s, %s: err %v (%T cause); want encoding/json's error under the route", tc.name, framing.name, err, errors.Unwrap(err))
				continue
			}
			if first == "" {
				first = err.Error()
			} else if err.Error() != first {
				t.Errorf("%s, %s: %q; the declared length gave %q", tc.name, framing.name, err, first)
			}
		}
	}
}

// The exception docs/sdk.md names: a body encoding/json accepts but the
// SDK's decoder refuses (a member name matching two fields only
// case-insensitively) is still an error under the route, wrapping that
// decoder's error, not one of encoding/json's.
func TestDecodeFailureEncodingJSONAccepts(t *testing.T) {
	t.Parallel()
	const body = `{"NAME":"b"}`
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return jsonAnswer(r, http.StatusOK, body, nil), nil
	})
	tr, _ := newTestTransport(t, rt)
	type pair struct {
		Lower string `json:"name"`
		Upper string `json:"Name"`
	}
	if json.Unmarshal([]byte(body), &pair{}) != nil {
		t.Fatal("encoding/json refuses the body: the case is not the exception")
	}
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/things/1"}, &pair{})
	_, typeErr := errors.AsType[*json.UnmarshalTypeError](err)
	_, syntaxErr := errors.AsType[*json.SyntaxError](err)
	if err == nil || typeErr || syntaxErr || !strings.Contains(err.Error(), "GET /things/1: decoding response: ") {
		t.Errorf("err = %v (%T cause); want the SDK decoder's error under the route", err, errors.Unwrap(err))
	}
}

// heldReader is a body that hands over its bytes (heldBody).
type heldReader struct {
	*strings.Reader
	all string
}

func (h *heldReader) TakeBytes() []byte {
	rest := h.all[len(h.all)-h.Len():]
	h.Reset("")
	return []byte(rest)
}

func (*heldReader) Close() error { return nil }

// A success that is not JSON at all (a web app's HTML page, a base URL
// without /api/v1) names its type; a JSON one that will not decode does
// not guess.
func TestDecodeErrorNamesNonJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ ct, body, want string }{
		{"text/html; charset=utf-8", "<!doctype html><p>hi</p>", `it is "text/html; charset=utf-8", not JSON (is the base URL the API's`},
		{"application/json", `{"id":`, "decoding response: unexpected"},
		{"text/json", `{"id":`, "decoding response: unexpected"},
	} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", tt.ct)
			_, _ = io.WriteString(w, tt.body)
		}))
		tr, _ := newTestTransport(t, hs.Client().Transport, func(c *Config) { c.BaseURL = hs.URL })
		var out struct{ ID string }
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me"}, &out)
		hs.Close()
		if err == nil || !strings.Contains(err.Error(), tt.want) || (strings.Contains(tt.ct, "json") && strings.Contains(err.Error(), "not JSON")) {
			t.Errorf("%s: err = %v; want %q", tt.ct, err, tt.want)
		}
	}
}
