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
// keep their precision and nothing is re-encoded; c itself is returned,
// uncopied, when it has neither member or is not a JSON object (check has
// refused invalid JSON already, and the service answers anything else).
func (c Config) input() Config {
	if len(c) == 0 {
		return c
	}
	// The SDK accepts what encoding/json's Valid does: duplicate names
	// and invalid UTF-8 included. A bytes.Buffer is read in place, not
	// copied into the decoder.
	dec := jsontext.NewDecoder(bytes.NewBuffer(c), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return c
	}
	// out stays nil until a member is dropped: then it starts as c up to
	// the last member kept (or the '{'), and every later member kept is
	// appended from c as written. Offsets into c, not the decoder's
	// values, say where a member is, so nothing needs copying before then.
	var out []byte
	kept := dec.InputOffset()
	for dec.PeekKind() == '"' {
		name, err := dec.ReadValue()
		if err != nil {
			return c
		}
		start := dec.InputOffset() - int64(len(name))
		drop := isReadBackOnly(name)
		if _, err := dec.ReadValue(); err != nil {
			return c
		}
		end := dec.InputOffset()
		switch {
		case !drop && out == nil:
			kept = end
		case !drop:
			if out[len(out)-1] != '{' {
				out = append(out, ',')
			}
			out = append(out, c[start:end]...)
		case out == nil:
			out = append(make([]byte, 0, len(c)), c[:kept]...)
		}
	}
	if out == nil {
		return c
	}
	return append(out, '}')
}

// isReadBackOnly reports whether the raw (quoted) member name is one of
// readBackOnly's, however it is spelled; only a name with an escape is
// unquoted (and allocates).
func isReadBackOnly(raw []byte) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return len(raw) >= 2 && readBackOnly[string(raw[1:len(raw)-1])]
	}
	unq, err := jsontext.AppendUnquote(nil, raw)
	return err == nil && readBackOnly[string(unq)]
}
