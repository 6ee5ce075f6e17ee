package hostcfg

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/projectops/projectops-go/internal/hostconfig"
)

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// fieldKind is how the catalog reader checks one entry field.
type fieldKind int

const (
	kString fieldKind = iota
	kNonEmpty
	kNumber
	kBool
	kStrings
	kRecord     // plain object, kept as is
	kStringDict // record<string,string>
	kUnchecked  // kept as is, not checked (the image objects)
)

type field struct {
	kind     fieldKind
	required bool
}

// entryFields are the keys an entry keeps, with how each is checked;
// everything else is dropped, as the service's reader does.
var entryFields = map[string]field{
	"id": {kNonEmpty, true}, "label": {kNonEmpty, true}, "rendersMcpApps": {kBool, true},
	"supportedProtocolVersions": {kStrings, false}, "verifiedAt": {kNumber, false},
	"compatibilityEvidence": {kRecord, false}, "styleVariablesByTheme": {kRecord, false},
	"hostStyle": {kNonEmpty, true}, "modelId": {kString, true}, "systemPrompt": {kString, true},
	"temperature": {kNumber, true}, "requireToolApproval": {kBool, true}, "respectToolVisibility": {kBool, true},
	"progressiveToolDiscovery": {kBool, false},
	"serverIds":                {kStrings, true}, "optionalServerIds": {kStrings, true}, "builtInToolIds": {kStrings, true},
	"modelVisibleMcpToolResults": {kUnchecked, false}, "mcpToolResultImageRendering": {kUnchecked, false},
	"clientCapabilities": {kRecord, true}, "hostContext": {kRecord, true},
	"hostCapabilitiesOverride": {kRecord, false}, "chatUiOverride": {kRecord, false},
	"serverConnectionOverrides": {kRecord, false},
}

var provenances = []string{"observed", "probe", "vendor-doc", "assumed"}

// entry checks one catalog entry (both halves must parse) and returns it
// with unknown keys dropped and the lenient fields normalized.
func entry(id string, v any) (map[string]any, error) {
	in, ok := hostconfig.Object(v)
	if !ok {
		return nil, errors.New("must be an object")
	}
	out := map[string]any{}
	for k, f := range entryFields {
		x, present := in[k]
		if !present {
			if f.required {
				return nil, fmt.Errorf("%s is required", k)
			}
			continue
		}
		if !fieldOK(f.kind, x) {
			return nil, fmt.Errorf("%s has the wrong type", k)
		}
		out[k] = hostconfig.DeepCopy(x)
	}
	if out["id"] != id {
		return nil, errors.New("id must equal its hostsById key")
	}
	if p, _ := in["provenance"].(string); slices.Contains(provenances, p) {
		out["provenance"] = p
	} else {
		out["provenance"] = "assumed"
	}
	if err := connectionDefaults(in, out); err != nil {
		return nil, err
	}
	if err := entryComputer(in, out); err != nil {
		return nil, err
	}
	if h, present := in["harness"]; present {
		if h != "claude-code" && h != "codex" {
			return nil, errors.New(`harness must be "claude-code" or "codex"`)
		}
		out["harness"] = h
	}
	if p, present := in["mcpProfile"]; present {
		pm, ok := hostconfig.Object(p)
		if !ok {
			return nil, errors.New("mcpProfile must be an object")
		}
		lp, err := lenientProfile(hostconfig.DeepCopy(pm).(map[string]any))
		if err != nil {
			return nil, err
		}
		out["mcpProfile"] = lp
	}
	if err := hydrateImages(in, out); err != nil {
		return nil, err
	}
	return out, nil
}

func fieldOK(k fieldKind, x any) bool {
	switch k {
	case kString:
		return hostconfig.IsString(x)
	case kNonEmpty:
		s, ok := x.(string)
		return ok && s != ""
	case kNumber:
		_, ok := hostconfig.Number(x)
		return ok
	case kBool:
		return hostconfig.IsBool(x)
	case kStrings:
		arr, ok := x.([]any)
		if !ok {
			return false
		}
		for _, s := range arr {
			if !hostconfig.IsString(s) {
				return false
			}
		}
		return true
	case kRecord:
		_, ok := hostconfig.Object(x)
		return ok
	case kStringDict:
		m, ok := hostconfig.Object(x)
		if !ok {
			return false
		}
		for _, s := range m {
			if !hostconfig.IsString(s) {
				return false
			}
		}
		return true
	}
	return true
}

func connectionDefaults(in, out map[string]any) error {
	cd, ok := hostconfig.Object(in["connectionDefaults"])
	if !ok {
		return errors.New("connectionDefaults is required")
	}
	if !fieldOK(kStringDict, cd["headers"]) {
		return errors.New("connectionDefaults.headers must be a record of strings")
	}
	if _, ok := hostconfig.Number(cd["requestTimeout"]); !ok {
		return errors.New("connectionDefaults.requestTimeout must be a number")
	}
	out["connectionDefaults"] = map[string]any{"headers": hostconfig.DeepCopy(cd["headers"]), "requestTimeout": cd["requestTimeout"]}
	return nil
}

