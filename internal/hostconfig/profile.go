package hostconfig

import (
	"slices"
	"strings"
)

// appsOverrideFlags are the boolean mcpAppsOverrides keys of 07-09.
var appsOverrideFlags = []string{"toolInputPartial", "toolCancelled", "hostContextChanged", "resourceTeardown",
	"toolInfo", "openLinks", "serverTools", "serverResources", "logging", "updateModelContext", "message",
	"sandboxPermissions", "cspFrameDomains", "cspBaseUriDomains", "resourcePrefersBorder", "downloadFile", "requestTeardown"}

// IsAppsOverrideFlag reports a boolean mcpAppsOverrides key the service
// knows (07-09), for the catalog reader, which strips the others.
func IsAppsOverrideFlag(k string) bool { return slices.Contains(appsOverrideFlags, k) }

// openaiOverrideKeys are the compatRuntime.openaiAppsOverrides keys.
var openaiOverrideKeys = []string{"callTool", "sendFollowUpMessage", "setWidgetState", "requestDisplayMode",
	"notifyIntrinsicHeight", "openExternal", "setOpenInAppUrl", "requestModal", "uploadFile", "selectFiles",
	"getFileDownloadUrl", "requestCheckout", "requestClose"}

// droppedFeatures are allowFeatures keys the permissions block owns.
var droppedFeatures = []string{"camera", "microphone", "geolocation", "clipboard-write"}

// profile is rule 9. The profile passes through apart from the parts the
// validator checks or normalizes.
func profile(v any) (map[string]any, error) {
	p, ok := Object(v)
	if !ok {
		return nil, fail("mcpProfile must be a plain object")
	}
	p = DeepCopy(p).(map[string]any)
	if f, ok := Number(p["profileVersion"]); !ok || f != 1 {
		return nil, fail("mcpProfile.profileVersion must be 1")
	}
	pin, pinned := p["mcpProtocolVersion"]
	if pinned {
		if s, _ := pin.(string); !slices.Contains(ProtocolVersions, s) {
			return nil, fail("mcpProfile.mcpProtocolVersion is not a known protocol version")
		}
	}
	if init, present := p["initialize"]; present {
		im, ok := Object(init)
		if !ok {
			return nil, fail("mcpProfile.initialize must be a plain object")
		}
		if spv, present := im["supportedProtocolVersions"]; present {
			list, err := stringList(spv, "mcpProfile.initialize.supportedProtocolVersions", true, false)
			if err != nil {
				return nil, err
			}
			if len(list) == 0 {
				return nil, fail("mcpProfile.initialize.supportedProtocolVersions must not be empty")
			}
		}
		if ci, present := im["clientInfo"]; present {
			if err := nameVersion(ci, "mcpProfile.initialize.clientInfo"); err != nil {
				return nil, err
			}
		}
	}
	if pinned && pin.(string) < "2026-07-28" { // a stateful version
		init, _ := Object(p["initialize"])
		if init == nil {
			init = map[string]any{}
			p["initialize"] = init
		}
		if list, ok := init["supportedProtocolVersions"].([]any); ok {
			if !slices.Contains(list, pin) {
				return nil, fail("ConflictingProtocolVersionPin: mcpProfile.mcpProtocolVersion %s is not in initialize.supportedProtocolVersions", pin)
			}
		} else {
			init["supportedProtocolVersions"] = []any{pin}
		}
	}
	// In the service's order: apps, then extensions.
	if apps, present := p["apps"]; present {
		if err := appsProfile(apps); err != nil {
			return nil, err
		}
	}
	if ext, present := p["extensions"]; present {
		if _, ok := Object(ext); !ok {
			return nil, fail("mcpProfile.extensions must be a plain object")
		}
	}
	prune(p, profileShape)
	return p, nil
}

// profileShape is what the service's canonical profile keeps: it builds the
// profile field by field, so other keys (a stray csp.deny) are dropped, and
// so are the objects marked collapse when nothing is left in them.
var profileShape = shape{keep: map[string]*shape{
	"profileVersion": nil, "mcpProtocolVersion": nil, "extensions": nil,
	"initialize": {collapse: true, keep: map[string]*shape{"supportedProtocolVersions": nil, "clientInfo": nil}},
	"apps": {collapse: true, keep: map[string]*shape{
		"sandbox": {collapse: true, keep: map[string]*shape{
			"csp":          {keep: map[string]*shape{"mode": nil, "restrictTo": nil, "cspDirectives": nil, "extensions": nil}},
			"permissions":  {keep: map[string]*shape{"mode": nil, "allow": nil, "extensions": nil}},
			"sandboxAttrs": nil, "allowFeatures": nil,
		}},
		"uiInitialize":     {collapse: true, keep: map[string]*shape{"hostInfo": nil}},
		"compatRuntime":    {collapse: true, keep: map[string]*shape{"openaiApps": nil, "openaiAppsOverrides": {collapse: true}}},
		"mcpAppsOverrides": {collapse: true},
	}},
}}

