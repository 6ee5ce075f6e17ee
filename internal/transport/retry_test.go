package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Network failures as net/http reports them.
var (
	errRefused = &net.OpError{Op: "dial", Net: "tcp",
		Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	errDialTimeout = &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	errDNS         = &net.DNSError{Err: "no such host", Name: "api.example.test", IsNotFound: true}
	errReset       = &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}
	errBareRefused = syscall.ECONNREFUSED
	errGeneric     = errors.New("connection reset by peer")
)

// TestRetryByClass runs every failure kind against every operation class and
// asserts the exact number of attempts (MaxRetries is 3: 4 when retried).
func TestRetryByClass(t *testing.T) {
	t.Parallel()
	type failure struct {
		name string
		r    reply
		// retried by class: read (and idempotent, and write with a key),
		// write without a key.
		read, write bool
	}
	failures := []failure{
		{"network reset", reply{err: errReset}, true, false},
		{"network generic", reply{err: errGeneric}, true, false},
		{"unexpected EOF", reply{err: io.ErrUnexpectedEOF}, true, false},
		{"connection refused", reply{err: errRefused}, true, true},
		{"bare ECONNREFUSED", reply{err: errBareRefused}, true, true},
		{"dial timeout", reply{err: errDialTimeout}, true, true},
		{"DNS failure", reply{err: errDNS}, true, true},
		{"429", envelope(429, shared.CodeRateLimited), true, true},
		{"429 without envelope", status(429), true, true},
		{"429 concurrent run limit", reply{status: 429,
			body: `{"code":"RATE_LIMITED","message":"m","details":{"reason":"CONCURRENT_RUN_LIMIT"}}`}, false, false},
		{"500", envelope(500, shared.CodeInternal), true, false},
		{"502", envelope(502, shared.CodeServerUnreachable), true, false},
		{"503", status(503), true, false},
		{"504", envelope(504, shared.CodeTimeout), true, false},
		{"400", envelope(400, shared.CodeValidation), false, false},
		{"401", envelope(401, shared.CodeUnauthorized), false, false},
		{"401 oauth", envelope(401, shared.CodeOAuthRequired), false, false},
		{"403", envelope(403, shared.CodeForbidden), false, false},
		{"404", envelope(404, shared.CodeNotFound), false, false},
		{"409", envelope(409, shared.CodeConflict), false, false},
		{"422", envelope(422, shared.CodeFeatureNotSupported), false, false},
		{"501", status(501), false, false},
	}
	classes := []struct {
		name  string
		class Class
		key   bool
	}{
		{"read", Read, false},
		{"write", Write, false},
		{"write with idempotency key", Write, true},
		{"idempotent", Idempotent, false},
	}
	for _, c := range classes {
		for _, f := range failures {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				retried := f.read
				if c.class == Write && !c.key {
					retried = f.write
				}
				wantAttempts := 1
				if retried {
					wantAttempts = 4
				}
				method := http.MethodPost
				if c.class == Read {
					method = http.MethodGet
				}
				mock, s := mockRoute(t, method, "/things", f.r)
				tr, sl := newTestTransport(t, mock)
				req := &Request{Method: method, Route: "/things", Class: c.class, IdempotencyKey: c.key}
				if method == http.MethodPost {
					req.Body = map[string]string{"name": "x"}
				}
				err := tr.Do(t.Context(), req, nil)
				if err == nil {
					t.Fatal("Do succeeded")
				}

				reqs := s.requests()
				if len(reqs) != wantAttempts {
					t.Fatalf("attempts = %d, want %d (err %v)", len(reqs), wantAttempts, err)
				}
				if n := len(sl.all()); n != wantAttempts-1 {
					t.Errorf("sleeps = %d, want %d", n, wantAttempts-1)
				}
				for i, r := range reqs {
					if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
						t.Errorf("attempt %d: Authorization %q", i+1, got)
					}
					got, present := r.Header[RetryCountHeader]
					switch {
					case i == 0 && present:
						t.Errorf("first attempt carries %s %q", RetryCountHeader, got)
					case i > 0 && (len(got) != 1 || got[0] != strconv.Itoa(i)):
						t.Errorf("attempt %d: %s = %q, want %d", i+1, RetryCountHeader, got, i)
					}
				}

				if f.r.err != nil {
					if !errors.Is(err, f.r.err) {
						t.Errorf("err = %v, want it to wrap %v", err, f.r.err)
					}
					if _, ok := apierr.As(err); ok {
						t.Errorf("network failure reported as *shared.Error: %v", err)
					}
					return
				}
				e, ok := apierr.As(err)
				if !ok {
					t.Fatalf("err = %v, want *shared.Error", err)
				}
				if e.StatusCode != f.r.status {
					t.Errorf("StatusCode = %d, want %d", e.StatusCode, f.r.status)
				}
				// The last attempt's error is returned.
				if want := fmt.Sprintf("req-%d", wantAttempts); e.RequestID != want {
					t.Errorf("RequestID = %q, want %q (the last attempt's)", e.RequestID, want)
				}
			})
		}
	}
}

