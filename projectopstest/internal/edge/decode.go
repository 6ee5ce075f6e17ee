package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/internal/jsonerr"
	"github.com/projectops/projectops-go/projectopstest/internal/contract"
)

// MaxBodyBytes caps every request body under APIPrefix, as the service's
// gateway caps them (1 MiB, ingest routes included) before anything else,
// authentication too; a body over it is BodyTooLarge.
const MaxBodyBytes = 1 << 20

// BodyTooLarge is the refusal of a body over MaxBodyBytes.
func BodyTooLarge() *Error { return Validation("", "Request body exceeds 1MB limit") }

// APIPrefix is the path every route of the API lives under.
const APIPrefix = "/api/v1"

// DecodeBody strictly decodes the JSON object in r's body into dst, the
// SDK's request type for the route. A body with no value reads as {} as
// DecodeObject says. It reports which top-level fields, and members of top-level objects ("a.b"), were
// present with a non-null value (true; a top-level null is there as
// false, a nested one is left out), so handlers can tell "absent" from
// "zero", and at the top level from "null", without a second set of types. Every failure is a
// 400 VALIDATION_ERROR naming the offending field where there is one.
func DecodeBody(r *http.Request, dst any) (map[string]bool, *Error) {
	return DecodeBodyLimit(r, dst, MaxBodyBytes, BodyTooLarge())
}

// DecodeBodyLimit is DecodeBody for routes with their own body cap: a body
// over limit bytes answers tooLarge.
func DecodeBodyLimit(r *http.Request, dst any, limit int, tooLarge *Error) (map[string]bool, *Error) {
	obj, data, route, herr := DecodeObject(r, limit, tooLarge)
	if herr != nil {
		return nil, herr
	}
	present := make(map[string]bool, len(obj))
	for k, x := range obj {
		// A top-level key sent as null is in the map as false: present[k]
		// is "sent and not null", and membership alone is "sent".
		present[k] = x != nil
		if m, ok := x.(map[string]any); ok { // "passCriteria.minimumPassRate"
			for sub, y := range m {
				if y != nil {
					present[k+"."+sub] = true
				}
			}
		}
	}
	if route == nil { // a route the reference does not document
		return present, strictDecode(data, obj, dst)
	}
	return present, bindKnown(data, obj, dst)
}

// DecodeObject reads r's body (at most limit bytes) and parses it once,
// deciding validity there: syntax, UTF-8, duplicate keys, a JSON object,
// then the route's contract when the reference documents the route. A
// body with no value reads as {} where the route's service handler reads
// it so (see blankRule): most take one JavaScript's trim() empties, the
// eval-ingest routes only an empty one, tunnel create none.
func DecodeObject(r *http.Request, limit int, tooLarge *Error) (map[string]any, []byte, *contract.Route, *Error) {
	obj, data, _, route, herr := DecodeObjectElements(r, limit, tooLarge, "")
	return obj, data, route, herr
}

