// Package hostconfig validates and canonicalizes host configs as the service
// does (reference notes, "Host config v2 validation"): the double checks
// what it is sent with it, and the SDK computes hostConfigHash from it.
package hostconfig

import (
	"slices"
	"strings"
)

// SchemaVersion is the host config version every canonical config carries.
const SchemaVersion = 2

// ProtocolVersions are the MCP protocol versions a config may pin (07-09).
var ProtocolVersions = []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// typed are the scalar creation fields and the JSON type each must have.
var typed = map[string]string{
	"hostStyle": "string", "modelId": "string", "systemPrompt": "string",
	"requireToolApproval": "boolean", "respectToolVisibility": "boolean", "progressiveToolDiscovery": "boolean",
}

// Shapes of the two image objects (rule 5): nil is a boolean leaf.
var (
	blobShape  = map[string]any{"enabled": nil, "image": nil, "audio": nil, "document": nil, "video": nil, "otherBinary": nil}
	modelShape = map[string]any{
		"directContent":     map[string]any{"text": nil, "image": nil, "audio": nil},
		"embeddedResources": map[string]any{"text": nil, "blob": blobShape},
		"linkedResources":   map[string]any{"text": nil, "blob": blobShape},
	}
	renderShape = map[string]any{
		"placement":         []string{"none", "collapsed", "inline"},
		"directContent":     map[string]any{"image": nil},
		"embeddedResources": map[string]any{"blob": map[string]any{"image": nil}},
		"linkedResources":   map[string]any{"blob": map[string]any{"image": nil}},
	}
)

// Canonicalize validates a host config as the service's shared validator
// (canonicalizeHostConfigV2, reference notes "Host config v2 validation")
// does, in its order, and returns the canonical form: schemaVersion 2, the
// known fields only, id lists deduplicated and sorted. The error's message
// is the service's ("hostConfigV2: temperature must be finite").
func Canonicalize(in map[string]any) (map[string]any, error) {
	out := map[string]any{"schemaVersion": SchemaVersion}
	for k, kind := range typed {
		v, ok := in[k]
		if !ok {
			continue
		}
		if (kind == "string" && !IsString(v)) || (kind == "boolean" && !IsBool(v)) {
			return nil, fail("%s must be a %s", k, kind)
		}
		out[k] = v
	}
	// 1. temperature and connection defaults.
	if !Finite(in["temperature"]) {
		return nil, fail("temperature must be finite")
	}
	out["temperature"] = in["temperature"]
	cd, ok := Object(in["connectionDefaults"])
	if !ok {
		return nil, fail("connectionDefaults is required")
	}
	if !Finite(cd["requestTimeout"]) {
		return nil, fail("connectionDefaults.requestTimeout must be finite")
	}
	headers := map[string]any{}
	if h, present := cd["headers"]; present {
		hm, ok := Object(h)
		if !ok {
			return nil, fail("connectionDefaults.headers must be a plain object")
		}
		for k, v := range hm {
			if !IsString(v) {
				return nil, fail("connectionDefaults.headers.%s must be a string", k)
			}
			headers[k] = v
		}
	}
	out["connectionDefaults"] = map[string]any{"headers": headers, "requestTimeout": cd["requestTimeout"]}
	// 2. overrides are plain objects when present.
	for _, k := range []string{"hostCapabilitiesOverride", "chatUiOverride"} {
		if v, present := in[k]; present {
			m, ok := Object(v)
			if !ok {
				return nil, fail("%s must be a plain object", k)
			}
			out[k] = DeepCopy(m)
		}
	}
	// 3. harness: absent, or one of the two (null is refused).
	if v, present := in["harness"]; present {
		if s, _ := v.(string); s != "claude-code" && s != "codex" {
			return nil, fail(`harness must be "claude-code" or "codex"`)
		}
		out["harness"] = v
	}
	// 4. host context.
	hc, err := requiredObject(in, "hostContext")
	if err != nil {
		return nil, err
	}
	out["hostContext"] = DeepCopy(hc)
	// 5. image fields: canonical, and dropped when they say nothing.
	for _, f := range []struct {
		k  string
		sh map[string]any
	}{{"modelVisibleMcpToolResults", modelShape}, {"mcpToolResultImageRendering", renderShape}} {
		if v, present := in[f.k]; present {
			img, err := booleanLeaves(v, f.sh, f.k)
			if err != nil {
				return nil, err
			}
			if img != nil {
				out[f.k] = img
			}
		}
	}
	// 6. computer.
	if c, err := computer(in["computer"]); err != nil {
		return nil, err
	} else if c != nil {
		out["computer"] = c
	}
	// 7. id lists.
	if v, present := in["builtInToolIds"]; present {
		ids, err := stringList(v, "builtInToolIds", true, true)
		if err != nil {
			return nil, err
		}
		if len(ids) > 0 {
			out["builtInToolIds"] = ids
		}
	}
	for _, k := range []string{"serverIds", "optionalServerIds"} {
		ids := []any{}
		if v, present := in[k]; present {
			if ids, err = stringList(v, k, true, true); err != nil {
				return nil, err
			}
		}
		out[k] = ids
	}
	// 8. client capabilities.
	cc, err := requiredObject(in, "clientCapabilities")
	if err != nil {
		return nil, err
	}
	out["clientCapabilities"] = DeepCopy(cc)
	// 9. MCP profile: absent, or a plain object (null is refused).
	if v, present := in["mcpProfile"]; present {
		p, err := profile(v)
		if err != nil {
			return nil, err
		}
		out["mcpProfile"] = p
	}
	// 10. per-server connection overrides.
	if v, present := in["serverConnectionOverrides"]; present && v != nil {
		o, err := connectionOverrides(v, out)
		if err != nil {
			return nil, err
		}
		if len(o) > 0 {
			out["serverConnectionOverrides"] = o
		}
	}
	return out, nil
}

