package projectopstest

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

// codeMethodNotAllowed answers a known path with the wrong method. The
// specification has no code for 405, so the double names one; clients treat
// it as an unknown, non-retryable code.
const codeMethodNotAllowed shared.Code = "METHOD_NOT_ALLOWED"

// httpError is a failure a handler answers with: the wire envelope, its
// status and an optional Retry-After.
type httpError struct {
	status     int
	body       apierr.Body
	retryAfter time.Duration
}

// Error implements error, for logs; the client sees the envelope.
func (e *httpError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.status, e.body.Code, e.body.Message)
}

// newError builds an error whose status is the one the code is paired with.
func newError(code shared.Code, msg string, details map[string]any) *httpError {
	status := code.Status()
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return &httpError{status: status, body: apierr.Body{Code: code, Message: msg, Details: details}}
}

func errValidation(field, msg string) *httpError {
	var d map[string]any
	if field != "" {
		d = map[string]any{"field": field}
	}
	return newError(shared.CodeValidation, msg, d)
}

func errUnauthorized(msg string) *httpError { return newError(shared.CodeUnauthorized, msg, nil) }
func errForbidden(msg string) *httpError    { return newError(shared.CodeForbidden, msg, nil) }
func errNotFound(msg string) *httpError     { return newError(shared.CodeNotFound, msg, nil) }

func errInternal() *httpError {
	return newError(shared.CodeInternal, "Unexpected internal error", nil)
}

// retryAfterSeconds rounds a wait up to whole seconds, at least 1, as the
// Retry-After header carries integer seconds.
func retryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// writeError writes e as the error envelope.
func writeError(w http.ResponseWriter, e *httpError) {
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds(e.retryAfter)))
	}
	writeJSON(w, e.status, e.body)
}

// writeJSON writes v as the JSON response body with its length known.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errInternal().body)
	}
	writeRaw(w, status, b)
}

// writeRaw writes an already encoded JSON body.
func writeRaw(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	// Both values share one allocation; capacity 1 keeps an append by a
	// client from writing into the neighbour.
	vals := []string{"application/json", strconv.Itoa(len(b))}
	h["Content-Type"], h["Content-Length"] = vals[0:1:1], vals[1:2:2]
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
