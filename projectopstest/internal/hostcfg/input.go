package hostcfg

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"

	"github.com/projectops/projectops-go/internal/hostconfig"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

// Input is a host create request in either form: template (+theme) or a
// full config. Present marks the fields the caller sent.
type Input struct {
	Name, Template, Theme string
	Config                json.RawMessage
	Present               map[string]bool
	// PinModel refuses a config without a model, first among its errors,
	// as the service's create route does (seeds may have legacy rows).
	PinModel bool
}

// PinsModel reports whether a raw config names a model: a modelId string,
// non-empty once trimmed as the service trims it.
func PinsModel(raw json.RawMessage) bool {
	// A map, not a struct: the key matched exactly (a struct field would
	// take "MODELID" too), the last of duplicates winning, as the stored
	// config and JavaScript's JSON.parse read it.
	var c map[string]json.RawMessage
	var m string
	if json.Unmarshal(raw, &c) != nil || json.Unmarshal(c["modelId"], &m) != nil {
		return false
	}
	return wire.TrimJS(m) != ""
}

// Resolve validates a create request and returns the canonical config the
// host will have, as the service's gateway and backend do: exactly one of
// template or a non-empty config (theme with config is accepted and
// ignored), the template looked up in the live catalog and then the
// bundled one, and the result validated by the host config v2 rules. It
// may consult the live catalog (for as long as ctx lasts), so call it
// without the store's lock held.
func (cc *Cache) Resolve(ctx context.Context, in Input) (map[string]any, *edge.Error) {
	if !in.Present["name"] {
		return nil, edge.Validation("name", "name is required")
	}
	if wire.TrimJS(in.Name) == "" {
		return nil, edge.Validation("name", "name must not be empty")
	}
	hasT := in.Present["template"]
	hasC := in.Present["config"] && !emptyObject(in.Config)
	if hasT == hasC {
		return nil, edge.NewError(shared.CodeValidation, "Provide exactly one of `template` or a non-empty `config`.",
			map[string]any{"fields": []string{"template", "config"}})
	}
	if hasC {
		if in.PinModel && !PinsModel(in.Config) {
			return nil, edge.Validation("config.modelId", "config.modelId is required: a host pins its model")
		}
		return CanonicalConfig("config", in.Config)
	}
	if in.Present["theme"] && in.Theme != "light" && in.Theme != "dark" {
		return nil, edge.Validation("theme", "theme must be light or dark")
	}
	template := wire.TrimJS(in.Template)
	cfg, ok, err := cc.Template(ctx, template, in.Theme)
	if err != nil { // the caller left while the live catalog was read: nothing is created
		return nil, edge.NewError(shared.CodeTimeout, "The request ended before the host catalog was read", nil)
	}
	if !ok {
		return nil, edge.Validation("template", "Unknown host template: "+template)
	}
	canon, err := canonicalize(cfg)
	if err != nil { // a live catalog entry the validator refuses
		return nil, ConfigError("template", err)
	}
	return canon, nil
}

// CanonicalConfig decodes a full config sent as field and validates it by
// the host config v2 rules; a refusal is 400 VALIDATION_ERROR with the
// service's message ("hostConfigV2: temperature must be finite"). A
// top-level key the input does not define is refused first, as the
// service's backend validator does before it canonicalizes.
func CanonicalConfig(field string, raw json.RawMessage) (map[string]any, *edge.Error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber() // no float64 detour: canonicalize spells each number once
	var cfg map[string]any
	if d.Decode(&cfg) != nil || cfg == nil {
		return nil, edge.Validation(field, field+" must be an object")
	}
	if herr := unknownField(field, cfg); herr != nil {
		return nil, herr
	}
	canon, err := canonicalize(cfg)
	if err != nil {
		return nil, ConfigError(field, err)
	}
	return canon, nil
}

// canonicalize validates cfg by the host config v2 rules and spells its
// numbers as the service's stored row does. The service parses a config
// with JSON.parse and stores JSON.stringify's text, so 0.70, 7e-1 and 0.7
// are one row (one content address) that reads back as 0.7; the double
// keeps each number as that text, and a number too large for a double is
// null, as JSON.stringify writes Infinity.
func canonicalize(cfg map[string]any) (map[string]any, error) {
	canon, err := hostconfig.Canonicalize(cfg)
	if err != nil {
		return nil, err
	}
	return jsNumbers(canon).(map[string]any), nil
}

// jsNumbers is v with every number in its JavaScript spelling (a
// json.Number, which encodes as its text). It copies objects and arrays:
// the canonical config may share them with a cached catalog template.
func jsNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsNumbers(e)
		}
		return out
	}
	f, ok := hostconfig.Number(v)
	switch {
	case !ok:
		return v
	case math.IsInf(f, 0) || math.IsNaN(f):
		return nil
	}
	return json.Number(wire.JSNumber(f))
}

// ConfigError names the config field a validator refusal is about.
func ConfigError(field string, err error) *edge.Error {
	var inv *hostconfig.Invalid
	if errors.As(err, &inv) {
		field += "." + inv.Field()
	}
	return edge.Validation(field, err.Error())
}

// emptyObject reports a config of {} (or nothing), which counts as absent.
func emptyObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null")) || (t[0] == '{' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0)
}

// ModelID is config.modelId, when a string.
func ModelID(cfg map[string]any) string {
	m, _ := cfg["modelId"].(string)
	return m
}

// TrimModelID trims config.modelId in place, as the service does (with
// JavaScript's trim), and returns it.
func TrimModelID(cfg map[string]any) string {
	m, ok := cfg["modelId"].(string)
	if !ok {
		return ""
	}
	m = wire.TrimJS(m)
	cfg["modelId"] = m
	return m
}

// ServerIDs is config.serverIds (canonical configs hold strings).
func ServerIDs(cfg map[string]any) []string {
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
