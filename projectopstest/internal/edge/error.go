// Package edge is the double's HTTP edge below its handlers: the
// {code, message, details} error envelope and how it is written, request
// bodies read once and checked against the contract, opaque cursors and
// page sizes, query parameters and dot segments read as the service reads
// them, and the admission check every request passes before routing.
// It knows nothing of the store.
package edge

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/shared"
)

// CodeMethodNotAllowed is the code of a fault injected with status 405
// (SetFault). The specification has no code for 405 and the service never
// answers one (a wrong method is its 404), so the double names one; clients
// treat it as an unknown, non-retryable code.
const CodeMethodNotAllowed shared.Code = "METHOD_NOT_ALLOWED"

// Error is a failure a handler answers with: the wire envelope, its status
// and an optional Retry-After.
type Error struct {
	Status     int
	Body       apierr.Body
	RetryAfter time.Duration
}

// Error implements error, for logs; the client sees the envelope.
func (e *Error) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Body.Code, e.Body.Message)
}

// NewError builds an error whose status is the one the code is paired with.
func NewError(code shared.Code, msg string, details map[string]any) *Error {
	status := code.Status()
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return &Error{Status: status, Body: apierr.Body{Code: code, Message: msg, Details: details}}
}

// Validation is a 400 VALIDATION_ERROR naming field ("" for none).
func Validation(field, msg string) *Error {
	var d map[string]any
	if field != "" {
		d = map[string]any{"field": field}
	}
	return NewError(shared.CodeValidation, msg, d)
}

// Unauthorized is a 401 UNAUTHORIZED.
func Unauthorized(msg string) *Error { return NewError(shared.CodeUnauthorized, msg, nil) }

// Forbidden is a 403 FORBIDDEN.
func Forbidden(msg string) *Error { return NewError(shared.CodeForbidden, msg, nil) }

// NotFound is a 404 NOT_FOUND.
func NotFound(msg string) *Error { return NewError(shared.CodeNotFound, msg, nil) }

// Internal is a 500 INTERNAL_ERROR that says nothing of its cause.
func Internal() *Error {
	return NewError(shared.CodeInternal, "Unexpected internal error", nil)
}

// CodeForStatus picks the specification's code for an HTTP status.
func CodeForStatus(status int) shared.Code {
	for _, c := range shared.Codes {
		if c.Status() == status {
			return c
		}
	}
	if status == http.StatusMethodNotAllowed {
		return CodeMethodNotAllowed
	}
	return shared.CodeInternal
}

// RetryAfterSeconds rounds a wait up to whole seconds, at least 1, as the
// Retry-After header carries integer seconds.
func RetryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// WriteError writes e as the error envelope.
func WriteError(w http.ResponseWriter, e *Error) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfterSeconds(e.RetryAfter)))
	}
	WriteJSON(w, e.Status, e.Body)
}

// WriteJSON writes v as the JSON response body with its length known.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(Internal().Body)
	}
	WriteRaw(w, status, b)
}

// WriteRaw writes an already encoded JSON body.
func WriteRaw(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	// Both values share one allocation; capacity 1 keeps an append by a
	// client from writing into the neighbour.
	vals := []string{"application/json", strconv.Itoa(len(b))}
	h["Content-Type"], h["Content-Length"] = vals[0:1:1], vals[1:2:2]
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Quote is s as a JSON string, as the service's messages quote values.
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
