package mcpops

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

// xaaPolicyIdPs are the identity providers an enterprise-managed
// authorization policy may name (the service's XAA_ENTERPRISE_POLICY_IDPS).
var xaaPolicyIdPs = []string{"mcpjam"}

// checkXaaPolicy is the service's gate on a body's xaaPolicy (its
// parseXaaPolicyValue), which it reads from the raw body of every
// operation it runs on an ephemeral connection unless the body names a
// scenario (whose stored host config then decides the policy). Absent is
// no policy; anything but an object whose idp is a supported provider is
// refused, null included. The service throws that as 409 with
// VALIDATION_ERROR, which its /api/v1 error handler answers with the
// code's status, 400, as the spec's table pairs them. A valid policy is
// accepted and otherwise ignored: the double models no Cross-App Access.
func (f *ServerFields) checkXaaPolicy() *edge.Error {
	if f.XaaPolicy == nil || f.namesScenario() {
		return nil
	}
	var p struct {
		IdP json.RawMessage `json:"idp"`
	}
	if isObject(f.XaaPolicy) && json.Unmarshal(f.XaaPolicy, &p) == nil && p.IdP != nil && oneOf(xaaPolicyIdPs)(p.IdP) {
		return nil
	}
	return edge.NewError(shared.CodeValidation,
		"xaaPolicy must be an enterprise-managed authorization policy {idp: "+strings.Join(xaaPolicyIdPs, " | ")+"}",
		map[string]any{"field": "xaaPolicy", "reason": "xaa_policy_invalid"})
}

// namesScenario reports whether scenarioId is a string with more than
// white space, as the service tests it (JavaScript's trim).
func (f *ServerFields) namesScenario() bool {
	var id string
	return json.Unmarshal(f.ScenarioID, &id) == nil &&
		strings.TrimFunc(id, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' }) != ""
}
