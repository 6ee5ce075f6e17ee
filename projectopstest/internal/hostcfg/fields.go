package hostcfg

import (
	"slices"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// inputFields are the top-level keys of a host config v2 input (the
// service's HostConfigInputV2; reference notes, template fields table).
// The backend's hosts:createHost and hosts:updateHost validators refuse
// any other key, a read-back config's own id and schemaVersion included:
// those belong to the stored row, not to what is saved.
var inputFields = map[string]bool{
	"hostStyle": true, "modelId": true, "systemPrompt": true, "temperature": true,
	"requireToolApproval": true, "respectToolVisibility": true, "progressiveToolDiscovery": true,
	"modelVisibleMcpToolResults": true, "mcpToolResultImageRendering": true,
	"serverIds": true, "optionalServerIds": true, "builtInToolIds": true,
	"computer": true, "harness": true, "connectionDefaults": true,
	"clientCapabilities": true, "hostContext": true,
	"hostCapabilitiesOverride": true, "chatUiOverride": true,
	"mcpProfile": true, "serverConnectionOverrides": true,
}

// unknownField refuses the first key of cfg (in sorted order) that is not
// a host config input field, naming it as the double's other strict
// objects do; nested objects keep the validator's own rules.
func unknownField(field string, cfg map[string]any) *edge.Error {
	var bad []string
	for k := range cfg {
		if !inputFields[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	k := slices.Min(bad)
	return edge.Validation(field+"."+k, "Unknown field "+edge.Quote(k)+" in "+field)
}
