package projectopstest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/shared"
)

// modelsJSON is the service's model catalog at the reference date: the
// hosted ids, every id it knows with its provider, and the providers whose
// ids it does not check. Its source field says where it comes from.
//
//go:embed data/models.json
var modelsJSON []byte

// knownModel is one entry of the service's model catalog.
type knownModel struct {
	ID       string `json:"id"`
	Provider string `json:"provider"`
}

var bundledModels = sync.OnceValue(func() (c struct {
	Hosted        []string     `json:"hosted"`
	Known         []knownModel `json:"known"`
	OpenProviders []string     `json:"openProviders"`
}) {
	if err := json.Unmarshal(modelsJSON, &c); err != nil || len(c.Hosted) == 0 || len(c.Known) == 0 {
		panic(fmt.Sprintf("projectopstest: bundled model catalog is invalid: %v", err))
	}
	return c
})

// catalogModels is the known catalog plus any hosted id configured with
// WithHostedModels that it lacks (its provider is its prefix).
func (e *evalEngine) catalogModels() []knownModel {
	known := bundledModels().Known
	out := slices.Clone(known)
	for _, id := range e.opts.hosted {
		if !slices.ContainsFunc(known, func(k knownModel) bool { return k.ID == id }) {
			p, _, _ := splitModel(id)
			out = append(out, knownModel{ID: id, Provider: p})
		}
	}
	return out
}

// canonicalModel resolves a test's model as the service does: with a
// provider, a bare id prefers the provider's hosted "<prefix>/<id>" entry
// (so "gpt-4o-mini" of openai is the hosted "openai/gpt-4o-mini"), then an
// exact id of that provider; otherwise an exact id anywhere; otherwise the
// id itself.
func (e *evalEngine) canonicalModel(model, provider string) string {
	model, lp := strings.TrimSpace(model), strings.ToLower(strings.TrimSpace(provider))
	cat := e.catalogModels()
	if lp != "" {
		var exact string
		for _, k := range cat {
			if strings.ToLower(k.Provider) != lp {
				continue
			}
			if !strings.Contains(model, "/") && strings.HasSuffix(k.ID, "/"+model) {
				return k.ID
			}
			if exact == "" && k.ID == model {
				exact = k.ID
			}
		}
		if exact != "" {
			return exact
		}
	}
	return model
}

// isHostedModel reports whether a test's model runs on the organization's
// credits (no key needed).
func (e *evalEngine) isHostedModel(model, provider string) bool {
	return slices.Contains(e.opts.hosted, e.canonicalModel(model, provider))
}

// openModelProvider reports whether provider's ids are not checked.
func openModelProvider(provider string) bool {
	return slices.Contains(bundledModels().OpenProviders, strings.ToLower(strings.TrimSpace(provider)))
}

// hostedIn lists the hosted ids of provider, by the catalog's providers.
func (e *evalEngine) hostedIn(provider string) []string {
	lp := strings.ToLower(strings.TrimSpace(provider))
	var out []string
	for _, k := range e.catalogModels() {
		if strings.ToLower(k.Provider) == lp && slices.Contains(e.opts.hosted, k.ID) {
			out = append(out, k.ID)
		}
	}
	return out
}

// deriveProvider is the provider of a model id given without one, as the
// service attributes it: a provider/name id names its own; a bare id takes
// the provider of the first catalog entry that is it or ends in "/<id>" (so
// "gpt-4o-mini" is openai's). A bare id the catalog does not know has none
// (""): the service refuses it rather than run it with a guessed provider.
func (e *evalEngine) deriveProvider(model string) string {
	id := strings.TrimSpace(model)
	if p, _, ok := splitModel(id); ok {
		return p
	}
	for _, k := range e.catalogModels() {
		if k.ID == id || strings.HasSuffix(k.ID, "/"+id) {
			return k.Provider
		}
	}
	return ""
}

