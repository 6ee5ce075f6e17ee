package wire

import (
	"encoding/json"
	"fmt"
	"regexp"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Secret-bearing request types (replay configs, OAuth tokens, model API
// keys) redact themselves in MarshalJSON, so that encoding/json anywhere
// else (slog's JSON handler on a value nested in another, a user's own
// json.Marshal for a log line) never shows their secrets. The request body
// is the one place they travel in clear: it is encoded with Clear
// marshalers, which take precedence over the types' own methods.

// Clear returns a marshaler that writes a T in clear: conv turns it into a
// type without T's redacting MarshalJSON (the same fields, so the same
// JSON). Nested values keep the encoder's options, so a secret type inside
// another is written in clear too when its marshaler is joined in.
func Clear[T, P any](conv func(T) P) *jsonv2.Marshalers {
	return jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, v T) error {
		return jsonv2.MarshalEncode(enc, conv(v))
	})
}

// Encode encodes a request body as encoding/json would, with ms taking
// precedence over the types' own MarshalJSON methods.
func Encode(v any, ms *jsonv2.Marshalers) ([]byte, error) {
	return jsonv2.Marshal(v, jsonv1.DefaultOptionsV1(), jsonv2.WithMarshalers(jsonv2.JoinMarshalers(ms, stdNumber)))
}

// numberLiteral is JSON's number grammar, which encoding/json checks a
// Number against.
var numberLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// stdNumber writes encoding/json's Number as the number it holds, as
// encoding/json does (json/v2 would write it as a string; "" is 0 there).
var stdNumber = jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, n json.Number) error {
	if n == "" {
		n = "0"
	}
	if !numberLiteral.MatchString(string(n)) {
		return fmt.Errorf("json: invalid number literal %q", string(n))
	}
	return enc.WriteValue(jsontext.Value(n))
})
