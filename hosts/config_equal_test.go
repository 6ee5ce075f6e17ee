package hosts_test

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/hosts"
)

// Equal compares numbers by exact decimal value: however a number is
// spelled, the service (JSON.parse, then JSON.stringify) reads it alike
// and writes it back in shortest form, so a config sent as 0.70 reads back
// as 0.7. Exact, not float64: integers past 2^53 that differ stay unequal.
func TestConfigEqualSameNumberValue(t *testing.T) {
	t.Parallel()
	for _, p := range []struct {
		a, b string
		want bool
	}{
		{`{"temperature":0.7}`, `{"temperature":0.70}`, true},
		{`{"temperature":0.7}`, `{"temperature":7e-1}`, true},
		{`{"temperature":1}`, `{"temperature":1.0}`, true},
		{`{"temperature":0}`, `{"temperature":-0.0e5}`, true},
		{`{"connectionDefaults":{"requestTimeout":10000}}`, `{"connectionDefaults":{"requestTimeout":1e4}}`, true},
		{`{"x":[120,0.001]}`, `{"x":[1.20E+2,1e-3]}`, true},
		{`{"x":1e999999999}`, `{"x":10e999999998}`, true},
		{`{"temperature":0.7}`, `{"temperature":0.71}`, false},
		{`{"temperature":-1}`, `{"temperature":1}`, false},
		{`{"x":9007199254740993}`, `{"x":9007199254740992}`, false},
		{`{"x":1}`, `{"x":"1"}`, false},
		{`{"x":[1]}`, `{"x":[1,1]}`, false},
	} {
		a, b := hosts.MustConfig(p.a), hosts.MustConfig(p.b)
		if got := a.Equal(b); got != p.want {
			t.Errorf("Config(%s).Equal(%s) = %v, want %v", p.a, p.b, got, p.want)
		}
		if got := b.Equal(a); got != p.want {
			t.Errorf("Config(%s).Equal(%s) = %v, want %v", p.b, p.a, got, p.want)
		}
	}
}

// A number whose exponent passes 62 bits compares as written, which keeps
// Equal linear in the text (a big-integer exponent is superlinear); and
// what is not one JSON object compares byte for byte.
func TestConfigEqualEdges(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("9", 100_000)
	for _, p := range []struct {
		a, b string
		want bool
	}{
		{`{"x":1e` + huge + `}`, `{"x":1e` + huge + `}`, true},
		{`{"x":1e` + huge + `}`, `{"x":10e` + huge + `}`, false},
		{`{"x":1e4611686018427387904}`, `{"x":10e4611686018427387903}`, true},
		{`null`, `{}`, false},
		{`null`, `null`, true},
		{`{"a":1}`, `{"a":1} {"b":2}`, false},
	} {
		a, b := hosts.Config(p.a), hosts.Config(p.b)
		if got := a.Equal(b); got != p.want {
			t.Errorf("Config(%.40s).Equal(%.40s) = %v, want %v", p.a, p.b, got, p.want)
		}
		if got := b.Equal(a); got != p.want {
			t.Errorf("Config(%.40s).Equal(%.40s) = %v, want %v", p.b, p.a, got, p.want)
		}
	}
}
