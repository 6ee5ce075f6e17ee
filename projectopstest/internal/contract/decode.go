package contract

import (
	"bytes"
	"errors"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Decode parses a request body once into the generic form the schemas
// check (objects as map[string]any, numbers as float64), refusing what
// encoding/json would silently accept: invalid UTF-8 (it would become
// U+FFFD and be stored altered) and duplicate keys (the last would win
// unseen). An empty body, or one of JSON's white space only, reads as {};
// trim()'s wider set is JSON.parse's error here, as it is in a response:
// Blank is a test of the request edge only. It uses go-json-experiment/json,
// the encoding/json/v2 candidate, whose defaults are exactly these rules and
// which parses several times faster than a token walk with encoding/json.
func Decode(data []byte) (any, error) {
	data = bytes.Trim(data, " \t\r\n") // JSON whitespace only: \f is not
	if len(data) == 0 {
		return map[string]any{}, nil
	}
	var v any
	if err := jsonv2.Unmarshal(data, &v); err != nil {
		return nil, decodeViolation(err)
	}
	return v, nil
}

// Blank reports whether JavaScript's String.prototype.trim() leaves data
// empty: the service reads a body as text and takes one that trims to ""
// as no body, {} (most of its routes do; see the request edge). Only
// that test uses trim()'s wider set (form feed, vertical tab, NBSP, the
// Unicode space separators, U+2028, U+2029, U+FEFF); JSON.parse skips JSON's four white space characters only, so
// "\f{}" is still invalid JSON. Invalid UTF-8 is not blank: text()
// decodes it as U+FFFD.
func Blank(data []byte) bool {
	return len(bytes.TrimFunc(data, jsSpace)) == 0
}

// jsSpace reports whether trim() strips r: ECMAScript's WhiteSpace and
// LineTerminator. utf8.RuneError, what an invalid byte decodes as, is not
// one of them.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// decodeViolation names what was wrong and where, without echoing the
// body (it may hold secrets).
func decodeViolation(err error) *Violation {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return &Violation{Message: "Invalid JSON body"}
	}
	field := pointerPath(string(se.JSONPointer))
	switch {
	case errors.Is(err, jsontext.ErrDuplicateName):
		return &Violation{Field: field, Message: "Duplicate key in JSON body"}
	case strings.Contains(se.Err.Error(), "UTF-8"):
		return &Violation{Field: field, Message: "Invalid JSON body: not valid UTF-8"}
	}
	return &Violation{Message: "Invalid JSON body"}
}

// pointerPath renders an RFC 6901 pointer ("/a/0/b") as a field path.
func pointerPath(p string) string {
	if p == "" {
		return ""
	}
	var loc []string
	for _, t := range strings.Split(p[1:], "/") {
		loc = append(loc, strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"))
	}
	return fieldPath(loc)
}
