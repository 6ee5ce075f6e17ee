package ingest

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// goEvent is one test2json event. Its byte slices are still JSON-escaped
// when esc is set for them, and alias the line being parsed.
type goEvent struct {
	action, pkg, test, output, importPath, failedBuild []byte
	outputEscaped                                      bool
	elapsed                                            float64
}

// parseGoEvent decodes a test2json line with a hand-written scanner (the
// events are flat objects of strings and numbers), which is several times
// faster than encoding/json; anything unusual falls back to encoding/json.
// It reports false when the line is not a test2json event.
func parseGoEvent(line []byte, ev *goEvent) bool {
	*ev = goEvent{}
	if ok, sure := scanGoEvent(line, ev); sure {
		return ok && len(ev.action) > 0
	}
	var std struct {
		Action, Package, Test, Output, ImportPath, FailedBuild string
		Elapsed                                                float64
	}
	if json.Unmarshal(line, &std) != nil || std.Action == "" {
		return false
	}
	*ev = goEvent{action: []byte(std.Action), pkg: []byte(std.Package), test: []byte(std.Test),
		output: []byte(std.Output), importPath: []byte(std.ImportPath), failedBuild: []byte(std.FailedBuild),
		elapsed: std.Elapsed}
	return true
}

// scanGoEvent is the fast path. sure is false when the line needs the
// general decoder (nested values, escapes in keys, odd numbers, ...).
func scanGoEvent(b []byte, ev *goEvent) (ok, sure bool) {
	if !utf8.Valid(b) {
		return false, false // encoding/json replaces invalid bytes: let it
	}
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false, true
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return false, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false, false
		}
		key, esc, j := scanString(b, i)
		if j < 0 || esc {
			return false, false
		}
		if foldsToKnown(key) {
			return false, false // encoding/json matches keys case-insensitively
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return false, false
		}
		i = skipWS(b, i+1)
		if i >= len(b) {
			return false, false
		}
		switch c := b[i]; {
		case c == '"':
			if string(key) == "Elapsed" {
				return false, false // a type mismatch: encoding/json rejects it
			}
			val, vesc, j := scanString(b, i)
			if j < 0 {
				return false, false
			}
			inner := val
			if string(key) == "Output" {
				ev.output, ev.outputEscaped = inner, vesc
			} else if vesc {
				if !isIgnoredKey(key) {
					return false, false // escaped identifiers are rare: let encoding/json do it
				}
			} else {
				switch string(key) {
				case "Action":
					ev.action = inner
				case "Package":
					ev.pkg = inner
				case "Test":
					ev.test = inner
				case "ImportPath":
					ev.importPath = inner
				case "FailedBuild":
					ev.failedBuild = inner
				}
			}
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			if isStringKey(key) {
				return false, false // a type mismatch: encoding/json rejects it
			}
			j := i + 1
			for j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-' || (b[j] >= '0' && b[j] <= '9')) {
				j++
			}
			if !validNumber(b[i:j]) {
				return false, true
			}
			if string(key) == "Elapsed" {
				f, err := strconv.ParseFloat(string(b[i:j]), 64)
				if err != nil {
					return false, false
				}
				ev.elapsed = f
			}
			i = j
		case c == 't' || c == 'f' || c == 'n':
			j := i
			for j < len(b) && b[j] >= 'a' && b[j] <= 'z' {
				j++
			}
			switch string(b[i:j]) {
			case "null": // leaves the field as it is, for every type
			case "true", "false":
				if isStringKey(key) || string(key) == "Elapsed" {
					return false, false // a type mismatch: encoding/json rejects it
				}
			default:
				return false, true
			}
			i = j
		default:
			return false, false // object or array value
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return false, true
		}
		if b[i] == '}' {
			return skipWS(b, i+1) == len(b), true
		}
		if b[i] != ',' {
			return false, true
		}
		i = skipWS(b, i+1)
	}
}

// isStringKey reports a key decoded into a string field: only a string or
// null may follow it.
func isStringKey(k []byte) bool {
	switch string(k) {
	case "Action", "Package", "Test", "Output", "ImportPath", "FailedBuild":
		return true
	}
	return false
}

func isIgnoredKey(k []byte) bool {
	switch string(k) {
	case "Action", "Package", "Test", "ImportPath", "FailedBuild":
		return false
	}
	return true
}
