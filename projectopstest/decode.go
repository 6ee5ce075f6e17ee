package projectopstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// maxBodyBytes caps request bodies; the real gateway rejects oversized
// bodies with 400 as well.
const maxBodyBytes = 4 << 20

// decodeWrite checks that a may write the project named by the path's
// projectId, then decodes the body as decodeBody does. Access comes first
// so that a guest or an outsider learns nothing from validation.
func (s *Server) decodeWrite(r *http.Request, a actor, dst any) (map[string]bool, *httpError) {
	s.mu.Lock()
	_, _, herr := s.st.projectFor(a, r.PathValue("projectId"), accessWrite)
	s.mu.Unlock()
	if herr != nil {
		return nil, herr
	}
	return decodeBody(r, dst)
}

// decodeBody strictly decodes the JSON object in r's body into dst, the
// SDK's request type for the route. An empty body reads as {}. It reports
// which top-level fields were present with a non-null value, so handlers can
// tell "absent" from "zero" without a second set of types. Every failure is a
// 400 VALIDATION_ERROR naming the offending field where there is one.
func decodeBody(r *http.Request, dst any) (map[string]bool, *httpError) {
	return decodeBodyLimit(r, dst, maxBodyBytes, errValidation("", "Request body too large"))
}

// decodeBodyLimit is decodeBody for routes with their own body cap: a body
// over limit bytes answers tooLarge.
func decodeBodyLimit(r *http.Request, dst any, limit int, tooLarge *httpError) (map[string]bool, *httpError) {
	data, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return nil, errValidation("", "Could not read request body")
	}
	if len(data) > limit {
		return nil, tooLarge
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		data = []byte("{}")
	}
	if herr := checkJSONText(data); herr != nil {
		return nil, herr
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) || (err == nil && raw == nil) {
			return nil, errValidation("", "JSON body must be an object")
		}
		return nil, errValidation("", "Invalid JSON body")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return nil, decodeError(err)
	}
	if f := inexactField(raw, dst); f != "" {
		return nil, errValidation(f, fmt.Sprintf("Unknown field %q", f))
	}
	present := make(map[string]bool, len(raw))
	for k, v := range raw {
		if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			present[k] = true
		}
	}
	return present, nil
}

// inexactField returns a key of raw that is not exactly one of dst's JSON
// field names ("" when every key is). encoding/json matches keys without
// regard to case, so without this check {"NAME": "b"} would be accepted as
// name, and would even override an earlier "name".
func inexactField(raw map[string]json.RawMessage, dst any) string {
	t := reflect.TypeOf(dst)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	known := map[string]bool{}
	jsonFieldNames(t, known)
	var bad []string
	for k := range raw {
		if !known[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	slices.Sort(bad)
	return bad[0]
}

// jsonFieldNames adds the JSON names of struct type t's fields to known,
// following embedded structs as encoding/json does.
func jsonFieldNames(t reflect.Type, known map[string]bool) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				jsonFieldNames(ft, known)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		known[name] = true
	}
}

// rejectBody is decodeBody for bodyless operations: an empty body or {}
// passes, any field is a VALIDATION_ERROR naming it.
func rejectBody(r *http.Request) *httpError {
	_, herr := decodeBody(r, &struct{}{})
	return herr
}

// decodeError turns an encoding/json error into a VALIDATION_ERROR naming
// the field.
func decodeError(err error) *httpError {
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if f, uerr := strconv.Unquote(name); uerr == nil {
			name = f
		}
		return errValidation(name, fmt.Sprintf("Unknown field %q", name))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return errValidation(te.Field, fmt.Sprintf("Field %q must be %s", te.Field, jsonKind(te.Type)))
	}
	return errValidation("", "Invalid JSON body")
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a valid value"
}
