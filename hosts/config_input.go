package hosts

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// readBackOnly are the top-level members of a read host config that are
// not host config input: the stored config row's id and its schemaVersion.
// The service's backend refuses them on a write (400 VALIDATION_ERROR), and
// its own client leaves them out before saving a config it read.
var readBackOnly = map[string]bool{"id": true, "schemaVersion": true}

// input is the config as Create and Update send it: c less its top-level
// id and schemaVersion members (every spelling of those names, duplicates
// too). Every other member keeps its raw bytes and its place, so numbers
// keep their precision and nothing is re-encoded; c itself is returned
// when it has neither member or is not a JSON object (check has refused
// invalid JSON already, and the service answers anything else).
func (c Config) input() Config {
	if len(c) == 0 {
		return c
	}
	// The SDK accepts what encoding/json's Valid does: duplicate names
	// and invalid UTF-8 included.
	dec := jsontext.NewDecoder(bytes.NewReader(c), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return c
	}
	out := []byte{'{'}
	dropped := false
	for dec.PeekKind() == '"' {
		rawName, err := dec.ReadValue()
		if err != nil {
			return c
		}
		name := bytes.Clone(rawName) // rawName is only valid until the next read
		val, err := dec.ReadValue()
		if err != nil {
			return c
		}
		if unq, err := jsontext.AppendUnquote(nil, name); err == nil && readBackOnly[string(unq)] {
			dropped = true
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, name...), ':'), val...)
	}
	if !dropped {
		return c
	}
	return append(out, '}')
}
