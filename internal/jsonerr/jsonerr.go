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
	"slices"
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
		if at < 0 {
			// Raised inside a type's own UnmarshalJSON (evals.Step's),
			// whose offsets count from that value: found by its path.
			at = locate(data, te.Field, te.Value)
		}
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

// locate returns where in data the first value at field starts whose
// JSON kind is the first word of value ("number", "string", "bool",
// "array", "object") and, when value goes on ("number 1.5"), whose
// literal is the rest, or -1. field is encoding/json's dotted path of
// member names (array elements add none), which may begin with Go names
// the document does not have. The first such value is the likeliest the
// decoder refused; a number's literal tells it from a valid one before it.
func locate(data []byte, field, value string) int64 {
	want := strings.Split(field, ".")
	kind, lit, _ := strings.Cut(value, " ")
	type frame struct {
		obj, key bool   // an object; its next token is a key
		name     string // the current member's key
	}
	var stack []frame
	var path []string
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		at := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return -1
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].key {
			if k, ok := tok.(string); ok {
				stack[n-1].name, stack[n-1].key = k, false
				continue
			}
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
		} else {
			path = path[:0]
			for _, f := range stack {
				if f.obj {
					path = append(path, f.name)
				}
			}
			if len(path) > 0 && len(path) <= len(want) && slices.Equal(path, want[len(want)-len(path):]) && kindOf(tok) == kind &&
				(lit == "" || kind != "number" || tok.(json.Number).String() == lit) {
				// The value starts after the separators before it.
				for at < int64(len(data)) && strings.IndexByte(" \t\r\n:,", data[at]) >= 0 {
					at++
				}
				return at
			}
			if d, ok := tok.(json.Delim); ok {
				stack = append(stack, frame{obj: d == '{', key: d == '{'})
				continue
			}
		}
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].key = true
		}
	}
}

// kindOf names a token's JSON kind as encoding/json's UnmarshalTypeError
// does.
func kindOf(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return "object"
		}
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	}
	return "null"
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
