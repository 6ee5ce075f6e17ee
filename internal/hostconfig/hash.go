package hostconfig

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
)

// The service hashes the JSON text of its canonical object, which it builds
// field by field: the key order is part of the content address. Nested
// objects are key-sorted, except these, built in a fixed order too, and
// mcpProfile, whose profileVersion comes first.
var (
	topOrder = []string{"schemaVersion", "hostStyle", "modelId", "systemPrompt", "temperature",
		"requireToolApproval", "progressiveToolDiscovery", "respectToolVisibility", "harness", "computer",
		"serverIds", "optionalServerIds", "builtInToolIds", "skillSelection", "modelVisibleMcpToolResults",
		"mcpToolResultImageRendering", "connectionDefaults", "clientCapabilities", "hostContext",
		"hostCapabilitiesOverride", "chatUiOverride", "mcpProfile", "oauthProfile", "serverConnectionOverrides"}
	fixedOrder = map[string][]string{
		"computer":                    {"kind", "workdir"},
		"connectionDefaults":          {"headers", "requestTimeout"},
		"modelVisibleMcpToolResults":  {"directContent", "embeddedResources", "linkedResources"},
		"mcpToolResultImageRendering": {"placement", "directContent", "embeddedResources", "linkedResources"},
		"directContent":               {"text", "image", "audio"},
		"embeddedResources":           {"text", "blob"},
		"linkedResources":             {"text", "blob"},
		"blob":                        {"enabled", "image", "audio", "document", "video", "otherBinary"},
	}
)

// CanonicalJSON is a canonical config (from Canonicalize) as the service
// writes it: its keys in the service's order, numbers as JavaScript prints
// them, no HTML escaping.
func CanonicalJSON(canon map[string]any) []byte {
	var b bytes.Buffer
	writeObject(&b, canon, topOrder, true)
	return b.Bytes()
}

// ID is the content address of a canonical config, the SHA-256 hex of its
// CanonicalJSON: a host's hostConfigId, and for an eval run's host config
// (stripped of runtime ids, see ForEvalWire) its hostConfigHash.
func ID(canon map[string]any) string {
	sum := sha256.Sum256(CanonicalJSON(canon))
	return hex.EncodeToString(sum[:])
}

// ForEvalWire is a run's host config as eval ingest carries it: without the
// runtime server ids, their overrides and the computer, which do not
// travel with an eval.
func ForEvalWire(cfg map[string]any) map[string]any {
	out := make(map[string]any, len(cfg))
	for k, v := range cfg {
		switch k {
		case "serverIds", "optionalServerIds", "serverConnectionOverrides", "computer":
		default:
			out[k] = v
		}
	}
	return out
}

// writeObject writes m with the keys of order first, in that order (when
// fixed) and the rest sorted; nested objects follow fixedOrder or sort.
func writeObject(b *bytes.Buffer, m map[string]any, order []string, fixed bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		if i := slices.Index(order, k); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(keys, func(x, y string) int {
		if fixed {
			if d := rank(x) - rank(y); d != 0 {
				return d
			}
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeValue(b, k)
		b.WriteByte(':')
		switch v := m[k].(type) {
		case map[string]any:
			switch {
			case k == "mcpProfile":
				writeObject(b, v, []string{"profileVersion"}, true)
			case fixedOrder[k] != nil && fixed:
				writeObject(b, v, fixedOrder[k], true)
			default:
				writeObject(b, v, nil, false)
			}
		default:
			writeValue(b, v)
		}
	}
	b.WriteByte('}')
}

// writeValue writes a JSON value with sorted keys (encoding/json sorts map
// keys), numbers as float64 (as JavaScript holds them) and no HTML escaping.
func writeValue(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(asFloats(v)) // decoded JSON always re-encodes
	b.Truncate(b.Len() - 1)     // Encode's newline
}

// asFloats turns every number into a float64, as JavaScript reads them.
func asFloats(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = asFloats(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = asFloats(e)
		}
		return out
	case json.Number, int:
		f, _ := Number(x)
		return f
	case int64:
		return float64(x)
	case float32:
		return float64(x)
	}
	return v
}
