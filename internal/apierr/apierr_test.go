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
	"github.com/projectops/projectops-go/shared"
)

func TestCodeStatus(t *testing.T) {
	t.Parallel()
	want := map[shared.Code]int{
		shared.CodeUnauthorized:        http.StatusUnauthorized,
		shared.CodeOAuthRequired:       http.StatusUnauthorized,
		shared.CodeForbidden:           http.StatusForbidden,
		shared.CodeValidation:          http.StatusBadRequest,
		shared.CodeNotFound:            http.StatusNotFound,
		shared.CodeConflict:            http.StatusConflict,
		shared.CodeFeatureNotSupported: http.StatusUnprocessableEntity,
		shared.CodeRateLimited:         http.StatusTooManyRequests,
		shared.CodeServerUnreachable:   http.StatusBadGateway,
		shared.CodeTimeout:             http.StatusGatewayTimeout,
		shared.CodeInternal:            http.StatusInternalServerError,
	}
	got := map[shared.Code]int{}
	for _, c := range shared.Codes {
		if _, dup := got[c]; dup {
			t.Errorf("Codes lists %s twice", c)
		}
		got[c] = c.Status()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Code.Status over Codes (-want +got):\n%s", diff)
	}
	for _, c := range []shared.Code{"", "SOMETHING_NEW", "not_found"} {
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
		want   *shared.Error
	}{
		{
			name:   "no details",
			status: 404,
			body:   apierr.Body{Code: shared.CodeNotFound, Message: "no such project"},
			want:   &shared.Error{StatusCode: 404, Code: shared.CodeNotFound, Message: "no such project"},
		},
		{
			name:   "reason",
			status: 401,
			body: apierr.Body{Code: shared.CodeUnauthorized, Message: "orphaned",
				Details: map[string]any{"reason": "ORPHANED_KEY"}},
			want: &shared.Error{StatusCode: 401, Code: shared.CodeUnauthorized, Message: "orphaned",
				Details: map[string]any{"reason": "ORPHANED_KEY"}, Reason: shared.ReasonOrphanedKey},
		},
		{
			name:   "hosted models, non-strings skipped",
			status: 400,
			body: apierr.Body{Code: shared.CodeValidation, Message: "bad model",
				Details: map[string]any{"hostedModels": []any{"a", 7.0, "b", nil}}},
			want: &shared.Error{StatusCode: 400, Code: shared.CodeValidation, Message: "bad model",
				Details:      map[string]any{"hostedModels": []any{"a", 7.0, "b", nil}},
				HostedModels: []string{"a", "b"}},
		},
		{
			name:   "reason of the wrong type ignored",
			status: 404,
			body: apierr.Body{Code: shared.CodeNotFound,
				Details: map[string]any{"reason": 42.0, "hostedModels": "a"}},
			want: &shared.Error{StatusCode: 404, Code: shared.CodeNotFound, Message: "Not Found",
				Details: map[string]any{"reason": 42.0, "hostedModels": "a"}},
		},
		{
			// DecodeBody drops a message that is not a string: the
			// status text stands in for it.
			name:   "no message reads as the status text",
			status: 422,
			body:   apierr.Body{Code: shared.CodeFeatureNotSupported},
			want:   &shared.Error{StatusCode: 422, Code: shared.CodeFeatureNotSupported, Message: "Unprocessable Entity"},
		},
		{
			name:   "no message on 200 (ingest's ok:false) stays empty",
			status: 200,
			body:   apierr.Body{Code: shared.CodeValidation},
			want:   &shared.Error{StatusCode: 200, Code: shared.CodeValidation},
		},
		{
			name:   "unknown code kept as-is",
			status: 418,
			body:   apierr.Body{Code: "TEAPOT", Message: "short and stout"},
			want:   &shared.Error{StatusCode: 418, Code: "TEAPOT", Message: "short and stout"},
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
		err  *shared.Error
		want string
	}{
		{"nil", nil, "projectops: <nil error>"},
		{"empty", &shared.Error{}, "projectops: error"},
		{"client side", apierr.Invalid("projectId", "projectId is required"),
			"projectops: VALIDATION_ERROR: projectId is required"},
		{"full", &shared.Error{StatusCode: 429, Code: shared.CodeRateLimited, Reason: shared.ReasonConcurrentRunLimit,
			Message: "slow down", RetryAfter: 3 * time.Second, RequestID: "req_1", Method: "POST", Path: "/projects/p/eval-runs"},
			"projectops: POST /projects/p/eval-runs: 429 RATE_LIMITED (CONCURRENT_RUN_LIMIT): slow down (retry after 3s) [request req_1]"},
		{"status without code", &shared.Error{StatusCode: 502, Method: "GET", Path: "/me"},
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
	var e *shared.Error
	var err error = e
	if got := fmt.Sprint(err); got != "projectops: <nil error>" {
		t.Errorf("fmt.Sprint(typed nil) = %q", got)
	}
	if e.Temporary() {
		t.Error("nil.Temporary() = true")
	}
	if e.Is(shared.ErrNotFound) {
		t.Error("nil.Is(ErrNotFound) = true")
	}
}

var codeSentinels = map[shared.Code]error{
	shared.CodeUnauthorized:        shared.ErrUnauthorized,
	shared.CodeOAuthRequired:       shared.ErrOAuthRequired,
	shared.CodeForbidden:           shared.ErrForbidden,
	shared.CodeValidation:          shared.ErrValidation,
	shared.CodeNotFound:            shared.ErrNotFound,
	shared.CodeConflict:            shared.ErrConflict,
	shared.CodeFeatureNotSupported: shared.ErrFeatureNotSupported,
	shared.CodeRateLimited:         shared.ErrRateLimited,
	shared.CodeServerUnreachable:   shared.ErrServerUnreachable,
	shared.CodeTimeout:             shared.ErrTimeout,
	shared.CodeInternal:            shared.ErrInternal,
}

var reasonSentinels = map[shared.Reason]error{
	shared.ReasonOrphanedKey:            shared.ErrOrphanedKey,
	shared.ReasonTraceNotAvailable:      shared.ErrTraceNotAvailable,
	shared.ReasonNoSavedServerSelection: shared.ErrNoSavedServerSelection,
	shared.ReasonConcurrentRunLimit:     shared.ErrConcurrentRunLimit,
}

func TestIsCodeSentinels(t *testing.T) {
	t.Parallel()
	if len(codeSentinels) != len(shared.Codes) {
		t.Fatalf("test covers %d code sentinels, Codes has %d", len(codeSentinels), len(shared.Codes))
	}
	for _, code := range shared.Codes {
		t.Run(string(code), func(t *testing.T) {
			t.Parallel()
			e := &shared.Error{StatusCode: code.Status(), Code: code, Message: "m", Method: "GET", Path: "/x"}
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
			e := &shared.Error{StatusCode: 404, Code: shared.CodeNotFound, Reason: reason}
			wrapped := fmt.Errorf("ctx: %w", e)
			for other, sentinel := range reasonSentinels {
				want := other == reason
				if got := errors.Is(wrapped, sentinel); got != want {
					t.Errorf("errors.Is(%s, %s) = %v, want %v", reason, other, got, want)
				}
			}
			// The code sentinel still matches alongside the reason one.
			if !errors.Is(wrapped, shared.ErrNotFound) {
				t.Error("errors.Is(reasoned NOT_FOUND, ErrNotFound) = false")
			}
		})
	}
}

func TestIsNonMatches(t *testing.T) {
	t.Parallel()
	e := &shared.Error{StatusCode: 404, Code: shared.CodeNotFound, Reason: shared.ReasonTraceNotAvailable}
	tests := []struct {
		name   string
		target error
		want   bool
	}{
		{"empty target matches nothing", &shared.Error{}, false},
		{"message-only target", &shared.Error{Message: "m"}, false},
		{"nil *Error target", (*shared.Error)(nil), false},
		{"other error type", io.EOF, false},
		{"code plus wrong reason", &shared.Error{Code: shared.CodeNotFound, Reason: shared.ReasonOrphanedKey}, false},
		{"code plus right reason", &shared.Error{Code: shared.CodeNotFound, Reason: shared.ReasonTraceNotAvailable}, true},
		{"status only", &shared.Error{StatusCode: 404}, true},
		{"wrong status", &shared.Error{StatusCode: 400}, false},
		{"code with wrong status", &shared.Error{Code: shared.CodeNotFound, StatusCode: 410}, false},
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
	if errors.Is(io.EOF, shared.ErrNotFound) {
		t.Error("errors.Is(io.EOF, ErrNotFound) = true")
	}
}

func TestAs(t *testing.T) {
	t.Parallel()
	orig := &shared.Error{StatusCode: 409, Code: shared.CodeConflict, RequestID: "r1"}
	for name, err := range map[string]error{
		"direct":    orig,
		"fmt wraps": fmt.Errorf("a: %w", fmt.Errorf("b: %w", orig)),
		"joined":    errors.Join(io.EOF, fmt.Errorf("c: %w", orig)),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var e *shared.Error
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
	temporary := map[shared.Code]bool{
		shared.CodeRateLimited:       true,
		shared.CodeServerUnreachable: true,
		shared.CodeTimeout:           true,
		shared.CodeInternal:          true,
	}
	for _, code := range shared.Codes {
		e := &shared.Error{StatusCode: code.Status(), Code: code}
		if got := e.Temporary(); got != temporary[code] {
			t.Errorf("%s at %d: Temporary() = %v, want %v", code, code.Status(), got, temporary[code])
		}
		// The code decides for known codes, whatever the status says.
		e.StatusCode = http.StatusServiceUnavailable
		if got := e.Temporary(); got != temporary[code] {
			t.Errorf("%s at 503: Temporary() = %v, want %v", code, got, temporary[code])
		}
	}
	// INTERNAL_ERROR may pass without an error status (an ingest route's
	// 200 {ok: false}, a bare 0) and at the statuses the SDK retries.
	for status, want := range map[int]bool{0: true, 200: true, 500: true, 520: true, 501: false, 505: false, 400: false, 429: true} {
		if got := (&shared.Error{StatusCode: status, Code: shared.CodeInternal}).Temporary(); got != want {
			t.Errorf("INTERNAL_ERROR at %d: Temporary() = %v, want %v", status, got, want)
		}
	}
	// Unknown codes (and no code at all): only the status decides.
	for _, code := range []shared.Code{"SOMETHING_NEW", ""} {
		for status, want := range map[int]bool{
			0: false, 400: false, 401: false, 403: false, 404: false, 409: false, 418: false, 422: false,
			429: true, 500: true, 501: false, 502: true, 503: true, 504: true, 505: false,
		} {
			e := &shared.Error{StatusCode: status, Code: code}
			if got := e.Temporary(); got != want {
				t.Errorf("code %q at %d: Temporary() = %v, want %v", code, status, got, want)
			}
		}
	}
}

func TestRetryableStatus(t *testing.T) {
	t.Parallel()
	for status := 100; status < 600; status++ {
		want := status == 429 || status >= 500 && status != 501 && status != 505
		if got := apierr.RetryableStatus(status); got != want {
			t.Errorf("RetryableStatus(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestInvalid(t *testing.T) {
	t.Parallel()
	e := apierr.Invalid("hostId", "hostId is required")
	want := &shared.Error{Code: shared.CodeValidation, Message: "hostId is required",
		Details: map[string]any{"field": "hostId"}}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Invalid (-want +got):\n%s", diff)
	}
	if !errors.Is(e, shared.ErrValidation) || e.Temporary() {
		t.Errorf("Invalid: Is(ErrValidation)=%v Temporary=%v", errors.Is(e, shared.ErrValidation), e.Temporary())
	}
	if strings.Contains(e.Error(), "0 ") {
		t.Errorf("client-side error prints a status: %q", e.Error())
	}
}

// RedactText reaches the text a caller reads, nested details values
// included, and leaves what names things: the code, the reason, the
// details' keys and the billing gate.
func TestRedactTextLeavesNames(t *testing.T) {
	t.Parallel()
	e := apierr.FromBody(400, apierr.Body{Code: "S3CRET_CODE", Message: "got S3CRET", Details: map[string]any{
		"reason": "S3CRET", "hostedModels": []any{"S3CRET-model"}, "S3CRET": []any{map[string]any{"v": "S3CRET"}, 1.0},
	}})
	e.Billing = &shared.BillingLimit{GateKey: "S3CRET"}
	apierr.RedactText(e, func(s string) string { return strings.ReplaceAll(s, "S3CRET", "X") })
	if e.Code != "S3CRET_CODE" || e.Reason != "S3CRET" || e.Billing.GateKey != "S3CRET" {
		t.Errorf("a name was rewritten: code %q, reason %q, gate %q", e.Code, e.Reason, e.Billing.GateKey)
	}
	if e.Message != "got X" || e.HostedModels[0] != "X-model" {
		t.Errorf("message %q, hosted models %q: want them redacted", e.Message, e.HostedModels)
	}
	nested, ok := e.Details["S3CRET"].([]any)
	if !ok || nested[0].(map[string]any)["v"] != "X" || nested[1] != 1.0 || e.Details["reason"] != "X" {
		t.Errorf("details %v: want the keys kept and the string values redacted", e.Details)
	}
}

// DecodeBody keeps an envelope whenever its code is a non-empty string,
// whatever shape its optional fields take.
func TestDecodeBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		want apierr.Body
		ok   bool
	}{
		{`{"code":"NOT_FOUND","message":"gone","details":{"reason":"RUN_DROPPED"}}`,
			apierr.Body{Code: shared.CodeNotFound, Message: "gone", Details: map[string]any{"reason": "RUN_DROPPED"}}, true},
		{`{"code":"NOT_FOUND","message":"gone"}`, apierr.Body{Code: shared.CodeNotFound, Message: "gone"}, true},
		{`{"code":"NOT_FOUND","message":"gone","details":null}`, apierr.Body{Code: shared.CodeNotFound, Message: "gone"}, true},
		{`{"code":"NOT_FOUND","message":"gone","details":["a",1]}`,
			apierr.Body{Code: shared.CodeNotFound, Message: "gone", Details: map[string]any{apierr.DetailsValueKey: []any{"a", float64(1)}}}, true},
		{`{"code":"NOT_FOUND","message":"gone","details":"why"}`,
			apierr.Body{Code: shared.CodeNotFound, Message: "gone", Details: map[string]any{apierr.DetailsValueKey: "why"}}, true},
		{`{"code":"NOT_FOUND","message":{"text":"gone"}}`, apierr.Body{Code: shared.CodeNotFound}, true},
		{`{"code":"NOT_FOUND","message":7,"details":false}`,
			apierr.Body{Code: shared.CodeNotFound, Details: map[string]any{apierr.DetailsValueKey: false}}, true},
		{`{"code":"","message":"gone"}`, apierr.Body{}, false},
		{`{"code":404,"message":"gone"}`, apierr.Body{}, false},
		{`{"message":"gone"}`, apierr.Body{}, false},
		{`["NOT_FOUND"]`, apierr.Body{}, false},
		{`<html>502</html>`, apierr.Body{}, false},
		{``, apierr.Body{}, false},
	}
	for _, tt := range tests {
		got, ok := apierr.DecodeBody([]byte(tt.raw))
		if ok != tt.ok {
			t.Errorf("DecodeBody(%s) ok = %v, want %v", tt.raw, ok, tt.ok)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("DecodeBody(%s) (-want +got):\n%s", tt.raw, diff)
		}
	}
}

// CheckLimit passes 0 (the service's default) and 1..most, and refuses the
// rest as a client-side VALIDATION_ERROR on field "limit".
func TestCheckLimit(t *testing.T) {
	t.Parallel()
	for _, l := range []int{0, 1, 100} {
		if err := apierr.CheckLimit(l, 100); err != nil {
			t.Errorf("CheckLimit(%d, 100) = %v", l, err)
		}
	}
	for _, l := range []int{-1, 101} {
		e, ok := apierr.As(apierr.CheckLimit(l, 100))
		if !ok || e.StatusCode != 0 || e.Code != shared.CodeValidation || e.Details["field"] != "limit" {
			t.Errorf("CheckLimit(%d, 100) = %v, want a client-side VALIDATION_ERROR on limit", l, e)
		}
	}
}
