package environments

import (
	"bytes"
	"encoding/json"
)

// UnmarshalJSON decodes a build, reading the hosted service's e2bBuildId
// into ProviderBuildID when providerBuildId is absent or null.
func (b *Build) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil // as for any value: left unchanged
	}
	type plain Build
	var v struct {
		plain
		// Shallower than plain's field of the same name: these decode
		// the two spellings, telling absent from "".
		ProviderBuildID *string `json:"providerBuildId"`
		E2BBuildID      *string `json:"e2bBuildId"`
	}
	v.plain = plain(*b) // members the JSON leaves out keep their values, as encoding/json merges
	if err := json.Unmarshal(data, &v); err != nil {
		if te, ok := err.(*json.UnmarshalTypeError); ok {
			te.Offset = -1 // counted from this build's start, not its document's
		}
		return err
	}
	*b = Build(v.plain)
	switch {
	case v.ProviderBuildID != nil:
		b.ProviderBuildID = *v.ProviderBuildID
	case v.E2BBuildID != nil:
		b.ProviderBuildID = *v.E2BBuildID
	}
	return nil
}
