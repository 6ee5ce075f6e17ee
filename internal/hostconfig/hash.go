package hostconfig

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
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
// writes it with JavaScript's JSON.stringify: its keys in the service's
// order, then JavaScript's property order in nested objects (integer-like
// keys first, in numeric order), numbers and strings as JavaScript prints
// them.
func CanonicalJSON(canon map[string]any) []byte {
	var b bytes.Buffer
	writeObject(&b, canon, topOrder, true, true)
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
// fixed), the rest in JavaScript's property order; nested objects follow
// fixedOrder, mcpProfile (at the top) its own rule, or that order.
func writeObject(b *bytes.Buffer, m map[string]any, order []string, fixed, top bool) {
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
	slices.SortFunc(keys, func(x, y string) int {
		if fixed {
			if d := rank(x) - rank(y); d != 0 {
				return d
			}
		}
		return jsKeyOrder(x, y)
	})
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, k)
		b.WriteByte(':')
		if v, ok := m[k].(map[string]any); ok {
			switch {
			case top && k == "mcpProfile":
				writeObject(b, v, []string{"profileVersion"}, true, false)
			case fixed && fixedOrder[k] != nil:
				writeObject(b, v, fixedOrder[k], true, false)
			default:
				writeObject(b, v, nil, false, false)
			}
			continue
		}
		writeValue(b, m[k])
	}
	b.WriteByte('}')
}

// jsKeyOrder is the order of an object's keys after the service sorts them:
// JavaScript enumerates integer-like keys first, ascending, then the others
// in insertion order, which Array.prototype.sort made UTF-16 order.
func jsKeyOrder(x, y string) int {
	xi, xok := arrayIndex(x)
	yi, yok := arrayIndex(y)
	switch {
	case xok && yok:
		return cmp.Compare(xi, yi)
	case xok:
		return -1
	case yok:
		return 1
	}
	return slices.Compare(utf16.Encode([]rune(x)), utf16.Encode([]rune(y)))
}

// arrayIndex reads a canonical array index ("0", "17"; not "017"), the
// keys JavaScript orders first.
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return n, err == nil && n < 1<<32-1
}

// writeValue writes an array, string, number, boolean or null as
// JSON.stringify does (objects in arrays in JavaScript's key order).
func writeValue(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case map[string]any:
		writeObject(b, x, nil, false, false)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	case string:
		writeString(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	default:
		f, _ := Number(asFloats(x))
		if math.IsInf(f, 0) {
			// Beyond a double's range JSON.parse gives Infinity, which
			// JSON.stringify writes as null (json.Marshal refuses it).
			b.WriteString("null")
			return
		}
		if f == 0 {
			f = 0 // -0 prints as 0
		}
		n, _ := json.Marshal(f) // encoding/json formats floats as ES6 does
		b.Write(n)
	}
}

// writeString quotes s as JSON.stringify does: only the quote, the
// backslash and control characters are escaped (not <, >, &, U+2028).
func writeString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"', r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
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