// shape lists the keys an object keeps (nil keep: all) and whether it is
// dropped when empty.
type shape struct {
	keep     map[string]*shape
	collapse bool
}

// prune drops from m what sh does not keep, depth first, and reports
// whether m is left empty.
func prune(m map[string]any, sh shape) bool {
	for k, v := range m {
		if sh.keep == nil {
			continue
		}
		sub, known := sh.keep[k]
		switch {
		case !known:
			delete(m, k)
		case sub != nil:
			if o, ok := Object(v); ok && prune(o, *sub) && sub.collapse {
				delete(m, k)
			}
		}
	}
	return len(m) == 0
}

func nameVersion(v any, path string) error {
	m, ok := Object(v)
	if !ok {
		return fail("%s must be a plain object", path)
	}
	for _, k := range []string{"name", "version"} {
		if s, _ := m[k].(string); strings.TrimSpace(s) == "" {
			return fail("%s.%s must be a non-empty string", path, k)
		}
	}
	return nil
}

// appsProfile checks and normalizes mcpProfile.apps in place.
func appsProfile(v any) error {
	apps, ok := Object(v)
	if !ok {
		return fail("mcpProfile.apps must be a plain object")
	}
	// In the service's order: sandbox, uiInitialize, compatRuntime,
	// mcpAppsOverrides.
	if sb, present := apps["sandbox"]; present {
		if err := sandbox(sb); err != nil {
			return err
		}
	}
	if ui, present := apps["uiInitialize"]; present {
		um, ok := Object(ui)
		if !ok {
			return fail("mcpProfile.apps.uiInitialize must be a plain object")
		}
		// hostInfo is optional, but when present needs its name and
		// version ({} is refused); an empty uiInitialize collapses.
		if hi, present := um["hostInfo"]; present {
			if err := nameVersion(hi, "mcpProfile.apps.uiInitialize.hostInfo"); err != nil {
				return err
			}
		}
	}
	if cr, present := apps["compatRuntime"]; present {
		if err := compatRuntime(cr); err != nil {
			return err
		}
	}
	if o, present := apps["mcpAppsOverrides"]; present {
		if err := appsOverrides(o); err != nil {
			return err
		}
	}
	return nil
}

func compatRuntime(v any) error {
	cr, ok := Object(v)
	if !ok {
		return fail("mcpProfile.apps.compatRuntime must be a plain object")
	}
	on, present := cr["openaiApps"]
	if present && !IsBool(on) {
		return fail("mcpProfile.apps.compatRuntime.openaiApps must be a boolean")
	}
	o, present := cr["openaiAppsOverrides"]
	if !present {
		return nil
	}
	// Checked whatever openaiApps says; dropped only when it is false (the
	// resolver ignores them then), kept when it is absent.
	om, ok := Object(o)
	if !ok {
		return fail("mcpProfile.apps.compatRuntime.openaiAppsOverrides must be a plain object")
	}
	for k, x := range om {
		path := "mcpProfile.apps.compatRuntime.openaiAppsOverrides." + k
		switch {
		case !slices.Contains(openaiOverrideKeys, k):
			return fail("%s is not supported", path)
		case k == "requestDisplayMode":
			if !oneOf(x, "all", "fullscreen-only", "none") {
				return fail("%s must be all, fullscreen-only or none", path)
			}
		case !IsBool(x):
			return fail("%s must be a boolean", path)
		}
	}
	if on == false {
		delete(cr, "openaiAppsOverrides")
	}
	return nil
}

