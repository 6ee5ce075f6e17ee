package projectopstest

import (
	"fmt"
	"io"
	"log/slog"
)

// Secret is a string that never prints: every fmt verb, %v and %#v included,
// writes "[REDACTED]". Secrets held by the double (API key plaintexts in a
// seed, STDIO environment values, raw headers, OAuth client secrets) use it
// so a stray log line or error message cannot leak them. Convert with
// string(s) where the plaintext is genuinely needed.
type Secret string

const redacted = "[REDACTED]"

// String implements fmt.Stringer without revealing the value.
func (Secret) String() string { return redacted }

// GoString implements fmt.GoStringer without revealing the value.
func (Secret) GoString() string { return redacted }

// Format implements fmt.Formatter so that no verb reveals the value.
func (Secret) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, redacted) }

// secretKeys lists the names of a secret map for diagnostics, never values.
func secretKeys(m map[string]Secret) string {
	if len(m) == 0 {
		return "{}"
	}
	return fmt.Sprintf("{%d redacted}", len(m))
}

// slog's handlers print a value without LogValue with fmt (the text
// handler: Secret's Format redacts) or encoding/json (the JSON handler:
// the plaintext, since a Seed written with json.Marshal must load again).
// Secret and the types that hold one log their redacted text; a slice or
// struct holding them still reaches encoding/json, so log them one by one.

// LogValue implements slog.LogValuer without revealing the value.
func (Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// LogValue implements slog.LogValuer: String.
func (sp ServerSpec) LogValue() slog.Value { return slog.StringValue(sp.String()) }

// LogValue implements slog.LogValuer: the spec with its secret redacted.
func (a APIKeySpec) LogValue() slog.Value { return slog.StringValue(fmt.Sprintf("%+v", a)) }

// LogValue implements slog.LogValuer: String.
func (w Workspace) LogValue() slog.Value { return slog.StringValue(w.String()) }

// LogValue implements slog.LogValuer: the seed with its secrets redacted
// (and its servers' command lines left out, as ServerSpec prints).
func (s Seed) LogValue() slog.Value { return slog.StringValue(fmt.Sprintf("%+v", s)) }

// LogValue implements slog.LogValuer: the request with its APIKey redacted.
func (r ModelRequest) LogValue() slog.Value {
	type ModelRequest plainModelRequest
	c := ModelRequest(r)
	if c.APIKey != "" {
		c.APIKey = redacted
	}
	return slog.AnyValue(c)
}

// plainModelRequest is ModelRequest without its methods, for LogValue.
type plainModelRequest ModelRequest

// The types below hold a Secret (or, for IngestedRun, replay tokens) as a
// field. Secret's Format redacts it, but fmt skips every nested Format once
// it takes its bad-verb path, as it does for a pointer to a type without a
// Format method printed with %s, %q, %x or %d (a []*Seed under %s). So each
// prints through a method-less copy with the same verb, whose fields then
// go through their own Format.

// Format implements fmt.Formatter with the key's secret redacted.
func (a APIKeySpec) Format(f fmt.State, verb rune) {
	type APIKeySpec plainAPIKeySpec
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), APIKeySpec(a))
}

// Format implements fmt.Formatter with the seed's secrets redacted.
func (s Seed) Format(f fmt.State, verb rune) {
	type Seed plainSeed
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), Seed(s))
}

// Format implements fmt.Formatter with the request's APIKey redacted.
func (r ModelRequest) Format(f fmt.State, verb rune) {
	type ModelRequest plainModelRequest
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), ModelRequest(r))
}

// Format implements fmt.Formatter with the run's replay secrets redacted.
func (r IngestedRun) Format(f fmt.State, verb rune) {
	type IngestedRun plainIngestedRun
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), IngestedRun(r))
}

// plainAPIKeySpec, plainSeed and plainIngestedRun are the types without
// their methods, for Format.
type (
	plainAPIKeySpec  APIKeySpec
	plainSeed        Seed
	plainIngestedRun IngestedRun
)
