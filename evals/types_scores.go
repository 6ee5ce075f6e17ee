package evals

// ScoreResult is one scorer's verdict for one iteration (Iteration.Scores,
// sent by newer versions of the service).
type ScoreResult struct {
	ScorerID      string `json:"scorerId"`
	ScorerVersion string `json:"scorerVersion"`
	// DefinitionHash joins the result to its definition in the
	// iteration's EvaluationConfig.
	DefinitionHash string `json:"definitionHash"`
	// Status is "scored", "error", "skipped" or "not_applicable"; an error
	// is not a low score, and not_applicable never gates.
	Status string `json:"status"`
	// Value (0 to 1) is set only when Status is "scored"; a pointer, so a
	// score of 0 is not mistaken for none.
	Value         *float64 `json:"value,omitempty"`
	PassThreshold float64  `json:"passThreshold"`
	// Passed is Value >= PassThreshold, derived by the service; false
	// unless Status is "scored".
	Passed        bool     `json:"passed,omitempty"`
	Rationale     string   `json:"rationale,omitempty"`
	Evidence      []string `json:"evidence,omitempty"`
	Deterministic bool     `json:"deterministic"`
	Model         string   `json:"model,omitempty"`
	PromptHash    string   `json:"promptHash,omitempty"`
	// Error is set only when Status is "error".
	Error string `json:"error,omitempty"`
	// Scope is nil for a case-level check, {kind: "turn", promptIndex}
	// for one authored on a single turn.
	Scope map[string]any `json:"scope,omitzero"`
}
