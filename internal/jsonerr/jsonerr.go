// Package jsonerr says what is wrong with a JSON input in JSON's terms:
// where (line and column) and what type a field needs, never Go's ("Go
// struct field X of type []*mcp.Tool"). The CLI's input files, the
// double's seed files and its request bodies share it.
package jsonerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Describe rewrites err, a decoding error of data by encoding/json, as
// "line L, column C: what" when the place is known.
func Describe(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	at := int64(-1)
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.As(err, &se):
		at = se.Offset - 1 // Offset is just past the culprit
	case errors.As(err, &te):
		at = te.Offset
		field := "the document"
		if te.Field != "" {
			field = fmt.Sprintf("field %q", te.Field)
		}
		msg = fmt.Sprintf("%s must be %s, not %s", field, Kind(te.Type), article(te.Value))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		at, msg = int64(len(data)), "the input ends before its JSON value does"
	default:
		// An unknown field: at its first mention (the decoder stops at
		// the end of the object).
		if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
			if i := bytes.Index(data, []byte(name)); i >= 0 {
				at = int64(i)
			}
		}
	}
	if at < 0 {
		return errors.New(msg)
	}
	line, col := 1, 1
	for _, c := range data[:min(at, int64(len(data)))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("line %d, column %d: %s", line, col, msg)
}

// Kind names the JSON type a Go type decodes from ("a string").
func Kind(t reflect.Type) string {
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
		return Kind(t.Elem())
	}
	return "a valid value"
}

// article puts "a" or "an" before a JSON type name ("number", "array").
func article(v string) string {
	if v != "" && strings.ContainsRune("aeiou", rune(v[0])) {
		return "an " + v
	}
	return "a " + v
}
