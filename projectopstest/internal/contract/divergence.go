package contract

// specWins applies, to the decoded 2026-07-09 document, the places where
// api-spec.md speaks and the reference does not say the same (the
// specification wins; reference-notes lists both gaps):
//   - the 409 error code CONFLICT, missing from the 07-09 Error enum and
//     named by every later version;
//   - the run status timed_out, which the specification names.
func specWins(doc any) {
	appendEnum(lookup(doc, "components", "schemas", "Error", "properties", "code"), "CONFLICT")
	appendEnum(lookup(doc, "components", "schemas", "EvalRun", "properties", "status"), "timed_out")
}

func appendEnum(schema any, value string) {
	m, ok := schema.(map[string]any)
	if !ok {
		panic("contract: reference document changed shape; revisit specWins")
	}
	enum, _ := m["enum"].([]any)
	m["enum"] = append(enum, value)
}
