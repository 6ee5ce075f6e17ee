package hostcfg

import "github.com/projectops/projectops-go/internal/hostconfig"

// Defaults is the config the service's SDK gives a brand-new host
// (emptyHostConfigInputV2). The gateway does not apply it to API bodies;
// the double applies it under a seed's partial config, so seeds stay short.
func Defaults() map[string]any {
	return map[string]any{
		"hostStyle": "mcpjam", "modelId": "", "systemPrompt": "", "temperature": 0.7,
		"requireToolApproval": false, "respectToolVisibility": true, "progressiveToolDiscovery": false,
		"serverIds": []any{}, "optionalServerIds": []any{}, "builtInToolIds": []any{},
		"connectionDefaults": map[string]any{"headers": map[string]any{}, "requestTimeout": 10000.0},
		"clientCapabilities": map[string]any{"extensions": map[string]any{
			"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []any{"text/html;profile=mcp-app"}}}},
		"hostContext": map[string]any{},
	}
}

// WithDefaults returns cfg over Defaults: cfg's keys win.
func WithDefaults(cfg map[string]any) map[string]any {
	out := Defaults()
	for k, v := range cfg {
		out[k] = hostconfig.DeepCopy(v)
	}
	return out
}
