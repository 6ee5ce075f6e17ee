package contract

import (
	"bytes"
	"errors"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// DecodeElements is Decode for a body that carries an array under key
// whose elements the caller also keeps as sent (the results of an ingest
// chunk, stored as raw JSON): it returns, beside the decoded body, each
// element's exact bytes, cut from data in the same pass, so a body of
// thousands of results is scanned once rather than twice. The elements are
// nil when the body is no object or key holds no array. It accepts and
// refuses exactly what Decode does (FuzzDecodeElements holds it to that).
func DecodeElements(data []byte, key string) (any, [][]byte, error) {
	data = bytes.Trim(data, " \t\r\n")
	if len(data) == 0 || data[0] != '{' {
		v, err := Decode(data)
		return v, nil, err
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	obj, elems, err := decodeObjectElements(dec, data, key)
	if err != nil {
		return nil, nil, decodeViolation(err)
	}
	// Trailing data after the object is an error, as in Decode.
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = &jsontext.SyntacticError{Err: errors.New("invalid data after top-level value")}
		}
		return nil, nil, decodeViolation(err)
	}
	return obj, elems, nil
}

func decodeObjectElements(dec *jsontext.Decoder, data []byte, key string) (map[string]any, [][]byte, error) {
	if _, err := dec.ReadToken(); err != nil { // {
		return nil, nil, err
	}
	obj := map[string]any{}
	var elems [][]byte
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, nil, err
		}
		if tok.Kind() == '}' {
			return obj, elems, nil
		}
		name := tok.String()
		if name != key || dec.PeekKind() != '[' {
			var v any
			if err := jsonv2.UnmarshalDecode(dec, &v); err != nil {
				return nil, nil, err
			}
			obj[name] = v
			continue
		}
		if _, err := dec.ReadToken(); err != nil { // [
			return nil, nil, err
		}
		arr := []any{}
		for dec.PeekKind() != ']' {
			start := dec.InputOffset()
			var v any
			if err := jsonv2.UnmarshalDecode(dec, &v); err != nil {
				return nil, nil, err
			}
			arr = append(arr, v)
			elems = append(elems, bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,"))
		}
		if _, err := dec.ReadToken(); err != nil { // ]
			return nil, nil, err
		}
		obj[name] = arr
	}
}