// resolveModel applies the service's create-time model gate to a test's
// model and provider (already defaulted from the suite; with none given,
// deriveProvider's). A test is admitted when its provider is open (custom,
// ollama), its model is hosted, keys holds a key for its provider, or the
// service knows the id (keys stored for the organization may cover it: a
// run without a usable key fails in the run, not here). Anything else is a VALIDATION_ERROR with the provider's hosted
// ids in details.hostedModels. keys is nil when authoring a suite.
func (e *evalEngine) resolveModel(field, model, provider string, keys map[string]string) (string, string, *edge.Error) {
	if strings.TrimSpace(model) == "" {
		return "", "", edge.NewError(shared.CodeValidation, "A model is required (the test and the suite name none)",
			map[string]any{"field": field})
	}
	if provider == "" {
		provider = e.deriveProvider(model)
	}
	if strings.TrimSpace(provider) == "" {
		return "", "", edge.NewError(shared.CodeValidation, "Cannot derive a provider for model "+edge.Quote(model)+
			": pass a provider, or a provider/name id", map[string]any{"field": field, "model": model})
	}
	canonical := e.canonicalModel(model, provider)
	if openModelProvider(provider) || slices.Contains(e.opts.hosted, canonical) ||
		keys[provider] != "" || keys[strings.ToLower(provider)] != "" ||
		slices.ContainsFunc(e.catalogModels(), func(k knownModel) bool { return k.ID == canonical }) {
		return model, provider, nil
	}
	details := map[string]any{"field": field, "model": model, "provider": provider}
	if hosted := e.hostedIn(provider); len(hosted) > 0 {
		details["hostedModels"] = hosted
	}
	return "", "", edge.NewError(shared.CodeValidation, "Unknown model "+edge.Quote(model)+" (provider "+edge.Quote(provider)+
		"): use a hosted model id, or pass modelApiKeys["+edge.Quote(provider)+"] to bring your own key", details)
}

// SetOrganizationModelKey stores a model provider key for an organization,
// as the service keeps keys set in an organization's settings: runs of its
// projects use it for a provider-native model when the run's modelApiKeys
// has no key for that provider. An empty key removes it. The run-create
// gate never looks at these keys (the service cannot see them there
// either); a run whose provider-native model has no usable key fails in
// the run.
func (s *Server) SetOrganizationModelKey(orgID, provider string, key Secret) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.orgs[orgID] == nil {
		return helperError(notFound("SetOrganizationModelKey: unknown organization %q", orgID))
	}
	if strings.TrimSpace(provider) == "" {
		return fmt.Errorf("projectopstest: SetOrganizationModelKey: empty provider")
	}
	if s.ev.orgKeys == nil {
		s.ev.orgKeys = map[string]map[string]Secret{}
	}
	m := s.ev.orgKeys[orgID]
	if m == nil {
		m = map[string]Secret{}
		s.ev.orgKeys[orgID] = m
	}
	if key == "" {
		delete(m, provider)
	} else {
		m[provider] = key
	}
	return nil
}

// runModelKeysLocked is a new run's provider keys: its modelApiKeys, then
// its organization's stored keys for the providers those lack.
func (e *evalEngine) runModelKeysLocked(orgID string, given map[string]string) map[string]Secret {
	keys := make(map[string]Secret, len(given))
	for k, v := range given {
		keys[k] = Secret(v)
	}
	for p, k := range e.orgKeys[orgID] {
		if _, ok := keys[p]; !ok {
			keys[p] = k
		}
	}
	return keys
}

// modelKey picks the key a test's model turns use: none for a hosted
// model (it runs on credits) or an open provider's; otherwise the run's key
// for its provider. ok is false when a provider-native model has no usable
// key: the iteration fails, as the service's run does.
func (e *evalEngine) modelKey(model, provider string, keys map[string]Secret) (key Secret, ok bool) {
	if e.isHostedModel(model, provider) {
		return "", true
	}
	key = keys[provider]
	if key == "" {
		key = keys[strings.ToLower(provider)]
	}
	return key, key != "" || openModelProvider(provider)
}