func entryComputer(in, out map[string]any) error {
	c, present := in["computer"]
	if !present {
		return nil
	}
	cm, ok := hostconfig.Object(c)
	if !ok || cm["kind"] != "personal" {
		return errors.New(`computer.kind must be "personal"`)
	}
	kept := map[string]any{"kind": "personal"}
	if w, present := cm["workdir"]; present {
		if !hostconfig.IsString(w) {
			return errors.New("computer.workdir must be a string")
		}
		kept["workdir"] = w
	}
	out["computer"] = kept
	return nil
}

// lenientProfile reads mcpProfile as the service's catalog schema does: the
// profile and its apps pass through, but apps.mcpAppsOverrides is a zod
// object, so its unknown keys (a newer catalog's cspConnectDomains) are
// stripped, unknown display modes filtered out, an unknown
// widgetDisplayModeRequests read as unset, and a wrongly typed known key
// fails the entry.
func lenientProfile(p map[string]any) (map[string]any, error) {
	if v, present := p["profileVersion"]; present {
		if _, ok := hostconfig.Number(v); !ok {
			return nil, errors.New("mcpProfile.profileVersion must be a number")
		}
	}
	a, present := p["apps"]
	if !present {
		return p, nil
	}
	apps, ok := hostconfig.Object(a)
	if !ok {
		return nil, errors.New("mcpProfile.apps must be an object")
	}
	v, present := apps["mcpAppsOverrides"]
	if !present {
		return p, nil
	}
	o, ok := hostconfig.Object(v)
	if !ok {
		return nil, errors.New("mcpProfile.apps.mcpAppsOverrides must be an object")
	}
	for k, x := range o {
		switch {
		case k == "availableDisplayModes":
			modes, ok := x.([]any)
			if !ok {
				return nil, errors.New("mcpProfile.apps.mcpAppsOverrides.availableDisplayModes must be an array")
			}
			kept := []any{}
			for _, m := range modes {
				if m == "inline" || m == "fullscreen" || m == "pip" {
					kept = append(kept, m)
				}
			}
			o[k] = kept
		case k == "widgetDisplayModeRequests":
			if x != "accept" && x != "user-initiated-only" && x != "decline" {
				delete(o, k)
			}
		case hostconfig.IsAppsOverrideFlag(k):
			if !hostconfig.IsBool(x) {
				return nil, fmt.Errorf("mcpProfile.apps.mcpAppsOverrides.%s must be a boolean", k)
			}
		default:
			delete(o, k)
		}
	}
	return p, nil
}

// imageKinds pairs imageSupport's summary keys with the concrete objects'.
var imageKinds = []struct{ summary, concrete string }{
	{"toolImageContent", "directContent"},
	{"embeddedResourceImages", "embeddedResources"},
	{"resourceLinkImages", "linkedResources"},
}

// hydrateImages gives every entry all three image fields: imageSupport is
// derived from the concrete objects (a missing leaf reads false, a missing
// placement "none"), or the concrete objects from imageSupport when only
// the summary was sent (as the 07-09 client did).
func hydrateImages(in, out map[string]any) error {
	model, hasModel := hostconfig.Object(in["modelVisibleMcpToolResults"])
	render, hasRender := hostconfig.Object(in["mcpToolResultImageRendering"])
	if is, present := in["imageSupport"]; present && !(hasModel && hasRender) {
		sm, ok := hostconfig.Object(is)
		if !ok {
			return errors.New("imageSupport must be an object")
		}
		model, render = map[string]any{}, map[string]any{"placement": placement(sm["placement"])}
		for _, k := range imageKinds {
			pair, ok := hostconfig.Object(sm[k.summary])
			if !ok || !hostconfig.IsBool(pair["model"]) || !hostconfig.IsBool(pair["ui"]) {
				return fmt.Errorf("imageSupport.%s needs boolean model and ui", k.summary)
			}
			model[k.concrete] = imageLeaf(k.concrete, pair["model"])
			render[k.concrete] = imageLeaf(k.concrete, pair["ui"])
		}
		out["modelVisibleMcpToolResults"], out["mcpToolResultImageRendering"] = model, render
	}
	summary := map[string]any{}
	for _, k := range imageKinds {
		summary[k.summary] = map[string]any{"model": imageFlag(model, k.concrete), "ui": imageFlag(render, k.concrete)}
	}
	summary["placement"] = placement(render["placement"])
	out["imageSupport"] = summary
	return nil
}

func imageLeaf(concrete string, v any) map[string]any {
	if concrete == "directContent" {
		return map[string]any{"image": v}
	}
	return map[string]any{"blob": map[string]any{"image": v}}
}

func imageFlag(obj map[string]any, concrete string) bool {
	m, _ := hostconfig.Object(obj[concrete])
	if concrete != "directContent" {
		m, _ = hostconfig.Object(m["blob"])
	}
	b, _ := m["image"].(bool)
	return b
}

func placement(v any) string {
	if s, _ := v.(string); s == "collapsed" || s == "inline" {
		return s
	}
	return "none"
}
