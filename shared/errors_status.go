package shared

import "net/http"

// matchCode is the code e matches sentinels by: its own when the SDK knows
// it (Code.Status pairs every known code with a status), else the one its
// status implies. The service may add codes at any
// time (spec §9) and pins some refusals by status alone (a finished run's
// cancel is a 409 with no code shown), so a new code must not make a
// caller's errors.Is(err, ErrConflict) stop working.
func (e *Error) matchCode() Code {
	if e.Code.Status() != 0 {
		return e.Code
	}
	return statusCode(e.StatusCode)
}

// statusCode is the code an HTTP status implies: 401 UNAUTHORIZED, 403
// FORBIDDEN, 404 NOT_FOUND, 409 CONFLICT, 429 RATE_LIMITED and a 5xx
// INTERNAL_ERROR; none for any other status. internal/apierr.StatusCode
// gives a bodyless answer the same code (a test keeps the two in step).
func statusCode(status int) Code {
	switch {
	case status == http.StatusUnauthorized:
		return CodeUnauthorized
	case status == http.StatusForbidden:
		return CodeForbidden
	case status == http.StatusNotFound:
		return CodeNotFound
	case status == http.StatusConflict:
		return CodeConflict
	case status == http.StatusTooManyRequests:
		return CodeRateLimited
	case status >= 500 && status <= 599:
		return CodeInternal
	}
	return ""
}
