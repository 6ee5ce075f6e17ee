package projectopstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkJSONText refuses what encoding/json would silently accept and store
// altered: bytes that are not UTF-8 (it would store U+FFFD instead) and an
// object with a repeated key (it would keep the last value). The service's
// JSON parser rejects both, so the double answers 400 VALIDATION_ERROR,
// naming the repeated key's path, and stores nothing. Syntax errors are
// left to the decoder, which reports them.
func checkJSONText(data []byte) *httpError {
	if !utf8.Valid(data) {
		return errValidation("", "Request body is not valid UTF-8")
	}
	if path, ok := duplicateKey(data); ok {
		return errValidation(path, fmt.Sprintf("Duplicate key %q", path))
	}
	return nil
}

// jsonFrame is an open object or array while scanning.
type jsonFrame struct {
	object bool
	keys   [][]byte            // object: raw keys seen so far (small objects)
	big    map[string]struct{} // object: the keys, once there are many
	cur    []byte              // object: the key whose value is being read
	index  int                 // array: the element being read
}

// duplicateKey reports the path of the first repeated key in data, at any
// depth, such as "results[2].caseTitle". It is a structural scan (strings,
// brackets, commas) rather than a tokenizer: ingest bodies are large and
// this runs on every one. It gives up, reporting nothing, on input that is
// not JSON; the decoder reports that.
func duplicateKey(data []byte) (string, bool) {
	var stack []jsonFrame
	prev := byte(0) // the previous structural character
	for i := 0; i < len(data); {
		switch c := data[i]; c {
		case ' ', '\t', '\n', '\r', ':':
			i++
			continue
		case ',':
			if n := len(stack); n > 0 && !stack[n-1].object {
				stack[n-1].index++
			}
		case '{', '[':
			stack = append(stack, jsonFrame{object: c == '{'})
			if n := len(stack); cap(stack[n-1].keys) == 0 {
				stack[n-1].keys = make([][]byte, 0, 8)
			}
		case '}', ']':
			if len(stack) == 0 {
				return "", false
			}
			stack = stack[:len(stack)-1]
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				return "", false
			}
			if n := len(stack); n > 0 && stack[n-1].object && (prev == '{' || prev == ',') {
				key := data[i+1 : end-1]
				if bytes.IndexByte(key, '\\') >= 0 { // compare keys as decoded
					var k string
					if json.Unmarshal(data[i:end], &k) != nil {
						return "", false
					}
					key = []byte(k)
				}
				if stack[n-1].seen(key) {
					return keyPath(stack, key), true
				}
				stack[n-1].cur = key
			}
			prev, i = '"', end
			continue
		default: // a number or literal: its own bytes are never structural
			i++
			continue
		}
		prev = data[i]
		i++
	}
	return "", false
}

// seen records key in the object and reports whether it was already there.
func (f *jsonFrame) seen(key []byte) bool {
	if f.big != nil {
		if _, ok := f.big[string(key)]; ok {
			return true
		}
		f.big[string(key)] = struct{}{}
		return false
	}
	for _, k := range f.keys {
		if bytes.Equal(k, key) {
			return true
		}
	}
	f.keys = append(f.keys, key)
	if len(f.keys) > 32 { // many keys: stop comparing each with every other
		f.big = make(map[string]struct{}, 64)
		for _, k := range f.keys {
			f.big[string(k)] = struct{}{}
		}
	}
	return false
}

// stringEnd returns the index just past the JSON string starting at
// data[i] (a quote), or -1 when it does not end.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// keyPath is the path of key in the innermost object of stack.
func keyPath(stack []jsonFrame, key []byte) string {
	var b strings.Builder
	for _, f := range stack[:len(stack)-1] {
		if f.object {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.Write(f.cur)
		} else {
			b.WriteString("[" + strconv.Itoa(f.index) + "]")
		}
	}
	if b.Len() > 0 {
		b.WriteByte('.')
	}
	b.Write(key)
	return b.String()
}
