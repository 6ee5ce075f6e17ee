package shared

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"time"
)

// Millis is a timestamp in epoch milliseconds, the service's time format.
// It decodes integers, fractional numbers (truncated) and null (zero).
type Millis int64

// MillisOf converts a time to epoch milliseconds; the zero time gives the
// zero Millis (absent).
func MillisOf(t time.Time) Millis {
	if t.IsZero() {
		return 0 // absent, as Millis(0).Time() is the zero time
	}
	return Millis(t.UnixMilli())
}

// Time returns the timestamp as a time.Time in UTC; the zero Millis gives the
// zero time.
func (m Millis) Time() time.Time {
	if m == 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(m)).UTC()
}

// IsZero reports whether the timestamp is absent.
func (m Millis) IsZero() bool { return m == 0 }

// String formats the timestamp as RFC 3339 (empty when absent).
func (m Millis) String() string {
	if m == 0 {
		return ""
	}
	return m.Time().Format(time.RFC3339Nano)
}

// UnmarshalJSON accepts a JSON number or null.
func (m *Millis) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*m = 0
		return nil
	}
	if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*m = Millis(i)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || f >= math.MaxInt64 || f < math.MinInt64 {
		// The value itself is not echoed: error text gets logged, and a
		// misbehaving server could reflect anything into a field.
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: millisType}
	}
	*m = Millis(f)
	return nil
}

var millisType = reflect.TypeFor[Millis]()

// jsonKind names the kind of a JSON value for error messages.
func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "empty value"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "out-of-range number"
	}
	return "non-number"
}
