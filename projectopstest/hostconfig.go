package projectopstest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/apierr"
)

// hostConfigID content-addresses a config: the SHA-256 of its canonical
// JSON (encoding/json sorts map keys at every level).
func hostConfigID(cfg map[string]any) string {
	b, _ := json.Marshal(cfg) // decoded JSON always re-encodes
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// configModelID is config.modelId, when a string.
func configModelID(cfg map[string]any) string {
	m, _ := cfg["modelId"].(string)
	return m
}

// configServerIDs is config.serverIds (validated to be strings on input).
func configServerIDs(cfg map[string]any) []string {
	var ids []string
	switch v := cfg["serverIds"].(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				ids = append(ids, s)
			}
		}
	case []string:
		ids = slices.Clone(v)
	}
	return ids
}

// validateConfig checks a full host config given as field: an object with
// at least one property, modelId a string, serverIds an array of strings.
func validateConfig(field string, cfg map[string]any) *httpError {
	if len(cfg) == 0 {
		return errValidation(field, field+" must have at least one property")
	}
	if v, ok := cfg["modelId"]; ok {
		if _, isStr := v.(string); !isStr {
			return errValidation(field+".modelId", field+".modelId must be a string")
		}
	}
	if v, ok := cfg["serverIds"]; ok {
		arr, isArr := v.([]any)
		if !isArr {
			return errValidation(field+".serverIds", field+".serverIds must be an array of server ids")
		}
		for _, x := range arr {
			if _, isStr := x.(string); !isStr {
				return errValidation(field+".serverIds", field+".serverIds must be an array of server ids")
			}
		}
	}
	return nil
}

// hostInput is the create request in either form: template (+theme) or a
// full config. present marks the fields the caller sent.
type hostInput struct {
	name     string
	template hosts.Template
	theme    string
	config   hosts.Config
	present  map[string]bool
}

// resolveHost validates a create request and returns the config the host
// will have: the caller's config verbatim, or one seeded from the catalog.
// It may consult the live catalog, so call it without Server.mu held.
func (s *Server) resolveHost(ctx context.Context, in hostInput) (map[string]any, *httpError) {
	if !in.present["name"] {
		return nil, errValidation("name", "name is required")
	}
	if in.name == "" {
		return nil, errValidation("name", "name must not be empty")
	}
	hasT, hasC := in.present["template"], in.present["config"]
	if hasT == hasC {
		return nil, newError(apierr.CodeValidation, "Provide exactly one of template or config",
			map[string]any{"fields": []string{"template", "config"}})
	}
	if hasC {
		if in.present["theme"] {
			return nil, errValidation("theme", "theme is only allowed with template")
		}
		return configObject("config", in.config)
	}
	if !slices.Contains(hosts.Templates, in.template) {
		return nil, errValidation("template", "Unknown template "+jsonQuote(string(in.template)))
	}
	if in.present["theme"] && in.theme != hosts.ThemeLight && in.theme != hosts.ThemeDark {
		return nil, errValidation("theme", "theme must be light or dark")
	}
	return s.templateConfig(ctx, in.template, in.theme), nil
}

// templateConfig seeds a host config from the template's catalog entry: its
// creation fields, hostStyle and mcpProfile, the theme (light by default) and
// no servers. The live catalog is used when configured and it knows the
// template, else the bundled snapshot.
func (s *Server) templateConfig(ctx context.Context, t hosts.Template, theme string) map[string]any {
	entry, ok := s.hostCatalog(ctx).Catalog.HostsByID[string(t)]
	if !ok {
		entry = bundledCatalog().Catalog.HostsByID[string(t)]
	}
	cfg := map[string]any{}
	for k, raw := range entry.Extra {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			cfg[k] = v
		}
	}
	cfg["hostStyle"] = entry.HostStyle
	if entry.MCPProfile != nil {
		cfg["mcpProfile"] = deepCopy(entry.MCPProfile)
	}
	if theme == "" {
		theme = hosts.ThemeLight
	}
	cfg["theme"] = theme
	cfg["serverIds"] = []any{}
	return cfg
}

// configObject decodes a full config sent as field into a fresh object
// (numbers kept as json.Number, so they re-encode exactly) and validates it.
func configObject(field string, c hosts.Config) (map[string]any, *httpError) {
	d := json.NewDecoder(bytes.NewReader(c))
	d.UseNumber()
	var cfg map[string]any
	if d.Decode(&cfg) != nil || cfg == nil {
		return nil, errValidation(field, field+" must be an object")
	}
	if herr := validateConfig(field, cfg); herr != nil {
		return nil, herr
	}
	return cfg, nil
}

// deepCopy copies a JSON object so stored configs never alias callers' maps.
func deepCopy(m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		return map[string]any{}
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
