package apierr_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/internal/apierr"
)

func TestCodeStatus(t *testing.T) {
	t.Parallel()
	want := map[apierr.Code]int{
		apierr.CodeUnauthorized:        http.StatusUnauthorized,
		apierr.CodeOAuthRequired:       http.StatusUnauthorized,
		apierr.CodeForbidden:           http.StatusForbidden,
		apierr.CodeValidation:          http.StatusBadRequest,
		apierr.CodeNotFound:            http.StatusNotFound,
		apierr.CodeConflict:            http.StatusConflict,
		apierr.CodeFeatureNotSupported: http.StatusUnprocessableEntity,
		apierr.CodeRateLimited:         http.StatusTooManyRequests,
		apierr.CodeServerUnreachable:   http.StatusBadGateway,
		apierr.CodeTimeout:             http.StatusGatewayTimeout,
		apierr.CodeInternal:            http.StatusInternalServerError,
	}
	got := map[apierr.Code]int{}
	for _, c := range apierr.Codes {
		if _, dup := got[c]; dup {
			t.Errorf("Codes lists %s twice", c)
		}
		got[c] = c.Status()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Code.Status over Codes (-want +got):\n%s", diff)
	}
	for _, c := range []apierr.Code{"", "SOMETHING_NEW", "not_found"} {
		if s := c.Status(); s != 0 {
			t.Errorf("Code(%q).Status() = %d, want 0", c, s)
		}
	}
}

func TestFromBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   apierr.Body
		want   *apierr.Error
	}{
		{
			name:   "no details",
			status: 404,
			body:   apierr.Body{Code: apierr.CodeNotFound, Message: "no such project"},
			want:   &apierr.Error{StatusCode: 404, Code: apierr.CodeNotFound, Message: "no such project"},
		},
		{
			name:   "reason",
			status: 401,
			body: apierr.Body{Code: apierr.CodeUnauthorized, Message: "orphaned",
				Details: map[string]any{"reason": "ORPHANED_KEY"}},
			want: &apierr.Error{StatusCode: 401, Code: apierr.CodeUnauthorized, Message: "orphaned",
				Details: map[string]any{"reason": "ORPHANED_KEY"}, Reason: apierr.ReasonOrphanedKey},
		},
		{
			name:   "hosted models, non-strings skipped",
			status: 400,
			body: apierr.Body{Code: apierr.CodeValidation, Message: "bad model",
				Details: map[string]any{"hostedModels": []any{"a", 7.0, "b", nil}}},
			want: &apierr.Error{StatusCode: 400, Code: apierr.CodeValidation, Message: "bad model",
				Details:      map[string]any{"hostedModels": []any{"a", 7.0, "b", nil}},
				HostedModels: []string{"a", "b"}},
		},
		{
			name:   "reason of the wrong type ignored",
			status: 404,
			body: apierr.Body{Code: apierr.CodeNotFound,
				Details: map[string]any{"reason": 42.0, "hostedModels": "a"}},
			want: &apierr.Error{StatusCode: 404, Code: apierr.CodeNotFound,
				Details: map[string]any{"reason": 42.0, "hostedModels": "a"}},
		},
		{
			name:   "unknown code kept as-is",
			status: 418,
			body:   apierr.Body{Code: "TEAPOT", Message: "short and stout"},
			want:   &apierr.Error{StatusCode: 418, Code: "TEAPOT", Message: "short and stout"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := apierr.FromBody(tt.status, tt.body)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("FromBody (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  *apierr.Error
		want string
	}{
		{"nil", nil, "projectops: <nil error>"},
		{"empty", &apierr.Error{}, "projectops: error"},
		{"client side", apierr.Invalid("projectId", "projectId is required"),
			"projectops: VALIDATION_ERROR: projectId is required"},
		{"full", &apierr.Error{StatusCode: 429, Code: apierr.CodeRateLimited, Reason: apierr.ReasonConcurrentRunLimit,
			Message: "slow down", RetryAfter: 3 * time.Second, RequestID: "req_1", Method: "POST", Path: "/projects/p/eval-runs"},
			"projectops: POST /projects/p/eval-runs: 429 RATE_LIMITED (CONCURRENT_RUN_LIMIT): slow down (retry after 3s) [request req_1]"},
		{"status without code", &apierr.Error{StatusCode: 502, Method: "GET", Path: "/me"},
			"projectops: GET /me: 502 error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestErrorNilInterface checks that a typed nil *Error is safe to print
// through the error interface.
func TestErrorNilInterface(t *testing.T) {
	t.Parallel()
	var e *apierr.Error
	var err error = e
	if got := fmt.Sprint(err); got != "projectops: <nil error>" {
		t.Errorf("fmt.Sprint(typed nil) = %q", got)
	}
	if e.Temporary() {
		t.Error("nil.Temporary() = true")
	}
	if e.Is(apierr.ErrNotFound) {
		t.Error("nil.Is(ErrNotFound) = true")
	}
}

var codeSentinels = map[apierr.Code]error{
	apierr.CodeUnauthorized:        apierr.ErrUnauthorized,
	apierr.CodeOAuthRequired:       apierr.ErrOAuthRequired,
	apierr.CodeForbidden:           apierr.ErrForbidden,
	apierr.CodeValidation:          apierr.ErrValidation,
	apierr.CodeNotFound:            apierr.ErrNotFound,
	apierr.CodeConflict:            apierr.ErrConflict,
	apierr.CodeFeatureNotSupported: apierr.ErrFeatureNotSupported,
	apierr.CodeRateLimited:         apierr.ErrRateLimited,
	apierr.CodeServerUnreachable:   apierr.ErrServerUnreachable,
	apierr.CodeTimeout:             apierr.ErrTimeout,
	apierr.CodeInternal:            apierr.ErrInternal,
}

var reasonSentinels = map[apierr.Reason]error{
	apierr.ReasonOrphanedKey:            apierr.ErrOrphanedKey,
	apierr.ReasonTraceNotAvailable:      apierr.ErrTraceNotAvailable,
	apierr.ReasonNoSavedServerSelection: apierr.ErrNoSavedServerSelection,
	apierr.ReasonConcurrentRunLimit:     apierr.ErrConcurrentRunLimit,
}

func TestIsCodeSentinels(t *testing.T) {
	t.Parallel()
	if len(codeSentinels) != len(apierr.Codes) {
		t.Fatalf("test covers %d code sentinels, Codes has %d", len(codeSentinels), len(apierr.Codes))
	}
	for _, code := range apierr.Codes {
		t.Run(string(code), func(t *testing.T) {
			t.Parallel()
			e := &apierr.Error{StatusCode: code.Status(), Code: code, Message: "m", Method: "GET", Path: "/x"}
			wrapped := fmt.Errorf("outer: %w", fmt.Errorf("inner: %w", e))
			for other, sentinel := range codeSentinels {
				want := other == code
				if got := errors.Is(e, sentinel); got != want {
					t.Errorf("errors.Is(%s error, sentinel %s) = %v, want %v", code, other, got, want)
				}
				if got := errors.Is(wrapped, sentinel); got != want {
					t.Errorf("errors.Is(wrapped %s error, sentinel %s) = %v, want %v", code, other, got, want)
				}
			}
			for r, sentinel := range reasonSentinels {
				if errors.Is(e, sentinel) {
					t.Errorf("errors.Is(%s error without reason, %s) = true", code, r)
				}
			}
		})
	}
}

func TestIsReasonSentinels(t *testing.T) {
	t.Parallel()
	for reason := range reasonSentinels {
		t.Run(string(reason), func(t *testing.T) {
			t.Parallel()
			e := &apierr.Error{StatusCode: 404, Code: apierr.CodeNotFound, Reason: reason}
			wrapped := fmt.Errorf("ctx: %w", e)
			for other, sentinel := range reasonSentinels {
				want := other == reason
				if got := errors.Is(wrapped, sentinel); got != want {
					t.Errorf("errors.Is(%s, %s) = %v, want %v", reason, other, got, want)
				}
			}
			// The code sentinel still matches alongside the reason one.
			if !errors.Is(wrapped, apierr.ErrNotFound) {
				t.Error("errors.Is(reasoned NOT_FOUND, ErrNotFound) = false")
			}
		})
	}
}

func TestIsNonMatches(t *testing.T) {
	t.Parallel()
	e := &apierr.Error{StatusCode: 404, Code: apierr.CodeNotFound, Reason: apierr.ReasonTraceNotAvailable}
	tests := []struct {
		name   string
		target error
		want   bool
	}{
		{"empty target matches nothing", &apierr.Error{}, false},
		{"message-only target", &apierr.Error{Message: "m"}, false},
		{"nil *Error target", (*apierr.Error)(nil), false},
		{"other error type", io.EOF, false},
		{"code plus wrong reason", &apierr.Error{Code: apierr.CodeNotFound, Reason: apierr.ReasonOrphanedKey}, false},
		{"code plus right reason", &apierr.Error{Code: apierr.CodeNotFound, Reason: apierr.ReasonTraceNotAvailable}, true},
		{"status only", &apierr.Error{StatusCode: 404}, true},
		{"wrong status", &apierr.Error{StatusCode: 400}, false},
		{"code with wrong status", &apierr.Error{Code: apierr.CodeNotFound, StatusCode: 410}, false},
		{"itself", e, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := errors.Is(e, tt.target); got != tt.want {
				t.Errorf("errors.Is = %v, want %v", got, tt.want)
			}
		})
	}
	if errors.Is(io.EOF, apierr.ErrNotFound) {
		t.Error("errors.Is(io.EOF, ErrNotFound) = true")
	}
}

func TestAs(t *testing.T) {
	t.Parallel()
	orig := &apierr.Error{StatusCode: 409, Code: apierr.CodeConflict, RequestID: "r1"}
	for name, err := range map[string]error{
		"direct":    orig,
		"fmt wraps": fmt.Errorf("a: %w", fmt.Errorf("b: %w", orig)),
		"joined":    errors.Join(io.EOF, fmt.Errorf("c: %w", orig)),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var e *apierr.Error
			if !errors.As(err, &e) || e != orig {
				t.Errorf("errors.As = %v (%p), want the original %p", e, e, orig)
			}
			got, ok := apierr.As(err)
			if !ok || got != orig {
				t.Errorf("apierr.As = %v, %v; want the original", got, ok)
			}
		})
	}
	if e, ok := apierr.As(io.EOF); ok || e != nil {
		t.Errorf("apierr.As(io.EOF) = %v, %v; want nil, false", e, ok)
	}
	if e, ok := apierr.As(nil); ok || e != nil {
		t.Errorf("apierr.As(nil) = %v, %v; want nil, false", e, ok)
	}
}

func TestTemporary(t *testing.T) {
	t.Parallel()
	temporary := map[apierr.Code]bool{
		apierr.CodeRateLimited:       true,
		apierr.CodeServerUnreachable: true,
		apierr.CodeTimeout:           true,
		apierr.CodeInternal:          true,
	}
	for _, code := range apierr.Codes {
		e := &apierr.Error{StatusCode: code.Status(), Code: code}
		if got := e.Temporary(); got != temporary[code] {
			t.Errorf("%s at %d: Temporary() = %v, want %v", code, code.Status(), got, temporary[code])
		}
		// The code decides for known codes, whatever the status says.
		e.StatusCode = http.StatusServiceUnavailable
		if got := e.Temporary(); got != temporary[code] {
			t.Errorf("%s at 503: Temporary() = %v, want %v", code, got, temporary[code])
		}
	}
	// Unknown codes (and no code at all): only the status decides.
	for _, code := range []apierr.Code{"SOMETHING_NEW", ""} {
		for status, want := range map[int]bool{
			0: false, 400: false, 401: false, 403: false, 404: false, 409: false, 418: false, 422: false,
			429: true, 500: true, 501: false, 502: true, 503: true, 504: true, 505: false,
		} {
			e := &apierr.Error{StatusCode: status, Code: code}
			if got := e.Temporary(); got != want {
				t.Errorf("code %q at %d: Temporary() = %v, want %v", code, status, got, want)
			}
		}
	}
}

func TestRetryableStatus(t *testing.T) {
	t.Parallel()
	for status := 100; status < 600; status++ {
		want := status == 429 || status == 500 || status == 502 || status == 503 || status == 504
		if got := apierr.RetryableStatus(status); got != want {
			t.Errorf("RetryableStatus(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestInvalid(t *testing.T) {
	t.Parallel()
	e := apierr.Invalid("hostId", "hostId is required")
	want := &apierr.Error{Code: apierr.CodeValidation, Message: "hostId is required",
		Details: map[string]any{"field": "hostId"}}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Invalid (-want +got):\n%s", diff)
	}
	if !errors.Is(e, apierr.ErrValidation) || e.Temporary() {
		t.Errorf("Invalid: Is(ErrValidation)=%v Temporary=%v", errors.Is(e, apierr.ErrValidation), e.Temporary())
	}
	if strings.Contains(e.Error(), "0 ") {
		t.Errorf("client-side error prints a status: %q", e.Error())
	}
}
