package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// A host config that does not encode is refused without the encoder's
// text, which would quote the value (here a header).
func TestHostConfigEncodeErrorDoesNotQuote(t *testing.T) {
	cfg := hostConfigWith(map[string]any{"connectionDefaults": map[string]any{
		"headers": map[string]any{"Authorization": json.Number("Bearer sk-live-SECRET")}, "requestTimeout": 10000}})
	_, err := RunParams{HostConfig: cfg}.withHostConfigHash()
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("error quotes the config: %v", err)
	}
}

// A number beyond a double's range is refused by name, not as a config
// that is no object.
func TestHostConfigHugeNumberMessage(t *testing.T) {
	cfg := hostConfigWith(map[string]any{"hostContext": map[string]any{"n": json.Number("1e400")}})
	_, err := RunParams{HostConfig: cfg}.withHostConfigHash()
	if err == nil || !strings.Contains(err.Error(), "beyond a double's range") {
		t.Errorf("a config with one out-of-range number: %v", err)
	}
}