func TestRetryThenSucceed(t *testing.T) {
	t.Parallel()
	mock, s := mockRoute(t, http.MethodGet, "/me", reply{err: errReset}, status(503), envelope(429, shared.CodeRateLimited),
		reply{status: 200, body: `{"id":"u1"}`})
	tr, sl := newTestTransport(t, mock)
	var out struct{ ID string }
	if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me"}, &out); err != nil {
		t.Fatal(err)
	}
	if out.ID != "u1" || len(s.requests()) != 4 || len(sl.all()) != 3 {
		t.Errorf("out %+v after %d attempts and %d sleeps; want u1 after 4 and 3", out, len(s.requests()), len(sl.all()))
	}
}

func TestMaxRetries(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 5} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			t.Parallel()
			mock, s := mockRoute(t, http.MethodGet, "/me", status(500))
			tr, _ := newTestTransport(t, mock, func(c *Config) { c.MaxRetries = n })
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me"}, nil)
			if !errors.Is(err, &shared.Error{StatusCode: 500}) {
				t.Errorf("err = %v, want the 500", err)
			}
			if got := len(s.requests()); got != n+1 {
				t.Errorf("attempts = %d, want %d", got, n+1)
			}
		})
	}
}

var hexKey = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	mock, s := mockRoute(t, http.MethodPost, "/projects/p/eval-runs", status(503), reply{err: errReset}, reply{status: 202, body: `{}`})
	tr, _ := newTestTransport(t, mock)
	req := &Request{Method: http.MethodPost, Route: "/projects/{projectId}/eval-runs", Params: []string{"p"},
		Body: map[string]string{"suiteId": "s"}, Class: Write, IdempotencyKey: true}
	if err := tr.Do(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	if err := tr.Do(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(reqs) != 4 {
		t.Fatalf("attempts = %d, want 3 for the first call and 1 for the second", len(reqs))
	}
	keys := make([]string, len(reqs))
	for i, r := range reqs {
		keys[i] = r.Header.Get(IdempotencyHeader)
		if !hexKey.MatchString(keys[i]) {
			t.Errorf("attempt %d: Idempotency-Key %q, want 32 hex digits", i+1, keys[i])
		}
		// The same key in the prefixed spelling, the one POST /eval-runs reads.
		if p := r.Header.Values(PrefixedIdempotencyHeader); len(p) != 1 || p[0] != keys[i] {
			t.Errorf("attempt %d: X-Mcpjam-Idempotency-Key %q, want %q", i+1, p, keys[i])
		}
	}
	if keys[0] != keys[1] || keys[1] != keys[2] {
		t.Errorf("key changed across attempts of one call: %q", keys[:3])
	}
	if keys[3] == keys[0] {
		t.Errorf("second call reused the first call's key %q", keys[0])
	}
}

// A caller's key makes a write retryable only on a route the service
// deduplicates by it; elsewhere it is sent and the write is not re-sent
// after an answer that says it may have run.
func TestCallerKeyRetriesOnlyWhereDeduplicated(t *testing.T) {
	t.Parallel()
	for _, dedup := range []bool{true, false} {
		mock, s := mockRoute(t, http.MethodPost, "/projects/p/things", status(504), reply{status: 200, body: `{}`})
		tr, _ := newTestTransport(t, mock)
		req := &Request{Method: http.MethodPost, Route: "/projects/{projectId}/things", Params: []string{"p"},
			Body: map[string]string{}, Class: Write, IdempotencyKey: dedup}
		ctx := WithOptions(t.Context(), []option.RequestOption{option.WithIdempotencyKey("caller-key")})
		err := tr.Do(ctx, req, nil)
		reqs := s.requests()
		want := 1
		if dedup {
			want = 2
		}
		if len(reqs) != want || (err == nil) != dedup {
			t.Errorf("dedup %v: %d attempts, err %v; want %d", dedup, len(reqs), err, want)
		}
		// Idempotency-Key (which net/http takes as leave to re-send the
		// request itself) only where a repeat is safe.
		for _, r := range reqs {
			plain := r.Header.Get(IdempotencyHeader)
			if r.Header.Get(PrefixedIdempotencyHeader) != "caller-key" || dedup && plain != "caller-key" || !dedup && plain != "" {
				t.Errorf("dedup %v: keys %q, %q", dedup, plain, r.Header.Get(PrefixedIdempotencyHeader))
			}
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	const base = 100 * time.Millisecond // newTestTransport's BaseDelay
	tests := []struct {
		name  string
		class Class
		first reply
		// wantSleep is the Retry-After waited (plus its jitter); when
		// zero, the delay must lie in [min, max].
		wantSleep time.Duration
		min, max  time.Duration
		// capped: the call returns after one attempt with RetryAfter set.
		capped         bool
		wantRetryAfter time.Duration
		// dateIn, when set, makes first's Retry-After an HTTP date this
		// far ahead, written as the subtest runs: a parallel subtest may
		// start seconds after the table is built.
		dateIn time.Duration
	}{
		{name: "seconds", class: Read, first: raReply(429, "2"), wantSleep: 2 * time.Second},
		{name: "seconds on 503", class: Read, first: raReply(503, "7"), wantSleep: 7 * time.Second},
		{name: "seconds on a write's 429", class: Write, first: raReply(429, "3"), wantSleep: 3 * time.Second},
		{name: "padded seconds", class: Read, first: raReply(429, " 4 "), wantSleep: 4 * time.Second},
		{name: "zero retries at once", class: Read, first: raReply(429, "0"), min: 0, max: 0},
		{name: "equal to the cap waits", class: Read, first: raReply(429, "60"), wantSleep: 60 * time.Second},
		{name: "HTTP date", class: Read, dateIn: 10 * time.Second,
			min: 8 * time.Second, max: 10 * time.Second * 5 / 4},
		{name: "HTTP date in the past", class: Read, first: raReply(429, "Mon, 02 Jan 2006 15:04:05 GMT"), min: 0, max: 0},
		{name: "unparsable falls back to backoff", class: Read, first: raReply(429, "soon"), min: base / 2, max: base * 3 / 2},
		{name: "fractional seconds", class: Read, first: raReply(429, "1.5"), wantSleep: 1500 * time.Millisecond},
		{name: "a fraction only", class: Read, first: raReply(429, ".25"), wantSleep: 250 * time.Millisecond},
		{name: "two points fall back to backoff", class: Read, first: raReply(429, "1.5.2"), min: base / 2, max: base * 3 / 2},
		{name: "exponent falls back to backoff", class: Read, first: raReply(429, "1e3"), min: base / 2, max: base * 3 / 2},
		{name: "negative falls back to backoff", class: Read, first: raReply(503, "-3"), min: base / 2, max: base * 3 / 2},
		{name: "above the cap", class: Read, first: raReply(429, "61"), capped: true, wantRetryAfter: 61 * time.Second},
		{name: "date above the cap", class: Write, first: raReply(429, time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)), capped: true},
		{name: "overflowing seconds", class: Read, first: raReply(429, "9999999999999"), capped: true, wantRetryAfter: math.MaxInt64},
		{name: "seconds beyond int64", class: Read, first: raReply(429, "99999999999999999999999"), capped: true, wantRetryAfter: math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			method := http.MethodGet
			if tt.class != Read {
				method = http.MethodPost
			}
			first := tt.first
			if tt.dateIn != 0 {
				first = raReply(429, time.Now().Add(tt.dateIn).UTC().Format(http.TimeFormat))
			}
			mock, s := mockRoute(t, method, "/r", first, reply{status: 200, body: `{}`})
			tr, sl := newTestTransport(t, mock, func(c *Config) { c.MaxRetryAfter = time.Minute })
			err := tr.Do(t.Context(), &Request{Method: method, Route: "/r", Class: tt.class}, nil)
			if tt.capped {
				e, ok := apierr.As(err)
				if !ok {
					t.Fatalf("err = %v, want the typed error", err)
				}
				if e.RetryAfter <= time.Minute || (tt.wantRetryAfter != 0 && e.RetryAfter != tt.wantRetryAfter) {
					t.Errorf("RetryAfter = %s, want %s (above the cap)", e.RetryAfter, tt.wantRetryAfter)
				}
				if n := len(s.requests()); n != 1 {
					t.Errorf("attempts = %d, want 1", n)
				}
				if d := sl.all(); len(d) != 0 {
					t.Errorf("slept %v", d)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(s.requests()); n != 2 {
				t.Errorf("attempts = %d, want 2", n)
			}
			d := sl.all()
			if len(d) != 1 {
				t.Fatalf("sleeps = %v, want one", d)
			}
			if tt.wantSleep != 0 {
				// Retry-After plus up to a quarter of it, within the cap.
				if hi := min(tt.wantSleep+tt.wantSleep/4, time.Minute); d[0] < tt.wantSleep || d[0] > hi {
					t.Errorf("slept %s, want within [%s, %s]", d[0], tt.wantSleep, hi)
				}
			} else if d[0] < tt.min || d[0] > tt.max {
				t.Errorf("slept %s, want within [%s, %s]", d[0], tt.min, tt.max)
			}
		})
	}
}

func raReply(code int, ra string) reply {
	return reply{status: code, header: map[string]string{"Retry-After": ra}}
}

// TestRetryAfterOnLastAttempt: when retries are exhausted the error carries
// RetryAfter so the caller can wait it out.
func TestRetryAfterOnLastAttempt(t *testing.T) {
	t.Parallel()
	mock, s := mockRoute(t, http.MethodGet, "/r", raReply(429, "5"))
	tr, sl := newTestTransport(t, mock, func(c *Config) { c.MaxRetries = 2 })
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/r"}, nil)
	e, ok := apierr.As(err)
	if !ok || e.RetryAfter != 5*time.Second || e.StatusCode != 429 {
		t.Fatalf("err = %v, want a 429 with RetryAfter 5s", err)
	}
	if d := sl.all(); len(d) != 2 || d[0] < 5*time.Second || d[1] < 5*time.Second || max(d[0], d[1]) > 5*time.Second+5*time.Second/4 {
		t.Errorf("sleeps %v, want two of 5s plus its jitter", d)
	}
	if n := len(s.requests()); n != 3 {
		t.Errorf("attempts = %d, want 3", n)
	}
}

// TestMaxRetryAfterZero: a transport that waits for no Retry-After still
// honours "Retry-After: 0" and returns anything longer.
func TestMaxRetryAfterZero(t *testing.T) {
	t.Parallel()
	mock, s := mockRoute(t, http.MethodGet, "/r", raReply(429, "0"), raReply(429, "1"))
	tr, sl := newTestTransport(t, mock, func(c *Config) { c.MaxRetryAfter = -1 })
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/r"}, nil)
	if e, ok := apierr.As(err); !ok || e.RetryAfter != time.Second {
		t.Fatalf("err = %v, want the 429 with RetryAfter 1s", err)
	}
	if n := len(s.requests()); n != 2 {
		t.Errorf("attempts = %d, want 2", n)
	}
	if diff := cmp.Diff([]time.Duration{0}, sl.all()); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"   ", 0, false},
		{"0", 0, true},
		{"1", time.Second, true},
		{" 120 ", 2 * time.Minute, true},
		{"-1", 0, false},
		{"1.5", 1500 * time.Millisecond, true},
		{"0.001", time.Millisecond, true},
		{"1.", time.Second, true},
		{"-1.5", 0, false},
		{".", 0, false},
		{"1e3", 0, false},
		{"soon", 0, false},
		{"9223372036", 9223372036 * time.Second, true},
		{"9223372037", math.MaxInt64, true},
		{"99999999999999999999", math.MaxInt64, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(90 * time.Second).Format(time.RFC850), 90 * time.Second, true},
		{now.Add(90 * time.Second).Format(time.ANSIC), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"Sun, 01 Mar 2026 12:00:00", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

// nominal is the un-jittered delay before retry n (0-based).
func nominal(base, max time.Duration, n int) time.Duration {
	d := base
	for range n {
		d *= 2
		if d >= max {
			return max
		}
	}
	return d
}

func TestBackoffJitter(t *testing.T) {
	t.Parallel()
	const base, max = 100 * time.Millisecond, 1600 * time.Millisecond
	tr := New(Config{BaseDelay: base, MaxDelay: max})
	const retries, samples = 8, 300
	byRetry := make([]map[time.Duration]bool, retries)
	for i := range byRetry {
		byRetry[i] = map[time.Duration]bool{}
	}
	for range samples {
		bo := tr.newBackOff()
		for n := range retries {
			d := bo.NextBackOff()
			nom := nominal(base, max, n)
			lo, hi := nom/2, nom*3/2
			if d < lo || d > hi {
				t.Fatalf("retry %d: delay %s outside [%s, %s]", n, d, lo, hi)
			}
			if d > max*3/2 {
				t.Fatalf("retry %d: delay %s above 1.5 × MaxDelay", n, d)
			}
			byRetry[n][d] = true
		}
	}
	for n, seen := range byRetry {
		if len(seen) < samples/2 {
			t.Errorf("retry %d: only %d distinct delays in %d samples; jitter missing", n, len(seen), samples)
		}
	}
}

// TestBackoffPerCall checks the delays Do asks for grow per retry and start
// over on each call (one BackOff per call).
func TestBackoffPerCall(t *testing.T) {
	t.Parallel()
	const base, max = 100 * time.Millisecond, time.Second
	mock, _ := mockRoute(t, http.MethodGet, "/r", status(503))
	tr, sl := newTestTransport(t, mock, func(c *Config) { c.MaxRetries = 6 })
	for range 2 {
		_ = tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/r"}, nil)
	}
	d := sl.all()
	if len(d) != 12 {
		t.Fatalf("sleeps = %d, want 12", len(d))
	}
	for i, got := range d {
		nom := nominal(base, max, i%6)
		if got < nom/2 || got > nom*3/2 {
			t.Errorf("call %d retry %d: delay %s outside [%s, %s]", i/6+1, i%6, got, nom/2, nom*3/2)
		}
	}
}

func TestNotSent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want bool
	}{
		{errRefused, true},
		{errBareRefused, true},
		{fmt.Errorf("wrapped: %w", errRefused), true},
		{errDialTimeout, true},
		{errDNS, true},
		{errReset, false},
		{errGeneric, false},
		{io.ErrUnexpectedEOF, false},
		{context.DeadlineExceeded, false},
		{&net.OpError{Op: "write", Net: "tcp", Err: syscall.EPIPE}, false},
	}
	for _, tt := range tests {
		if got := NotSent(tt.err); got != tt.want {
			t.Errorf("NotSent(%v) = %v, want %v", tt.err, got, tt.want)
		}
		if !retryableNetErr(Read, false, tt.err) || !retryableNetErr(Idempotent, false, tt.err) || !retryableNetErr(Write, true, tt.err) {
			t.Errorf("retryableNetErr(%v) false for a retry-safe class", tt.err)
		}
		if got := retryableNetErr(Write, false, tt.err); got != tt.want {
			t.Errorf("retryableNetErr(Write, %v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// A RoundTripper's failure marked backoff.Permanent is not retried, a
// read's either; the error still unwraps to the cause.
func TestPermanentTransportErrorNotRetried(t *testing.T) {
	t.Parallel()
	cause := errors.New("the double is closed")
	var attempts atomic.Int32
	rt := roundTripFunc(func(*http.Request) (*http.Response, error) {
		attempts.Add(1)
		return nil, backoff.Permanent(cause)
	})
	tr, _ := newTestTransport(t, rt)
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me"}, nil)
	if !errors.Is(err, cause) || attempts.Load() != 1 {
		t.Errorf("Do = %v after %d attempts; want the cause after 1", err, attempts.Load())
	}
}

// NotSent takes net/http's HTTP/2 "cannot retry" error as proof only for a
// cause by which the peer promised the stream was not processed.
func TestNotSentHTTP2Causes(t *testing.T) {
	t.Parallel()
	const pre = "Post \"https://api.example.test/api/v1/x\": http2: Transport: cannot retry err ["
	const post = "] after Request.Body was written; define Request.GetBody to avoid this error"
	for cause, want := range map[string]bool{
		"stream error: stream ID 1; REFUSED_STREAM; received from peer": true,
		"stream error: stream ID 3; REFUSED_STREAM":                     true,
		"http2: Transport received Server's graceful shutdown GOAWAY":   true,
		"http2: client conn not usable":                                 true,
		"stream error: stream ID 1; PROTOCOL_ERROR; received from peer": false,
		"something else": false,
	} {
		if got := NotSent(errors.New(pre + cause + post)); got != want {
			t.Errorf("NotSent(%q) = %v, want %v", cause, got, want)
		}
	}
	if NotSent(errors.New("stream error: stream ID 1; REFUSED_STREAM; received from peer")) {
		t.Error("a bare stream error (net/http re-sent nothing, or could not say) counted as not sent")
	}
}