func sandbox(v any) error {
	sb, ok := Object(v)
	if !ok {
		return fail("mcpProfile.apps.sandbox must be a plain object")
	}
	if c, present := sb["csp"]; present {
		csp, ok := Object(c)
		if !ok {
			return fail("mcpProfile.apps.sandbox.csp must be a plain object")
		}
		if m, present := csp["mode"]; present && !oneOf(m, "host-default", "declared", "relaxed") { // optional
			return fail("mcpProfile.apps.sandbox.csp.mode must be host-default, declared or relaxed")
		}
		if rt, present := csp["restrictTo"]; present {
			rm, ok := Object(rt)
			if !ok {
				return fail("mcpProfile.apps.sandbox.csp.restrictTo must be a plain object")
			}
			for _, k := range []string{"connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"} {
				if l, present := rm[k]; present {
					list, err := trimmedList(l, "mcpProfile.apps.sandbox.csp.restrictTo."+k)
					if err != nil {
						return err
					}
					rm[k] = list
				}
			}
		}
		if d, present := csp["cspDirectives"]; present {
			dm, ok := Object(d)
			if !ok {
				return fail("mcpProfile.apps.sandbox.csp.cspDirectives must be a plain object")
			}
			for _, k := range sortedKeys(dm) {
				vals := dm[k]
				path := "mcpProfile.apps.sandbox.csp.cspDirectives." + k
				if !kebab(k) {
					return fail("%s: directive names are lowercase kebab-case", path)
				}
				list, ok := vals.([]any)
				if !ok {
					return fail("%s must be an array of strings", path)
				}
				for _, x := range list {
					if s, ok := x.(string); !ok || strings.ContainsAny(s, ";,") {
						return fail("%s values must be strings without ; or ,", path)
					}
				}
				// Trimmed, deduplicated and sorted, as the restrictTo lists.
				sorted, err := trimmedList(list, path)
				if err != nil {
					return err
				}
				dm[k] = sorted
			}
		}
		if err := plainIfPresent(csp, "extensions", "mcpProfile.apps.sandbox.csp.extensions"); err != nil {
			return err
		}
	}
	if p, present := sb["permissions"]; present {
		pm, ok := Object(p)
		if !ok {
			return fail("mcpProfile.apps.sandbox.permissions must be a plain object")
		}
		if m, present := pm["mode"]; present && !oneOf(m, "resource-declared", "deny-all", "custom") { // optional
			return fail("mcpProfile.apps.sandbox.permissions.mode must be resource-declared, deny-all or custom")
		}
		if a, present := pm["allow"]; present {
			am, ok := Object(a)
			if !ok {
				return fail("mcpProfile.apps.sandbox.permissions.allow must be a plain object")
			}
			for _, k := range sortedKeys(am) {
				x := am[k]
				if !IsBool(x) {
					return fail("mcpProfile.apps.sandbox.permissions.allow.%s must be a boolean", k)
				}
			}
		}
		if err := plainIfPresent(pm, "extensions", "mcpProfile.apps.sandbox.permissions.extensions"); err != nil {
			return err
		}
	}
	// sandboxAttrs is a set, as the CSP domain lists: trimmed, blanks
	// dropped, deduplicated and sorted (an empty list stays []).
	if a, present := sb["sandboxAttrs"]; present {
		list, err := trimmedList(a, "mcpProfile.apps.sandbox.sandboxAttrs")
		if err != nil {
			return err
		}
		sb["sandboxAttrs"] = list
	}
	// allowFeatures: the spec's features belong to permissions.allow and
	// are dropped (before their value is looked at); nothing left drops
	// the key, and then an empty sandbox goes too.
	if f, present := sb["allowFeatures"]; present {
		fm, ok := Object(f)
		if !ok {
			return fail("mcpProfile.apps.sandbox.allowFeatures must be a plain object")
		}
		for _, k := range sortedKeys(fm) {
			x := fm[k]
			if !kebab(k) {
				return fail("mcpProfile.apps.sandbox.allowFeatures.%s: keys are lowercase kebab-case Permissions Policy tokens", k)
			}
			if slices.Contains(droppedFeatures, k) {
				delete(fm, k)
				continue
			}
			if s, ok := x.(string); !ok || strings.ContainsAny(s, ";,") {
				return fail("mcpProfile.apps.sandbox.allowFeatures.%s must be a string without ; or ,", k)
			}
		}
		if len(fm) == 0 {
			delete(sb, "allowFeatures")
		}
	}
	return nil
}

func appsOverrides(v any) error {
	om, ok := Object(v)
	if !ok {
		return fail("mcpProfile.apps.mcpAppsOverrides must be a plain object")
	}
	for k, x := range om {
		path := "mcpProfile.apps.mcpAppsOverrides." + k
		switch {
		case k == "availableDisplayModes":
			list, ok := x.([]any)
			if !ok || len(list) == 0 {
				return fail("%s must be a non-empty array", path)
			}
			for _, m := range list {
				if s, _ := m.(string); s != "inline" && s != "fullscreen" && s != "pip" {
					return fail("%s values must be inline, fullscreen or pip", path)
				}
			}
			// Deduplicated, in the order the modes are listed above.
			modes := []any{}
			for _, m := range []any{"inline", "fullscreen", "pip"} {
				if slices.Contains(list, m) {
					modes = append(modes, m)
				}
			}
			om[k] = modes
		case k == "widgetDisplayModeRequests":
			if s, _ := x.(string); s != "accept" && s != "user-initiated-only" && s != "decline" {
				return fail("%s must be accept, user-initiated-only or decline", path)
			}
		case slices.Contains(appsOverrideFlags, k):
			if !IsBool(x) {
				return fail("%s must be a boolean", path)
			}
		default:
			return fail("%s is not supported", path)
		}
	}
	return nil
}

// trimmedList trims, deduplicates and sorts a list of strings.
func trimmedList(v any, path string) ([]any, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fail("%s must be an array of strings", path)
	}
	trimmed := make([]any, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, fail("%s must be an array of strings", path)
		}
		if s = strings.TrimSpace(s); s != "" {
			trimmed = append(trimmed, s)
		}
	}
	return stringList(trimmed, path, true, true)
}

// plainIfPresent refuses m[k] when it is present but not a plain object.
func plainIfPresent(m map[string]any, k, path string) error {
	if v, present := m[k]; present {
		if _, ok := Object(v); !ok {
			return fail("%s must be a plain object", path)
		}
	}
	return nil
}

// oneOf reports a string among values.
func oneOf(v any, values ...string) bool {
	s, ok := v.(string)
	return ok && slices.Contains(values, s)
}
