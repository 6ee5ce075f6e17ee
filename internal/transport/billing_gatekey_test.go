package transport

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/shared"
)

// TestEnvelopeBillingGateKeyCleanedOfHeaderValue: an enveloped billing
// refusal's gate key (top level or in details) is cleaned of a credential
// header's value, as the legacy form's is
// (TestLegacyBillingGateKeyCleanedOfHeaderValue): it is copied from the
// body before the text is cleaned.
func TestEnvelopeBillingGateKeyCleanedOfHeaderValue(t *testing.T) {
	for _, body := range []string{
		`{"code":"billing_limit_reached","message":"limit","gateKey":"` + legacyProxyToken + `"}`,
		`{"code":"billing_limit_reached","message":"limit","details":{"gateKey":"` + legacyProxyToken + `"}}`,
	} {
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return jsonAnswer(r, http.StatusPaymentRequired, body, nil), nil
		})
		tr, _ := newTestTransport(t, rt, func(cfg *Config) {
			cfg.MaxRetries = 0
			cfg.Header = http.Header{"X-Proxy-Token": {legacyProxyToken}}
		})
		err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write}, &struct{}{})
		e, ok := errors.AsType[*shared.Error](err)
		if !ok || e.Billing == nil {
			t.Fatalf("not a billing refusal: %v", err)
		}
		if strings.Contains(e.Billing.GateKey, "proxytok") {
			t.Errorf("Billing.GateKey = %q: the credential header value is left", e.Billing.GateKey)
		}
	}
}
