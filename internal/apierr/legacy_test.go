package apierr

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/shared"
)

// legacyRaw is a legacy {ok: false, error: text} body.
func legacyRaw(t *testing.T, text string) []byte {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"ok": false, "error": text})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// LegacyScrubbed tells and reads a billing refusal from the text read
// cleaned, and cleans every string read from its payload with shown, the
// message before it is cut; any other text is cleaned with shown before a
// line of it is kept.
func TestLegacyScrubbed(t *testing.T) {
	read := func(s string) string { return strings.ReplaceAll(s, "own-secret", "[own]") }
	// shown takes out a value written with quotes, which would break the
	// payload's JSON were it taken out before the payload is read.
	shown := func(s string) string { return strings.ReplaceAll(read(s), `"hdr-value"`, "[hdr]") }
	inner, err := json.Marshal(map[string]any{"code": "billing_limit_reached",
		"message":  strings.Repeat("x", MaxLegacyMessage-4) + ` "hdr-value" own-secret`,
		"gateKey":  `"hdr-value"`,
		"token":    `"hdr-value"`,
		"resetsAt": 5})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := LegacyScrubbed(http.StatusBadRequest, legacyRaw(t, "Uncaught ConvexError: "+string(inner)), read, shown)
	if !ok || e.Code != shared.CodeBillingLimitReached || e.Billing == nil || e.Billing.ResetsAt != 5 {
		t.Fatalf("not the billing refusal: %+v", e)
	}
	if e.Billing.GateKey != "[hdr]" {
		t.Errorf("GateKey = %q, want [hdr]", e.Billing.GateKey)
	}
	if want := strings.Repeat("x", MaxLegacyMessage-4) + " [hd…"; e.Message != want {
		t.Errorf("message ends %q, want %q", e.Message[MaxLegacyMessage-8:], want[MaxLegacyMessage-8:])
	}
	e, _ = LegacyScrubbed(http.StatusBadRequest, legacyRaw(t, `bad "hdr-value" own-secret`+"\n at x"), read, shown)
	if e.Message != "bad [hdr] [own]" {
		t.Errorf("other text = %q, want it cleaned by shown", e.Message)
	}
}

// Legacy cleans the strings read from a billing payload once more: the
// payload's JSON escapes can spell a value the whole text's scrub did not
// find (\u0073…), which decoding brings back.
func TestLegacyBillingPayloadCleanedOnceRead(t *testing.T) {
	scrub := func(s string) string { return strings.ReplaceAll(s, "secret-1", "***") }
	inner := `{"code":"billing_limit_reached","message":"bad \u0073ecret-1","limit":"\u0073ecret-1"}`
	e, ok := Legacy(http.StatusBadRequest, legacyRaw(t, "Uncaught ConvexError: "+inner), scrub)
	if !ok || e.Billing == nil {
		t.Fatalf("not the billing refusal: %+v", e)
	}
	if e.Message != "bad ***" || e.Billing.GateKey != "***" {
		t.Errorf("message %q, gate key %q: want the value replaced", e.Message, e.Billing.GateKey)
	}
}
