package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/wire"
)

// Config is a host config: a JSON object whose shape mirrors the hosted host
// editor and evolves with it, so the SDK keeps it as the exact bytes the
// service sent rather than a Go struct that would lag behind. Reading a host
// and sending its Config back round-trips it unchanged. Create and Update
// send the Config less its top-level "id" and "schemaVersion" members:
// a read config carries them (the stored config row's id and its version),
// but they are not input, and the service refuses them with 400
// VALIDATION_ERROR, as it refuses every top-level key host config v2 does
// not define; a config holding only those two is sent as {}, which Create
// and Update refuse as an empty config. Every other member is sent as
// written, in its place: fields the SDK has no Go type for are sent back as
// read and numbers keep their precision (a map[string]any would turn every
// number into a float64). Decode it into your own struct, or use Map and
// ModelID.
// An update replaces the host's whole config with the one sent (see
// UpdateParams.Config).
//
// The zero Config is absent: CreateParams and UpdateParams omit it.
type Config []byte

// NewConfig encodes v (a map, a struct, or raw JSON bytes) as a Config. It
// fails unless v encodes to a JSON object, with a VALIDATION_ERROR on
// field config that never quotes v.
func NewConfig(v any) (Config, error) {
	var b []byte
	switch x := v.(type) {
	case Config:
		b = x
	case json.RawMessage:
		b = x
	case []byte:
		b = x
	case string:
		b = []byte(x)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			// Never the encoder's text: it may quote a header value.
			return nil, apierr.Invalid("config", "hosts.NewConfig: the config does not encode as JSON"+apierr.EncodeFailure(err))
		}
	}
	b = bytes.TrimSpace(b)
	if !json.Valid(b) {
		return nil, apierr.Invalid("config", "hosts.NewConfig: the config is not valid JSON")
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, apierr.Invalid("config", "hosts.NewConfig: the config must be a JSON object")
	}
	return Config(bytes.Clone(b)), nil
}

// MustConfig is NewConfig for literals in tests and examples; it panics on
// an error.
func MustConfig(v any) Config {
	c, err := NewConfig(v)
	if err != nil {
		panic(err)
	}
	return c
}

// IsZero reports an empty config, which omitzero leaves out of a request
// (a non-nil empty one too, which MarshalJSON would write as null).
func (c Config) IsZero() bool { return len(c) == 0 }

// MarshalJSON writes the config's bytes (null when empty). Invalid bytes
// fail the encoding, so a malformed Config never reaches the service.
func (c Config) MarshalJSON() ([]byte, error) {
	if len(c) == 0 {
		return []byte("null"), nil
	}
	if !json.Valid(c) {
		return nil, errors.New("hosts: config is not valid JSON")
	}
	return c, nil
}

// check refuses, before anything is sent, a config MarshalJSON would fail
// on: a client-side VALIDATION_ERROR (StatusCode 0) naming the config,
// never quoting it (it may hold credentials).
func (c Config) check() error {
	if len(c) > 0 && !json.Valid(c) {
		return apierr.Invalid("config", "hosts: config is not valid JSON")
	}
	return nil
}

// UnmarshalJSON keeps a copy of the bytes; null leaves the config empty.
func (c *Config) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = nil
		return nil
	}
	*c = bytes.Clone(b)
	return nil
}

// Decode unmarshals the config into v.
func (c Config) Decode(v any) error {
	if len(c) == 0 {
		return errors.New("hosts: config is empty")
	}
	return json.Unmarshal(c, v)
}

// Map decodes the config as a generic object. Numbers are json.Number, so
// nothing is rounded.
func (c Config) Map() (map[string]any, error) {
	if len(c) == 0 {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(c))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("hosts: config: %w", err)
	}
	return m, nil
}

// ModelID is the config's modelId ("" when absent or not a string): that
// key exactly, as the service reads it (a struct tag would also match
// "modelid" or "ModelID").
func (c Config) ModelID() string {
	var m map[string]json.RawMessage
	if len(c) == 0 || json.Unmarshal(c, &m) != nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(m["modelId"], &s)
	return s
}

