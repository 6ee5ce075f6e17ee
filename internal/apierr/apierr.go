// Package apierr is the SDK's internal view of the error type defined in
// package shared: aliases, so the transport, the resource packages and the
// double share one definition, plus the helpers that are not public API
// (decoding the envelope, client-side validation errors).
package apierr

import (
	"errors"
	"net/http"

	"github.com/projectops/projectops-go/shared"
)

// The public types, under their internal names.
type (
	Code                  = shared.Code
	Reason                = shared.Reason
	Error                 = shared.Error
	ResponseTooLargeError = shared.ResponseTooLargeError
)

// The codes and reasons (see package shared).
const (
	CodeUnauthorized        = shared.CodeUnauthorized
	CodeOAuthRequired       = shared.CodeOAuthRequired
	CodeForbidden           = shared.CodeForbidden
	CodeValidation          = shared.CodeValidation
	CodeNotFound            = shared.CodeNotFound
	CodeConflict            = shared.CodeConflict
	CodeFeatureNotSupported = shared.CodeFeatureNotSupported
	CodeRateLimited         = shared.CodeRateLimited
	CodeServerUnreachable   = shared.CodeServerUnreachable
	CodeTimeout             = shared.CodeTimeout
	CodeInternal            = shared.CodeInternal
	CodeBillingLimitReached = shared.CodeBillingLimitReached

	ReasonOrphanedKey            = shared.ReasonOrphanedKey
	ReasonTraceNotAvailable      = shared.ReasonTraceNotAvailable
	ReasonNoSavedServerSelection = shared.ReasonNoSavedServerSelection
	ReasonConcurrentRunLimit     = shared.ReasonConcurrentRunLimit
)

// Codes lists every code the SDK knows, in the specification's order.
var Codes = shared.Codes

// The sentinels (see package shared).
var (
	ErrUnauthorized        = shared.ErrUnauthorized
	ErrOAuthRequired       = shared.ErrOAuthRequired
	ErrForbidden           = shared.ErrForbidden
	ErrValidation          = shared.ErrValidation
	ErrNotFound            = shared.ErrNotFound
	ErrConflict            = shared.ErrConflict
	ErrFeatureNotSupported = shared.ErrFeatureNotSupported
	ErrRateLimited         = shared.ErrRateLimited
	ErrServerUnreachable   = shared.ErrServerUnreachable
	ErrTimeout             = shared.ErrTimeout
	ErrInternal            = shared.ErrInternal
	ErrBillingLimitReached = shared.ErrBillingLimitReached

	ErrOrphanedKey            = shared.ErrOrphanedKey
	ErrTraceNotAvailable      = shared.ErrTraceNotAvailable
	ErrNoSavedServerSelection = shared.ErrNoSavedServerSelection
	ErrConcurrentRunLimit     = shared.ErrConcurrentRunLimit
)

// Body is the wire form of the error envelope: {code, message, details?}.
type Body struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// FromBody builds an Error from a decoded envelope, filling Reason and
// HostedModels from the details bag.
func FromBody(status int, b Body) *Error {
	e := &Error{StatusCode: status, Code: b.Code, Message: b.Message, Details: b.Details}
	if r, ok := b.Details["reason"].(string); ok {
		e.Reason = Reason(r)
	}
	if hm, ok := b.Details["hostedModels"].([]any); ok {
		for _, m := range hm {
			if s, ok := m.(string); ok {
				e.HostedModels = append(e.HostedModels, s)
			}
		}
	}
	return e
}

// RetryableStatus reports whether an HTTP status is worth retrying for a read.
func RetryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// Invalid returns a client-side VALIDATION_ERROR (StatusCode 0) naming the
// offending field, raised before any request is sent.
func Invalid(field, msg string) *Error {
	return &Error{Code: CodeValidation, Message: msg, Details: map[string]any{"field": field}}
}

// As is a convenience for errors.As with *Error.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
