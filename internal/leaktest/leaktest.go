// Package leaktest renders a value every way a program prints or logs it,
// for tests asserting that a secret never shows. It is imported by _test
// files only.
package leaktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// Verbs are the fmt verbs a value may be printed with. %s, %q, %x and %d
// matter beyond %v: on a nested pointer to a type without a Format method
// fmt takes its bad-verb path, which prints the pointee raw.
var Verbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"}

// Renderings renders v with every verb, Sprint and Sprintln, on the value,
// a pointer, slices and maps of both and structs nesting them; with slog's
// text and JSON handlers; and, when withJSON is set (for types whose JSON
// is not their wire form), with encoding/json.
func Renderings[T any](v T, withJSON bool) map[string]string {
	p := &v
	type nest struct {
		X T
		P *T
	}
	targets := map[string]any{
		"value": v, "ptr": p, "slice": []T{v}, "ptrslice": []*T{p}, "map": map[string]T{"a": v},
		"ptrmap": map[string]*T{"a": p}, "nested": nest{X: v, P: p}, "nestedptr": &nest{X: v, P: p},
		"anyslice": []any{v},
	}
	out := map[string]string{}
	for tn, x := range targets {
		for _, verb := range Verbs {
			out[tn+" "+verb] = fmt.Sprintf(verb, x)
		}
		out[tn+" Sprint"] = fmt.Sprint(x)
		out[tn+" Sprintln"] = fmt.Sprintln(x)
		if withJSON {
			if b, err := json.Marshal(x); err == nil {
				out[tn+" json"] = string(b)
			}
		}
	}
	// slog's JSON handler encodes what is not a LogValuer with
	// encoding/json: only the value and its pointer are the type's to
	// answer for unless its JSON is redacted too.
	for _, tn := range []string{"value", "ptr", "nested", "anyslice"} {
		var text, js bytes.Buffer
		th := slog.New(slog.NewTextHandler(&text, &slog.HandlerOptions{Level: slog.LevelDebug}))
		jh := slog.New(slog.NewJSONHandler(&js, &slog.HandlerOptions{Level: slog.LevelDebug}))
		th.Debug("m", "v", targets[tn])
		th.With("w", targets[tn]).WithGroup("g").Info("m", "v", targets[tn])
		out[tn+" slog text"] = text.String()
		if withJSON || tn == "value" || tn == "ptr" {
			jh.Debug("m", "v", targets[tn])
			jh.With("w", targets[tn]).WithGroup("g").Info("m", "v", targets[tn])
			out[tn+" slog json"] = js.String()
		}
	}
	return out
}

// NoLeak fails t for every rendering of v (see Renderings) that contains
// one of secrets in any spelling fmt gives it: as text (case folded), in
// hex (%x on a string) or as a []byte's decimal bytes (a byte slice fmt
// prints raw).
func NoLeak[T any](t testing.TB, name string, v T, withJSON bool, secrets ...string) {
	t.Helper()
	for how, s := range Renderings(v, withJSON) {
		for _, m := range secrets {
			for _, spelling := range []string{m, fmt.Sprintf("%x", m), strings.Trim(fmt.Sprint([]byte(m)), "[]")} {
				if strings.Contains(strings.ToLower(s), strings.ToLower(spelling)) {
					t.Errorf("%s [%s] shows %q: %.400s", name, how, m, s)
				}
			}
		}
	}
}
