package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// jsonError says what is wrong with a JSON input in its own terms — where
// (line and column when the decoder knows the offset) and what JSON type a
// field needs — never in Go's ("Go struct field X of type []*mcp.Tool").
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	at := int64(-1)
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.As(err, &se):
		at = se.Offset - 1 // just past the culprit
	case errors.As(err, &te):
		at = te.Offset
		msg = fmt.Sprintf("%s must be %s, not %s", orDefault(te.Field, "the document"), jsonKind(te.Type), article(te.Value))
	}
	if at < 0 || data == nil {
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

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// article puts "a" or "an" before a JSON type name ("number", "array").
func article(v string) string {
	if v != "" && strings.ContainsRune("aeiou", rune(v[0])) {
		return "an " + v
	}
	return "a " + v
}
