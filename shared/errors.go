package shared

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Code is a stable, machine-readable error code from the service's error
// envelope. New codes may appear at any time; an unknown code is kept as-is.
type Code string

// The error codes of the specification (section 7), plus CONFLICT, which the
// reference service uses for 409 responses.
const (
	CodeUnauthorized        Code = "UNAUTHORIZED"
	CodeOAuthRequired       Code = "OAUTH_REQUIRED"
	CodeForbidden           Code = "FORBIDDEN"
	CodeValidation          Code = "VALIDATION_ERROR"
	CodeNotFound            Code = "NOT_FOUND"
	CodeConflict            Code = "CONFLICT"
	CodeFeatureNotSupported Code = "FEATURE_NOT_SUPPORTED"
	CodeRateLimited         Code = "RATE_LIMITED"
	CodeServerUnreachable   Code = "SERVER_UNREACHABLE"
	CodeTimeout             Code = "TIMEOUT"
	CodeInternal            Code = "INTERNAL_ERROR"
	// CodeBillingLimitReached is the eval-ingest refusal of a plan's
	// monthly limit (a legacy lowercase code, from the ingest backend): it
	// lifts at the period's reset, so it is never retried.
	CodeBillingLimitReached Code = "billing_limit_reached"
)

// Codes lists the error codes of the specification's table, in its order,
// with CONFLICT (the reference's 409). CodeBillingLimitReached, the
// billing refusal's code from outside that table, is not among them.
var Codes = []Code{
	CodeUnauthorized, CodeOAuthRequired, CodeForbidden, CodeValidation, CodeNotFound,
	CodeConflict, CodeFeatureNotSupported, CodeRateLimited, CodeServerUnreachable,
	CodeTimeout, CodeInternal,
}

// Status returns the HTTP status the specification pairs with the code
// (403 for the billing refusal, as the service answers it), or 0 for an
// unknown code.
func (c Code) Status() int {
	switch c {
	case CodeUnauthorized, CodeOAuthRequired:
		return http.StatusUnauthorized
	case CodeForbidden, CodeBillingLimitReached:
		return http.StatusForbidden
	case CodeValidation:
		return http.StatusBadRequest
	case CodeNotFound:
		return http.StatusNotFound
	case CodeConflict:
		return http.StatusConflict
	case CodeFeatureNotSupported:
		return http.StatusUnprocessableEntity
	case CodeRateLimited:
		return http.StatusTooManyRequests
	case CodeServerUnreachable:
		return http.StatusBadGateway
	case CodeTimeout:
		return http.StatusGatewayTimeout
	case CodeInternal:
		return http.StatusInternalServerError
	}
	return 0
}

// Reason is the value of details.reason, which refines a code.
type Reason string

// The reasons named by the specification.
const (
	ReasonOrphanedKey            Reason = "ORPHANED_KEY"
	ReasonTraceNotAvailable      Reason = "TRACE_NOT_AVAILABLE"
	ReasonNoSavedServerSelection Reason = "NO_SAVED_SERVER_SELECTION"
	ReasonConcurrentRunLimit     Reason = "CONCURRENT_RUN_LIMIT"
)

// Error is an error answered by the service (StatusCode > 0) or detected by
// the SDK before sending a request (StatusCode == 0).
type Error struct {
	// StatusCode is the HTTP status; 0 when the SDK raised the error itself.
	StatusCode int
	// Code is the stable error code. Match on it, never on Message.
	Code Code
	// Message is human-readable and may change between releases.
	Message string
	// Details is the unstructured context bag of the envelope. Details
	// that are not an object (a gateway's array or string) are kept under
	// the key "value": the envelope's code and message still reach the
	// caller, keys such as "reason" and "field" are simply absent, and the
	// value is redacted as any other. Such details cannot be told apart
	// from object details that have a "value" key of their own. The
	// service's envelope types details as an object, so non-object ones
	// come only from something else on the path (a proxy, a gateway).
	Details map[string]any
	// Reason is details.reason, when present.
	Reason Reason
	// HostedModels is details.hostedModels: valid hosted model ids for the
	// provider of a rejected model.
	HostedModels []string
	// Billing describes a billing_limit_reached refusal (nil otherwise).
	Billing *BillingLimit
	// RetryAfter is the parsed Retry-After header (0 when absent).
	RetryAfter time.Duration
	// RequestID is the x-request-id the service answered with.
	RequestID string
	// Method and Path identify the request (path without query string, so
	// secrets carried in queries never reach error text).
	Method, Path string
}

// BillingLimit is what an eval-ingest billing refusal says of the plan's
// limit: which one (GateKey, e.g. "maxEvalIterationsPerMonth"), when it
// lifts, and the counts. Such a refusal is never retried.
type BillingLimit struct {
	GateKey                    string
	ResetsAt                   Millis
	CurrentValue, AllowedValue int64
}

