package projectopstest

import (
	"encoding/json"

	"github.com/projectops/projectops-go/evals"
)

// caseKey is a test's identity within its suite, as the service's
// buildUpsertCaseKey makes it: the title, the query (the first prompt
// step's prompt) and the steps normalized (members in sorted order). Two
// tests of one title with other steps are two cases; a stored case is
// updated only by a test of the same identity.
func caseKey(t evals.Test) string {
	var query string
	for _, st := range t.Steps {
		if st.Kind == evals.KindPrompt {
			query = st.Prompt
			break
		}
	}
	return t.Title + "\x00" + query + "\x00" + normalizedJSON(t.Steps)
}

// normalizedJSON encodes v with every object's members in sorted order
// (a step's extra members are written in arrival order otherwise).
func normalizedJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var generic any
	if json.Unmarshal(b, &generic) != nil {
		return string(b)
	}
	b, _ = json.Marshal(generic) // maps encode in sorted key order
	return string(b)
}