// Equal reports whether two configs hold the same JSON value, whatever
// their key order or spacing. Numbers compare by exact decimal value, as
// written: 0.7, 0.70 and 7e-1 are equal, so are 10000 and 1e4, and 0 and
// -0; two integers past 2^53 that differ are unequal, though JavaScript
// (and a float64) would read them as one number; a number whose exponent
// does not fit in 62 bits compares as written. Configs that are not JSON
// objects (null, or text that is not one JSON value) are equal only byte
// for byte. go-cmp uses it.
func (c Config) Equal(d Config) bool {
	if len(c) == 0 || len(d) == 0 || !json.Valid(c) || !json.Valid(d) {
		return bytes.Equal(c, d)
	}
	a, errA := c.Map()
	b, errB := d.Map()
	if errA != nil || errB != nil || a == nil || b == nil {
		return bytes.Equal(c, d)
	}
	return jsonEqual(a, b)
}

// String is the config's JSON text with the values of its connection
// headers (connectionDefaults.headers, each override's headersOverride)
// and any tunnel URL's ?k= secret redacted: they carry credentials. The
// bytes themselves (string(c)) are what the service gets.
func (c Config) String() string { return wire.RedactSecretParams(c.redactedHeaders()) }

// redactedHeaders is the config's JSON text with its header values
// redacted.
func (c Config) redactedHeaders() string {
	// Fast path: no key spelled "headers…" and no escape that could spell
	// one ("h\u0065aders").
	if !bytes.Contains(c, []byte(`"headers`)) && !bytes.Contains(c, []byte(`\u`)) {
		return string(c)
	}
	m, err := c.Map()
	if err != nil {
		return fmt.Sprintf("hosts.Config(%d bytes, not a JSON object)", len(c))
	}
	wire.RedactHeaderValues(m)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(m) // decoded JSON always re-encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// secrets are the config's credential header values, and the key-like
// values of other headers (wire.KeyLike), which an error answer's text is
// cleaned of (a service may quote the request body back). Other header
// values stay: replaced wherever they occur, "application/json" would
// mangle the message.
func (c Config) secrets() []string {
	m, err := c.Map()
	if err != nil {
		return nil
	}
	return wire.HeaderSecrets(m)
}

// GoString is String.
func (c Config) GoString() string { return c.String() }

// Format makes every verb print String (a []byte would otherwise print its
// bytes, headers and all, under %d or %x).
func (c Config) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue logs String.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// slog's JSON handler encodes a value with encoding/json, and Config's
// MarshalJSON is the service's bytes, header values included: the types
// that hold a Config log it as its String.

// The types that hold a Config print through a method-less copy with the
// same verb, so the Config goes through its own Format: without one, fmt's
// bad-verb path (a pointer nested in a slice under %s) prints it raw.

// Format implements fmt.Formatter with the config redacted.
func (h HostDetail) Format(f fmt.State, verb rune) {
	type HostDetail hostDetailPlain
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), HostDetail(h))
}

// Format implements fmt.Formatter with the config redacted.
func (p CreateParams) Format(f fmt.State, verb rune) {
	type CreateParams createParamsPlain
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), CreateParams(p))
}

// Format implements fmt.Formatter with the config redacted.
func (p UpdateParams) Format(f fmt.State, verb rune) {
	type UpdateParams updateParamsPlain
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), UpdateParams(p))
}

// hostDetailPlain, createParamsPlain and updateParamsPlain are the types
// without their methods, for Format.
type (
	hostDetailPlain   HostDetail
	createParamsPlain CreateParams
	updateParamsPlain UpdateParams
)

// LogValue implements slog.LogValuer.
func (h HostDetail) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", h.ID), slog.String("name", h.Name), slog.Any("config", h.Config))
}

// LogValue implements slog.LogValuer.
func (p CreateParams) LogValue() slog.Value {
	return slog.GroupValue(slog.String("name", p.Name), slog.String("template", string(p.Template)),
		slog.String("theme", p.Theme), slog.Any("config", p.Config))
}

// LogValue implements slog.LogValuer.
func (p UpdateParams) LogValue() slog.Value {
	return slog.GroupValue(slog.String("name", p.Name), slog.Any("config", p.Config))
}
