package projectopstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/hostcfg"
	"github.com/projectops/projectops-go/shared"
)

// configModelID is config.modelId, when a string.
func configModelID(cfg map[string]any) string {
	m, _ := cfg["modelId"].(string)
	return m
}

// configServerIDs is config.serverIds (canonical configs hold strings).
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

// hostInput is the create request in either form: template (+theme) or a
// full config. present marks the fields the caller sent.
type hostInput struct {
	name     string
	template string
	theme    string
	config   json.RawMessage
	present  map[string]bool
}

// resolveHost validates a create request and returns the canonical config
// the host will have, as the service's gateway and backend do: exactly one
// of template or a non-empty config (theme with config is accepted and
// ignored), the template looked up in the live catalog and then the
// bundled one, and the result validated by the host config v2 rules.
// It may consult the live catalog, so call it without Server.mu held.
func (cc *catalogCache) resolveHost(in hostInput) (map[string]any, *httpError) {
	if !in.present["name"] {
		return nil, errValidation("name", "name is required")
	}
	if strings.TrimSpace(in.name) == "" {
		return nil, errValidation("name", "name must not be empty")
	}
	hasT := in.present["template"]
	hasC := in.present["config"] && !emptyObject(in.config)
	if hasT == hasC {
		return nil, newError(shared.CodeValidation, "Provide exactly one of `template` or a non-empty `config`.",
			map[string]any{"fields": []string{"template", "config"}})
	}
	if hasC {
		return canonicalConfig("config", in.config)
	}
	if in.present["theme"] && in.theme != "light" && in.theme != "dark" {
		return nil, errValidation("theme", "theme must be light or dark")
	}
	cfg, ok := cc.templateConfig(strings.TrimSpace(in.template), in.theme)
	if !ok {
		return nil, errValidation("template", "Unknown host template: "+in.template)
	}
	canon, err := hostcfg.Canonicalize(cfg)
	if err != nil { // a live catalog entry the validator refuses
		return nil, configError("template", err)
	}
	return canon, nil
}

// templateConfig seeds a config from the live catalog's entry for id when
// a source is configured and has it (read directly, as the gateway's host
// route does), else from the bundled catalog's.
func (cc *catalogCache) templateConfig(id, theme string) (map[string]any, bool) {
	s := cc.s
	if s.src != nil {
		if live, err := cc.fetchCatalog(); err == nil {
			if cfg, ok := live.Template(id, theme); ok {
				return cfg, true
			}
		}
	}
	return hostcfg.Bundled().Template(id, theme)
}

// canonicalConfig decodes a full config sent as field and validates it by
// the host config v2 rules; a refusal is 400 VALIDATION_ERROR with the
// service's message ("hostConfigV2: temperature must be finite").
func canonicalConfig(field string, raw json.RawMessage) (map[string]any, *httpError) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber() // numbers re-encode exactly
	var cfg map[string]any
	if d.Decode(&cfg) != nil || cfg == nil {
		return nil, errValidation(field, field+" must be an object")
	}
	canon, err := hostcfg.Canonicalize(cfg)
	if err != nil {
		return nil, configError(field, err)
	}
	return canon, nil
}

// configError names the config field a validator refusal is about.
func configError(field string, err error) *httpError {
	var inv *hostcfg.Invalid
	if errors.As(err, &inv) {
		field += "." + inv.Field()
	}
	return errValidation(field, err.Error())
}

// emptyObject reports a config of {} (or nothing), which counts as absent.
func emptyObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null")) || (t[0] == '{' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0)
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