// DecodeObjectElements is DecodeObject that also returns the exact bytes
// of each element of the array under key, cut in the same pass (see
// contract.DecodeElements); key "" asks for none.
func DecodeObjectElements(r *http.Request, limit int, tooLarge *Error, key string) (map[string]any, []byte, [][]byte, *contract.Route, *Error) {
	data, err := ReadBody(r, limit)
	if err != nil {
		return nil, nil, nil, nil, Validation("", "Could not read request body")
	}
	if len(data) > limit {
		return nil, nil, nil, nil, tooLarge
	}
	// The service reads a body as text, and its decoder drops a leading
	// byte-order mark (which PowerShell and Windows tools write). Which
	// body is no body, {}, is the route's (see blankRule); any other is
	// trimmed of JSON's white space only, as JSON.parse has it.
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if ruleOf(r).noValue(data) {
		data = []byte("{}")
	} else {
		data = trimJSONSpace(data)
		if len(data) == 0 { // JSON.parse("") and JSON.parse(" ") throw
			return nil, nil, nil, nil, Validation("", "Invalid JSON body")
		}
	}
	var v any
	var elems [][]byte
	if key == "" {
		v, err = contract.Decode(data)
	} else {
		v, elems, err = contract.DecodeElements(data, key)
	}
	if err != nil {
		return nil, nil, nil, nil, ViolationError(err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, nil, nil, nil, Validation("", "JSON body must be an object")
	}
	route := contractRoute(r)
	if route != nil {
		if err := route.CheckRequest(obj); err != nil {
			return nil, nil, nil, nil, ViolationError(err)
		}
	}
	return obj, data, elems, route, nil
}

// contractRoute is the contract of the route r was routed to, or nil.
func contractRoute(r *http.Request) *contract.Route {
	method, path, ok := strings.Cut(r.Pattern, " ")
	if !ok {
		return nil
	}
	c, err := contract.Load()
	if err != nil {
		panic("projectopstest: " + err.Error()) // embedded documents: a build error
	}
	return c.Route(method, strings.TrimPrefix(path, APIPrefix))
}

// ViolationError is a contract violation as the 400 envelope.
func ViolationError(err error) *Error {
	var v *contract.Violation
	if errors.As(err, &v) {
		return Validation(v.Field, v.Message)
	}
	return Validation("", "Invalid JSON body")
}

// bindKnown fills dst, the handler's request type, from a body the
// contract accepted. Validity was decided by the contract; dst takes the
// keys it knows exactly and ignores the rest (see dropInexact). A type
// error here means the handler's type disagrees with the contract: a bug,
// reported as such.
func bindKnown(data []byte, obj map[string]any, dst any) *Error {
	t := reflect.TypeOf(dst)
	if t != nil && inexactKeys(obj, t, true, false) {
		v, err := parseNumbers(data) // literals as sent: obj holds float64s
		if err != nil {
			return Validation("", "Invalid JSON body")
		}
		inexactKeys(v, t, true, true)
		data, _ = json.Marshal(v) // decoded JSON always re-encodes
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return rebindIntegral(err, data, dst)
	}
	return nil
}

// rebindIntegral retries a bind of data that failed on a whole number
// written as 2.0 or 1e0: JSON Schema's integer (and the service's
// JavaScript) takes it as the integer it equals, encoding/json refuses it
// for an int field. Only such numbers are rewritten (every other literal
// is kept as sent), and a second bind takes them; any other failure is
// err's.
func rebindIntegral(err error, data []byte, dst any) *Error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number ") {
		return BindError(err, data, dst)
	}
	v, perr := parseNumbers(data)
	if perr != nil {
		return BindError(err, data, dst)
	}
	v, changed := integralNumbers(v)
	if !changed {
		return BindError(err, data, dst)
	}
	again, _ := json.Marshal(v) // decoded JSON always re-encodes
	if json.Unmarshal(again, dst) != nil {
		return BindError(err, data, dst)
	}
	return nil
}

// BindError is the refusal of data, a body encoding/json failed (err) to
// decode into dst: the first value dst cannot hold, named by its position
// in the body, or else DecodeError's reading of err. The walk runs only
// after the decoder has failed, so a body that decodes pays nothing for
// it; it follows the decoder's rules, so it never names a value the
// decoder takes.
func BindError(err error, data []byte, dst any) *Error {
	if herr := typeRefusal(data, dst); herr != nil {
		return herr
	}
	return DecodeError(err)
}

// strictDecode is the check of routes outside the contract: dst's type
// decides, and any key it does not know exactly, at any depth, is
// refused.
func strictDecode(data []byte, obj map[string]any, dst any) *Error {
	// Keys first: encoding/json folds case, so a key spelt in another case
	// would otherwise be refused for its value's type, under the name of
	// the field it is not.
	if t := reflect.TypeOf(dst); t != nil {
		if f := inexactPath(obj, t, ""); f != "" {
			return Validation(f, fmt.Sprintf("Unknown field %q", f))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return rebindIntegral(err, data, dst)
	}
	return nil
}

// RejectBody reads the body of a bodyless operation: nothing, or {}. Any
// field is a VALIDATION_ERROR naming the first in details.field and all in
// the message, as the service's environment routes answer (the reference
// declares these bodies without a schema).
func RejectBody(r *http.Request) *Error {
	// Any key is refused, one whose value is null too (where a body is
	// read, "present" holds a top-level null as false: absent for most
	// routes).
	obj, _, _, herr := DecodeObject(r, MaxBodyBytes, BodyTooLarge())
	if herr != nil {
		return herr
	}
	if len(obj) == 0 {
		return nil
	}
	keys := slices.Sorted(maps.Keys(obj))
	return Validation(keys[0], contract.StrayFields(keys))
}

// DecodeError turns an encoding/json error into a VALIDATION_ERROR naming
// the field.
func DecodeError(err error) *Error {
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if f, uerr := strconv.Unquote(name); uerr == nil {
			name = f
		}
		return Validation(name, fmt.Sprintf("Unknown field %q", name))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return Validation(te.Field, fmt.Sprintf("Field %q must be %s", te.Field, jsonerr.Kind(te.Type)))
	}
	return Validation("", "Invalid JSON body")
}

// ReadBody reads at most limit+1 bytes of r's body (one more than allowed,
// so the caller can tell an oversized body), in one allocation of the right
// size when the length is declared: io.ReadAll would start at 512 bytes
// and grow, copying a 40 KiB ingest chunk about seven times.
func ReadBody(r *http.Request, limit int) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n <= int64(limit) {
		body := make([]byte, n)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, err
		}
		return body, nil
	}
	return io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
}
