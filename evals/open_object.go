package evals

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// fieldNamesOf returns the JSON member names of struct type t's fields
// (their tag's name, else the Go name), without those tagged "-".
func fieldNamesOf(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// modelled reports whether key names one of names as encoding/json
// matches them: without regard to case, so a key it decoded into a
// modelled field is never kept a second time as an extra one.
func modelled(names []string, key string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, key) })
}

// extraMembers returns the members of the JSON object data whose keys are
// not among names (nil when there are none, or data is not an object).
func extraMembers(data []byte, names []string) (map[string]json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	var extra map[string]json.RawMessage
	for k, v := range all {
		if modelled(names, k) {
			continue
		}
		if extra == nil {
			extra = map[string]json.RawMessage{}
		}
		extra[k] = v
	}
	return extra, nil
}

// sendsExtra reports whether extra has a member withExtra sends: one not
// naming a modelled field.
func sendsExtra(names []string, extra map[string]json.RawMessage) bool {
	for k := range extra {
		if !modelled(names, k) {
			return true
		}
	}
	return false
}

// mergeExtra adds extra's members to into, made if nil and needed, and
// returns it.
func mergeExtra(into, extra map[string]json.RawMessage) map[string]json.RawMessage {
	if len(extra) == 0 {
		return into
	}
	// A fresh map: the value decoded into may be a copy of another
	// Step, whose Extra must not change with it.
	into = maps.Clone(into)
	if into == nil {
		into = make(map[string]json.RawMessage, len(extra))
	}
	maps.Copy(into, extra)
	return into
}

// withExtra appends extra's members (keys in order, each value as given)
// to obj, the JSON object the modelled fields encode to. A key naming a
// modelled field is left out: the field wins.
func withExtra(obj []byte, names []string, extra map[string]json.RawMessage) ([]byte, error) {
	if len(extra) == 0 {
		return obj, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !modelled(names, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return obj, nil
	}
	slices.Sort(keys)
	out := bytes.TrimRight(obj, " \n")
	out = slices.Clip(out[:len(out)-1]) // without its closing brace
	for _, k := range keys {
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		// A RawMessage marshals checked and compacted; nil as null.
		vb, err := json.Marshal(extra[k])
		if err != nil {
			return nil, err
		}
		if out[len(out)-1] != '{' {
			out = append(out, ',')
		}
		out = append(append(append(out, kb...), ':'), vb...)
	}
	return append(out, '}'), nil
}

// unplaced marks a type error of a nested decode as having no known
// offset: the inner decoder counts from the value's start, which a caller
// placing it in its document (the CLI's eval run --file) would misread;
// jsonerr finds it by its field path instead.
func unplaced(err error) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		te.Offset = -1
		// The public type's name, not its method-less copy's.
		switch te.Struct {
		case "stepFields":
			te.Struct = "Step"
		case "assertionFields":
			te.Struct = "Assertion"
		case "argMatcherFields":
			te.Struct = "ArgMatcher"
		}
		switch te.Type {
		case reflect.TypeFor[stepFields]():
			te.Type = reflect.TypeFor[Step]()
		case reflect.TypeFor[assertionFields]():
			te.Type = reflect.TypeFor[Assertion]()
		case reflect.TypeFor[argMatcherFields]():
			te.Type = reflect.TypeFor[ArgMatcher]()
		}
	}
	return err
}

var (
	stepNames      = sync.OnceValue(func() []string { return fieldNamesOf(reflect.TypeFor[stepFields]()) })
	assertionNames = sync.OnceValue(func() []string { return fieldNamesOf(reflect.TypeFor[assertionFields]()) })
	argNames       = sync.OnceValue(func() []string { return fieldNamesOf(reflect.TypeFor[argMatcherFields]()) })
)

// stepFields, assertionFields and argMatcherFields are Step, Assertion
// and ArgMatcher without their methods, for the encodings of their
// modelled fields.
type (
	stepFields       Step
	assertionFields  Assertion
	argMatcherFields ArgMatcher
)

// MarshalJSON encodes the modelled fields, then Extra's members that do
// not name one of them. A toolCall step always carries arguments ({} when
// nil): the service's current step schema requires them, though the
// reference leaves them optional.
func (s Step) MarshalJSON() ([]byte, error) {
	if s.Kind == KindToolCall && s.Arguments == nil {
		s.Arguments = map[string]any{}
	}
	b, err := json.Marshal(stepFields(s))
	if err != nil {
		return nil, err
	}
	return withExtra(b, stepNames(), s.Extra)
}

// UnmarshalJSON decodes the modelled fields and keeps every other member
// in Extra.
func (s *Step) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	// Members the JSON leaves out keep their values, as encoding/json
	// merges; Extra ("-") is not decoded into, and gains the new members.
	f := stepFields(*s)
	if err := json.Unmarshal(data, &f); err != nil {
		return unplaced(err)
	}
	extra, err := extraMembers(data, stepNames())
	if err != nil {
		return err
	}
	f.Extra = mergeExtra(f.Extra, extra)
	*s = Step(f)
	return nil
}

// MarshalJSON encodes the modelled fields, then Extra's members that do
// not name one of them.
func (a Assertion) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(assertionFields(a))
	if err != nil {
		return nil, err
	}
	return withExtra(b, assertionNames(), a.Extra)
}

// UnmarshalJSON decodes the modelled fields and keeps every other member
// in Extra.
func (a *Assertion) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	// Members the JSON leaves out keep their values, as encoding/json
	// merges; Extra ("-") is not decoded into, and gains the new members.
	f := assertionFields(*a)
	if err := json.Unmarshal(data, &f); err != nil {
		return unplaced(err)
	}
	extra, err := extraMembers(data, assertionNames())
	if err != nil {
		return err
	}
	f.Extra = mergeExtra(f.Extra, extra)
	*a = Assertion(f)
	return nil
}

// MarshalJSON encodes the modelled fields, nil Args as {} when Extra has
// no member to send (the service requires the object), then Extra's
// members that do not name a modelled field.
func (m ArgMatcher) MarshalJSON() ([]byte, error) {
	type wire struct {
		Args             map[string]any `json:"args,omitzero"`
		ArgumentMatching string         `json:"argumentMatching,omitempty"`
	}
	w := wire{Args: m.Args, ArgumentMatching: m.ArgumentMatching}
	if w.Args == nil && !sendsExtra(argNames(), m.Extra) {
		w.Args = map[string]any{}
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	return withExtra(b, argNames(), m.Extra)
}

// UnmarshalJSON decodes the modelled fields and keeps every other member
// in Extra.
func (m *ArgMatcher) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	f := argMatcherFields(*m)
	if err := json.Unmarshal(data, &f); err != nil {
		return unplaced(err)
	}
	extra, err := extraMembers(data, argNames())
	if err != nil {
		return err
	}
	f.Extra = mergeExtra(f.Extra, extra)
	*m = ArgMatcher(f)
	return nil
}