// Error implements error. It is safe on a nil receiver and never contains
// headers, bodies or keys: only the code, status, message and request id.
func (e *Error) Error() string {
	if e == nil {
		return "projectops: <nil error>"
	}
	var b strings.Builder
	b.WriteString("projectops: ")
	if e.Method != "" {
		fmt.Fprintf(&b, "%s %s: ", e.Method, e.Path)
	}
	if e.StatusCode > 0 {
		fmt.Fprintf(&b, "%d ", e.StatusCode)
	}
	if e.Code != "" {
		b.WriteString(string(e.Code))
	} else {
		b.WriteString("error")
	}
	if e.Reason != "" {
		fmt.Fprintf(&b, " (%s)", e.Reason)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [request %s]", e.RequestID)
	}
	return b.String()
}

// Is reports whether target is a sentinel this error matches. A sentinel
// matches on its non-empty fields: Code, and Reason when set, so
// errors.Is(err, ErrNotFound) and errors.Is(err, ErrTraceNotAvailable) both work.
// An error whose code the SDK does not know (or has none) matches by its
// HTTP status too, as Temporary decides by it: a 401 matches
// ErrUnauthorized, a 403 ErrForbidden, a 404 ErrNotFound, a 409
// ErrConflict, a 429 ErrRateLimited and a 5xx ErrInternal; any other
// status matches none of them. A sentinel of the caller's own naming such
// an unknown code matches it by that code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok || e == nil || t == nil {
		return false
	}
	if t.Code != "" && t.Code != e.Code && t.Code != e.matchCode() {
		return false
	}
	if t.Reason != "" && t.Reason != e.Reason {
		return false
	}
	if t.StatusCode != 0 && t.StatusCode != e.StatusCode {
		return false
	}
	return t.Code != "" || t.Reason != "" || t.StatusCode != 0
}

// Temporary reports whether retrying the same request later may succeed.
// Known codes decide; an unknown code is temporary only when the HTTP status
// is 429 or a 5xx other than 501 and 505. A 429 with reason
// CONCURRENT_RUN_LIMIT is temporary (it lifts when a run ends) but the SDK
// does not retry it by itself: waiting for a run is the caller's decision.
func (e *Error) Temporary() bool {
	if e == nil {
		return false
	}
	switch e.Code {
	case CodeRateLimited, CodeServerUnreachable, CodeTimeout:
		return true
	case CodeInternal:
		// As the SDK retries it by status: a 501 or 505 (a bare one is
		// INTERNAL_ERROR by its status) names what cannot change, a 4xx
		// is a refusal; without an error status (an ingest route's 200
		// {ok: false}) it may pass.
		return e.StatusCode < 400 || retryableStatus(e.StatusCode)
	case CodeUnauthorized, CodeOAuthRequired, CodeForbidden, CodeValidation, CodeNotFound,
		CodeConflict, CodeFeatureNotSupported, CodeBillingLimitReached:
		return false
	}
	return retryableStatus(e.StatusCode)
}

// retryableStatus reports whether an HTTP status is worth retrying for a
// read: 429 and the 5xx that may pass (as apierr.RetryableStatus).
func retryableStatus(status int) bool {
	// Every 5xx but 501 and 505, which name what the server cannot do,
	// not a passing state: gateways and CDNs answer 5xx of their own
	// (520-524), and the service's reporter retries any status >= 500.
	return status == http.StatusTooManyRequests ||
		status >= 500 && status <= 599 && status != http.StatusNotImplemented && status != http.StatusHTTPVersionNotSupported
}

// Sentinels for errors.Is. They match any *Error with the same code (and
// reason, for the reason sentinels).
var (
	ErrUnauthorized        = &Error{Code: CodeUnauthorized}
	ErrOAuthRequired       = &Error{Code: CodeOAuthRequired}
	ErrForbidden           = &Error{Code: CodeForbidden}
	ErrValidation          = &Error{Code: CodeValidation}
	ErrNotFound            = &Error{Code: CodeNotFound}
	ErrConflict            = &Error{Code: CodeConflict}
	ErrFeatureNotSupported = &Error{Code: CodeFeatureNotSupported}
	ErrRateLimited         = &Error{Code: CodeRateLimited}
	ErrServerUnreachable   = &Error{Code: CodeServerUnreachable}
	ErrTimeout             = &Error{Code: CodeTimeout}
	ErrInternal            = &Error{Code: CodeInternal}
	ErrBillingLimitReached = &Error{Code: CodeBillingLimitReached}

	ErrOrphanedKey            = &Error{Reason: ReasonOrphanedKey}
	ErrTraceNotAvailable      = &Error{Reason: ReasonTraceNotAvailable}
	ErrNoSavedServerSelection = &Error{Reason: ReasonNoSavedServerSelection}
	ErrConcurrentRunLimit     = &Error{Reason: ReasonConcurrentRunLimit}
)
