package shared_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/shared"
)

func TestMillisUnmarshal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want shared.Millis
	}{
		{`0`, 0},
		{`1767225600000`, 1767225600000},
		{`-1000`, -1000},
		{` 42 `, 42},
		{`1767225600000.9`, 1767225600000},
		{`1.5`, 1},
		{`-1.5`, -1},
		{`1e3`, 1000},
		{`1.7672256e12`, 1767225600000},
		{`null`, 0},
		{`9223372036854775807`, 9223372036854775807},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			m := shared.Millis(123) // null must reset it
			if err := m.UnmarshalJSON([]byte(tt.in)); err != nil {
				t.Fatalf("UnmarshalJSON(%s): %v", tt.in, err)
			}
			if m != tt.want {
				t.Errorf("UnmarshalJSON(%s) = %d, want %d", tt.in, m, tt.want)
			}
		})
	}
}

func TestMillisUnmarshalBad(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`"1767225600000"`, `"sk_test_SECRET123"`, `true`, `{}`, `[1]`, `1e400`, `-1e400`,
		`9223372036854775808`, `1e19`, `-1e19`, `NaN`, `Infinity`, `abc`, ``,
	} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			m := shared.Millis(7)
			err := m.UnmarshalJSON([]byte(in))
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				t.Fatalf("UnmarshalJSON(%s) = %v, want *json.UnmarshalTypeError", in, err)
			}
			if m != 7 {
				t.Errorf("UnmarshalJSON(%s) changed the value to %d on error", in, m)
			}
			if in != "" && strings.Contains(err.Error(), in) {
				t.Errorf("error echoes the input: %q", err.Error())
			}
		})
	}
}

func TestMillisInStruct(t *testing.T) {
	t.Parallel()
	type resource struct {
		ID        string        `json:"id"`
		CreatedAt shared.Millis `json:"createdAt"`
		UpdatedAt shared.Millis `json:"updatedAt,omitempty"`
	}
	var got resource
	if err := json.Unmarshal([]byte(`{"id":"a","createdAt":1767225600123.7,"updatedAt":null}`), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(resource{ID: "a", CreatedAt: 1767225600123}, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	out, err := json.Marshal(resource{ID: "b", CreatedAt: 5})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"id":"b","createdAt":5}` {
		t.Errorf("Marshal = %s", out)
	}
	// A reflected secret in a timestamp field must not reach error text.
	err = json.Unmarshal([]byte(`{"id":"a","createdAt":"Bearer sk_test_SECRET123"}`), &got)
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("decode error = %v; want an error without the value", err)
	}
	if err != nil && !strings.Contains(err.Error(), "createdAt") {
		t.Errorf("decode error %q does not name the field", err)
	}
}

func TestMillisTime(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 1, 0, 0, 0, 123_000_000, time.FixedZone("X", 3600))
	m := shared.MillisOf(at)
	if m != 1767222000123 {
		t.Errorf("MillisOf = %d", m)
	}
	if got := m.Time(); !got.Equal(at) || got.Location() != time.UTC {
		t.Errorf("Time() = %v, want %v in UTC", got, at)
	}
	if got := m.String(); got != "2025-12-31T23:00:00.123Z" {
		t.Errorf("String() = %q", got)
	}
	if got := shared.Millis(1000).String(); got != "1970-01-01T00:00:01Z" {
		t.Errorf("String(1000) = %q", got)
	}
	if m.IsZero() {
		t.Error("IsZero on a set timestamp")
	}
	var zero shared.Millis
	if !zero.IsZero() || !zero.Time().IsZero() || zero.String() != "" {
		t.Errorf("zero Millis: IsZero=%v Time=%v String=%q", zero.IsZero(), zero.Time(), zero.String())
	}
	if got := shared.Millis(-1).Time(); !got.Equal(time.UnixMilli(-1)) {
		t.Errorf("Millis(-1).Time() = %v", got)
	}
}
