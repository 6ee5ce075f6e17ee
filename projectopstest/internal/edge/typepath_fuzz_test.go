package edge

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
)

// fuzzBodyTypes are real request types the double binds bodies into.
var fuzzBodyTypes = []reflect.Type{
	reflect.TypeFor[evals.CreateSuiteParams](),
	reflect.TypeFor[evals.RunParams](),
	reflect.TypeFor[ingest.RunParams](),
	reflect.TypeFor[hosts.CreateParams](),
}

// FuzzMisfit holds the positional walk to encoding/json over real body
// types: whenever the decoder (after the integral rebind) refuses a body
// by type, misfit names a field, and it never names one the decoder
// takes. Each input is a body as given (data) and, from seed, a body built
// to fit each type with random faults: wrong kinds, case-folded keys,
// integer edges written in several ways, extra array elements.
func FuzzMisfit(f *testing.F) {
	f.Add([]byte(`{"name":"s","tests":[{"title":"t","steps":[{"id":"a","kind":"assert","assertion":{"type":"x","args":5}}]}]}`), uint64(1))
	f.Add([]byte(`{"suiteName":"s","expectedIterations":9223372036854775807,"PASSCRITERIA":{"minimumPassRate":"x"}}`), uint64(2))
	f.Add([]byte(`{"tests":[{"runs":2.0,"RUNS":1e0}]}`), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		r := rand.New(rand.NewPCG(seed, seed>>7))
		for _, typ := range fuzzBodyTypes {
			if v, err := parseNumbers(data); err == nil {
				if _, ok := v.(map[string]any); ok {
					checkMisfit(t, typ, data)
				}
			}
			body, _ := json.Marshal(genBody(r, typ, 0))
			checkMisfit(t, typ, body)
		}
	})
}

// checkMisfit fails t when misfit and the double's bind disagree on data.
func checkMisfit(t *testing.T, typ reflect.Type, data []byte) {
	t.Helper()
	v, err := parseNumbers(data)
	if err != nil {
		return
	}
	field, want := misfit(v, typ, "")
	berr := bindLikeDouble(data, typ)
	switch {
	case typeRefused(berr) && want == "":
		t.Errorf("%s: encoding/json refuses %s by type (%v), misfit names nothing", typ, data, berr)
	case berr == nil && want != "":
		t.Errorf("%s: encoding/json takes %s, misfit names %q (%s)", typ, data, field, want)
	}
}

// genBody builds a JSON value (numbers as json.Number literals) that
// mostly fits t, with random faults.
func genBody(r *rand.Rand, t reflect.Type, depth int) any {
	if r.IntN(10) == 0 || depth > 6 {
		return wildValue(r)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		if t == numberType && r.IntN(2) == 0 {
			return json.Number("12")
		}
		return "s"
	case reflect.Bool:
		return r.IntN(2) == 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return json.Number([]string{"0", "3", "-1", "-0", "2.0", "1e0", "1.5", "1e20", "255", "256",
			"9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
			"9.223372036854775807e18", "2147483648"}[r.IntN(16)])
	case reflect.Float32, reflect.Float64:
		return json.Number([]string{"0.5", "1e39", "-3", "1e308"}[r.IntN(4)])
	case reflect.Slice, reflect.Array:
		n := r.IntN(3)
		if t.Kind() == reflect.Array {
			n = t.Len() + r.IntN(2) // sometimes one too many
		}
		out := make([]any, n)
		for i := range out {
			out[i] = genBody(r, t.Elem(), depth+1)
		}
		return out
	case reflect.Map:
		return map[string]any{"k": genBody(r, t.Elem(), depth+1)}
	case reflect.Struct:
		out := map[string]any{}
		for _, f := range structFields(t) {
			if r.IntN(2) == 0 {
				continue
			}
			k := f.name
			if r.IntN(6) == 0 {
				k = strings.ToUpper(k) // encoding/json matches it all the same
			}
			out[k] = genBody(r, f.typ, depth+1)
		}
		return out
	}
	return wildValue(r)
}

// wildValue is a value of a random JSON kind.
func wildValue(r *rand.Rand) any {
	return []any{"x", json.Number("3"), false, nil, []any{json.Number("1"), "y"},
		map[string]any{"type": "x", "kind": "prompt"}, json.Number("2.5")}[r.IntN(7)]
}

// TestMisfitRandomBodies runs FuzzMisfit's check over a fixed set of
// generated bodies, so every test run covers the real body types.
func TestMisfitRandomBodies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		for _, typ := range fuzzBodyTypes {
			body, _ := json.Marshal(genBody(r, typ, 0))
			checkMisfit(t, typ, body)
		}
		if t.Failed() {
			return
		}
	}
}
