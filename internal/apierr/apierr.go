// Package apierr holds the helpers around the error type of package shared
// that are not public API: the envelope's wire form and its decoding,
// client-side validation errors, and the retry classification of a status.
package apierr

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/projectops/projectops-go/shared"
)

// Body is the wire form of the error envelope: {code, message, details?}.
type Body struct {
	Code    shared.Code    `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// DetailsValueKey is the key under which a decoded envelope keeps details
// that are not an object (shared.Error.Details says why).
const DetailsValueKey = "value"

// DecodeBody reads an error envelope from raw. ok is true when raw is a
// JSON object whose code is a non-empty string: the code is what callers
// match on (api-spec §2, §9), so a malformed optional field never loses
// it. A message that is not a string is dropped; details that are not an
// object (an array, a string, a number) are kept under DetailsValueKey,
// and null ones are absent.
func DecodeBody(raw []byte) (b Body, ok bool) {
	var w struct {
		Code    any `json:"code"`
		Message any `json:"message"`
		Details any `json:"details"`
	}
	if json.Unmarshal(raw, &w) != nil {
		return Body{}, false
	}
	code, _ := w.Code.(string)
	if code == "" {
		return Body{}, false
	}
	b.Code = shared.Code(code)
	b.Message, _ = w.Message.(string)
	switch d := w.Details.(type) {
	case nil:
	case map[string]any:
		b.Details = d
	default:
		b.Details = map[string]any{DetailsValueKey: d}
	}
	return b, true
}

// billingFields are what the ingest backend's billing refusal puts beside
// the envelope's fields (reference notes 3.8); not part of the Error schema.
type billingFields struct {
	Limit        string   `json:"limit"`
	GateKey      string   `json:"gateKey"`
	ResetsAt     *float64 `json:"resetsAt"`
	CurrentValue *float64 `json:"currentValue"`
	AllowedValue *float64 `json:"allowedValue"`
}

// AddBilling sets e.Billing when e is a billing refusal, from the raw
// answer it was decoded from.
func AddBilling(e *shared.Error, raw []byte) {
	if e == nil || e.Code != shared.CodeBillingLimitReached {
		return
	}
	var f billingFields
	_ = json.Unmarshal(raw, &f) // what is missing stays zero
	e.Billing = billing(f, e.Details)
}

// FromBody builds a *shared.Error from a decoded envelope, filling Reason
// and HostedModels from the details bag. An error status whose envelope
// has no message (missing, empty, or not a string: DecodeBody drops it)
// reads as the status text ("Not Found"), so the error still says
// something; an ingest answer's ok:false comes with 200, which has none.
func FromBody(status int, b Body) *shared.Error {
	e := &shared.Error{StatusCode: status, Code: b.Code, Message: b.Message, Details: b.Details}
	if e.Message == "" && status >= 400 {
		e.Message = http.StatusText(status)
	}
	if r, ok := b.Details["reason"].(string); ok {
		e.Reason = shared.Reason(r)
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

// billing reads the refusal's limit from the envelope's top level, or from
// details where a gateway moved it.
func billing(b billingFields, details map[string]any) *shared.BillingLimit {
	num := func(top *float64, key string) float64 {
		if top != nil {
			return *top
		}
		f, _ := details[key].(float64)
		return f
	}
	str := func(top, key string) string {
		if top != "" {
			return top
		}
		s, _ := details[key].(string)
		return s
	}
	gate := str(b.GateKey, "gateKey")
	if gate == "" {
		gate = str(b.Limit, "limit")
	}
	return &shared.BillingLimit{
		GateKey:      gate,
		ResetsAt:     shared.Millis(num(b.ResetsAt, "resetsAt")),
		CurrentValue: int64(num(b.CurrentValue, "currentValue")),
		AllowedValue: int64(num(b.AllowedValue, "allowedValue")),
	}
}

// RetryableStatus reports whether an HTTP status is worth retrying for a
// read: 429 and the 5xx that may pass.
func RetryableStatus(status int) bool {
	// Every 5xx but 501 and 505, which name what the server cannot do,
	// not a passing state: gateways and CDNs answer 5xx of their own
	// (520-524), and the service's reporter retries any status >= 500.
	return status == http.StatusTooManyRequests ||
		status >= 500 && status <= 599 && status != http.StatusNotImplemented && status != http.StatusHTTPVersionNotSupported
}

// StatusCode is the code an error answer without one gets from its status:
// 401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND, 429 RATE_LIMITED, as the
// official client gives them, 409 CONFLICT (one meaning in this API) and a
// 5xx INTERNAL_ERROR, so an empty answer or a proxy's page still matches
// the sentinels. Any other status gets none (the official client calls it
// INTERNAL_ERROR): a 400 that says nothing is no internal error. An answer
// with a code the SDK does not know matches sentinels by the same table
// (shared's statusCode; unknown_code_test keeps the two in step).
func StatusCode(status int) shared.Code {
	switch {
	case status == http.StatusUnauthorized:
		return shared.CodeUnauthorized
	case status == http.StatusForbidden:
		return shared.CodeForbidden
	case status == http.StatusNotFound:
		return shared.CodeNotFound
	case status == http.StatusConflict:
		return shared.CodeConflict
	case status == http.StatusTooManyRequests:
		return shared.CodeRateLimited
	case status >= 500 && status <= 599:
		return shared.CodeInternal
	}
	return ""
}

// Invalid returns a client-side VALIDATION_ERROR (StatusCode 0) naming the
// offending field, raised before any request is sent.
func Invalid(field, msg string) *shared.Error {
	return &shared.Error{Code: shared.CodeValidation, Message: msg, Details: map[string]any{"field": field}}
}

// As is a convenience for errors.As with *shared.Error.
func As(err error) (*shared.Error, bool) {
	var e *shared.Error
	ok := errors.As(err, &e)
	return e, ok
}

// Redact applies redact to every string e decoded from a body: the text
// was redacted before decoding too, but a JSON escape (\u0073k_…) hides a
// key from a search of the raw bytes and decoding brings it back.
func Redact(e *shared.Error, redact func(string) string) {
	e.Code = shared.Code(redact(string(e.Code)))
	e.Message = redact(e.Message)
	e.Reason = shared.Reason(redact(string(e.Reason)))
	for i, m := range e.HostedModels {
		e.HostedModels[i] = redact(m)
	}
	if e.Billing != nil {
		e.Billing.GateKey = redact(e.Billing.GateKey)
	}
	if e.Details != nil {
		e.Details = redactValue(e.Details, redact).(map[string]any)
	}
}

// RedactText applies redact to the text of e a caller reads: the message,
// the hosted models and every string value of the details, at any depth.
// The code, the reason and the details' keys are left: they name things,
// and the values redact takes (a request's credential headers') could only
// corrupt them. Redact, for the key, covers those too.
func RedactText(e *shared.Error, redact func(string) string) {
	e.Message = redact(e.Message)
	for i, m := range e.HostedModels {
		e.HostedModels[i] = redact(m)
	}
	for k, v := range e.Details {
		e.Details[k] = redactStrings(v, redact)
	}
}

// redactStrings redacts the string values of a decoded JSON value, in
// place, leaving its keys.
func redactStrings(v any, redact func(string) string) any {
	switch v := v.(type) {
	case string:
		return redact(v)
	case []any:
		for i, x := range v {
			v[i] = redactStrings(x, redact)
		}
	case map[string]any:
		for k, x := range v {
			v[k] = redactStrings(x, redact)
		}
	}
	return v
}

// redactValue redacts the strings of a decoded JSON value, keys included.
func redactValue(v any, redact func(string) string) any {
	switch v := v.(type) {
	case string:
		return redact(v)
	case []any:
		for i, x := range v {
			v[i] = redactValue(x, redact)
		}
		return v
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[redact(k)] = redactValue(x, redact)
		}
		return out
	}
	return v
}

// NilContext is the error for a nil context.Context, a caller bug that
// would otherwise panic (net/http answers it with an error too).
func NilContext() *shared.Error {
	return Invalid("ctx", "nil context.Context: pass context.Background() or the caller's context")
}

// EncodeFailure names the Go type a JSON encoding failed on, as
// " (a T failed to marshal)", or "" when the error names none: never the
// encoder's own text, which may quote the value (a header, a token).
func EncodeFailure(err error) string {
	var (
		me *json.MarshalerError
		te *json.UnsupportedTypeError
		ve *json.UnsupportedValueError
		we *jsonv1.MarshalerError // wire.Encode's (encoding/json's v2 candidate)
	)
	switch {
	case errors.As(err, &me):
		return " (a " + me.Type.String() + " failed to marshal)"
	case errors.As(err, &te):
		return " (a " + te.Type.String() + " cannot be encoded)"
	case errors.As(err, &ve) && ve.Value.IsValid():
		return " (a " + ve.Value.Type().String() + " value cannot be encoded)"
	case errors.As(err, &we) && we.Type != nil:
		return " (a " + we.Type.String() + " failed to marshal)"
	}
	return ""
}

// CheckLimit refuses a page size outside 1..most before a request is sent,
// as a client-side VALIDATION_ERROR on field "limit"; 0 passes, meaning
// "unset": the service's default page.
func CheckLimit(limit, most int) error {
	if limit < 0 || limit > most {
		return Invalid("limit", "limit must be between 1 and "+strconv.Itoa(most))
	}
	return nil
}
