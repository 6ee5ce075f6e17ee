package ingest

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	"github.com/projectops/projectops-go/internal/wire"
)

// HostConfig is a run's host config (decoded JSON: maps, slices, strings,
// numbers, booleans). Its connection headers carry credentials, whatever
// their names: every fmt verb, slog, encoding/json and the spool show their
// values as [REDACTED]; only the SDK's request bodies send them.
type HostConfig map[string]any

// redacted is a copy with the header values replaced.
func (c HostConfig) redacted() any {
	if c == nil {
		return nil
	}
	b, err := json.Marshal(map[string]any(c))
	if err != nil {
		return "[unencodable host config]"
	}
	var v any
	_ = json.Unmarshal(b, &v)
	wire.RedactHeaderValues(v)
	return v
}

// MarshalJSON writes the config with its header values redacted.
func (c HostConfig) MarshalJSON() ([]byte, error) { return json.Marshal(c.redacted()) }

// String is the redacted config as JSON after the type name; a nil config
// prints as an empty one, HostConfig{}, as evals.ModelAPIKeys does.
func (c HostConfig) String() string {
	if c == nil {
		return "HostConfig{}"
	}
	v := c.redacted()
	if _, failed := v.(string); failed {
		// Glued to the type name, the quoted marker would read as JSON.
		return "HostConfig(unencodable)"
	}
	b, _ := json.Marshal(v) // decoded JSON always re-encodes
	return "HostConfig" + string(b)
}

// GoString is String.
func (c HostConfig) GoString() string { return c.String() }

// Format makes every verb print String.
func (c HostConfig) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue logs String.
func (c HostConfig) LogValue() slog.Value { return slog.StringValue(c.String()) }