// computer is rule 6: null or absent is dropped; kind must be personal;
// toolset only "bash" and then dropped; workdir trimmed, empty dropped.
func computer(v any) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := Object(v)
	if !ok {
		return nil, fail("computer must be a plain object")
	}
	out := map[string]any{}
	for k, x := range m {
		switch k {
		case "kind":
			if x != "personal" {
				return nil, fail(`computer.kind must be "personal"`)
			}
			out["kind"] = x
		case "toolset":
			if x != "bash" {
				return nil, fail(`computer.toolset must be "bash"`)
			}
		case "workdir":
			s, ok := x.(string)
			if !ok {
				return nil, fail("computer.workdir must be a string")
			}
			if s = strings.TrimSpace(s); s != "" {
				out["workdir"] = s
			}
		default:
			return nil, fail("computer.%s is not supported", k)
		}
	}
	if _, ok := out["kind"]; !ok {
		return nil, fail(`computer.kind must be "personal"`)
	}
	return out, nil
}

// connectionOverrides is rule 10: keys among the config's servers, a known
// protocol version, a finite timeout, empty entries dropped.
func connectionOverrides(v any, cfg map[string]any) (map[string]any, error) {
	m, ok := Object(v)
	if !ok {
		return nil, fail("serverConnectionOverrides must be a plain object")
	}
	servers := map[string]bool{}
	for _, k := range []string{"serverIds", "optionalServerIds"} {
		for _, id := range cfg[k].([]any) {
			servers[id.(string)] = true
		}
	}
	out := map[string]any{}
	for id, raw := range m {
		if !servers[id] {
			return nil, fail("serverConnectionOverrides.%s is not one of serverIds or optionalServerIds", id)
		}
		o, ok := Object(raw)
		if !ok {
			return nil, fail("serverConnectionOverrides.%s must be a plain object", id)
		}
		entry := map[string]any{}
		for k, x := range o {
			switch k {
			case "headersOverride":
				h, ok := Object(x)
				if !ok {
					return nil, fail("serverConnectionOverrides.%s.headersOverride must be a plain object", id)
				}
				if len(h) > 0 {
					entry[k] = DeepCopy(h)
				}
			case "requestTimeoutOverride":
				if !Finite(x) {
					return nil, fail("serverConnectionOverrides.%s.requestTimeoutOverride must be finite", id)
				}
				entry[k] = x
			case "mcpProtocolVersionOverride":
				if s, _ := x.(string); !slices.Contains(ProtocolVersions, s) {
					return nil, fail("serverConnectionOverrides.%s.mcpProtocolVersionOverride is not a known protocol version", id)
				}
				entry[k] = x
			default:
				return nil, fail("serverConnectionOverrides.%s.%s is not supported", id, k)
			}
		}
		if len(entry) > 0 {
			out[id] = entry
		}
	}
	return out, nil
}

// IsString reports a JSON string.
func IsString(v any) bool { _, ok := v.(string); return ok }

// IsBool reports a JSON boolean.
func IsBool(v any) bool { _, ok := v.(bool); return ok }
