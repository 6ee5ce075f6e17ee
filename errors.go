package projectops

import (
	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
)

// Error is returned for every error response of the service, and for input
// the SDK rejects before sending (StatusCode 0). Use errors.As to get it and
// match on Code and Reason, never on Message.
type Error = apierr.Error

// Code is a stable error code.
type Code = apierr.Code

// Reason refines a code (details.reason).
type Reason = apierr.Reason

// Error codes (specification section 7, plus CONFLICT for 409).
const (
	CodeUnauthorized        = apierr.CodeUnauthorized
	CodeOAuthRequired       = apierr.CodeOAuthRequired
	CodeForbidden           = apierr.CodeForbidden
	CodeValidation          = apierr.CodeValidation
	CodeNotFound            = apierr.CodeNotFound
	CodeConflict            = apierr.CodeConflict
	CodeFeatureNotSupported = apierr.CodeFeatureNotSupported
	CodeRateLimited         = apierr.CodeRateLimited
	CodeServerUnreachable   = apierr.CodeServerUnreachable
	CodeTimeout             = apierr.CodeTimeout
	CodeInternal            = apierr.CodeInternal
	CodeBillingLimitReached = apierr.CodeBillingLimitReached
)

// Reasons (details.reason values).
const (
	ReasonOrphanedKey            = apierr.ReasonOrphanedKey
	ReasonTraceNotAvailable      = apierr.ReasonTraceNotAvailable
	ReasonNoSavedServerSelection = apierr.ReasonNoSavedServerSelection
	ReasonConcurrentRunLimit     = apierr.ReasonConcurrentRunLimit
)

// Sentinels for errors.Is: each matches any *Error with its code (or, for
// the reason sentinels, its reason).
var (
	ErrUnauthorized        = apierr.ErrUnauthorized
	ErrOAuthRequired       = apierr.ErrOAuthRequired
	ErrForbidden           = apierr.ErrForbidden
	ErrValidation          = apierr.ErrValidation
	ErrNotFound            = apierr.ErrNotFound
	ErrConflict            = apierr.ErrConflict
	ErrFeatureNotSupported = apierr.ErrFeatureNotSupported
	ErrRateLimited         = apierr.ErrRateLimited
	ErrServerUnreachable   = apierr.ErrServerUnreachable
	ErrTimeout             = apierr.ErrTimeout
	ErrInternal            = apierr.ErrInternal
	ErrBillingLimitReached = apierr.ErrBillingLimitReached

	ErrOrphanedKey            = apierr.ErrOrphanedKey
	ErrTraceNotAvailable      = apierr.ErrTraceNotAvailable
	ErrNoSavedServerSelection = apierr.ErrNoSavedServerSelection
	ErrConcurrentRunLimit     = apierr.ErrConcurrentRunLimit

	// ErrCursorLoop is yielded by an iterator whose service repeated a cursor.
	ErrCursorLoop = pager.ErrCursorLoop
)
