package projectops

import (
	"github.com/projectops/projectops-go/shared"
)

// Error is returned for every error response of the service, and for input
// the SDK rejects before sending (StatusCode 0). Use errors.As to get it and
// match on Code and Reason, never on Message. Package shared defines it:
// go doc github.com/projectops/projectops-go/shared.Error shows its fields
// and methods.
type Error = shared.Error

// Code is a stable error code.
type Code = shared.Code

// Reason refines a code (details.reason).
type Reason = shared.Reason

// Error codes (specification section 7, plus CONFLICT for 409).
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
)

// Reasons (details.reason values).
const (
	ReasonOrphanedKey            = shared.ReasonOrphanedKey
	ReasonTraceNotAvailable      = shared.ReasonTraceNotAvailable
	ReasonNoSavedServerSelection = shared.ReasonNoSavedServerSelection
	ReasonConcurrentRunLimit     = shared.ReasonConcurrentRunLimit
)

// Sentinels for errors.Is: each matches any *Error with its code (or, for
// the reason sentinels, its reason); an error with a code the SDK does not
// know matches the code sentinel its HTTP status implies (409 ErrConflict).
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

	// ErrCursorLoop is yielded by an iterator whose service repeated a cursor.
	ErrCursorLoop = shared.ErrCursorLoop
	// ErrNoStatus is matched by the error a waiter ends with when an
	// answer carries no status (see shared.ErrNoStatus).
	ErrNoStatus = shared.ErrNoStatus
)

// ResponseTooLargeError is returned when a success body is larger than the
// client's cap (option.WithMaxResponseBytes); nothing of it is decoded.
// Use errors.As to get it.
type ResponseTooLargeError = shared.ResponseTooLargeError
