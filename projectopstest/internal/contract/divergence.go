package contract

// specWins applies, to the decoded 2026-07-09 document, the places where
// the document says less than the service does (reference-notes lists
// each):
//   - the 409 error code CONFLICT, missing from the 07-09 Error enum and
//     named by every later version (the specification uses it);
//   - the run status timed_out, which the specification names;
//   - the host templates goose, slack, cline and notion, which the 07-09
//     gateway accepts (its HOST_TEMPLATE_IDS) though the enum omits them.
func specWins(doc any) {
	appendEnum(lookup(doc, "components", "schemas", "Error", "properties", "code"), "CONFLICT")
	appendEnum(lookup(doc, "components", "schemas", "EvalRun", "properties", "status"), "timed_out")
	for _, id := range []string{"goose", "slack", "cline", "notion"} {
		appendEnum(lookup(doc, "components", "schemas", "HostCreateRequest", "properties", "template"), id)
	}
}

func appendEnum(schema any, value string) {
	m, ok := schema.(map[string]any)
	if !ok {
		panic("contract: reference document changed shape; revisit specWins")
	}
	enum, _ := m["enum"].([]any)
	m["enum"] = append(enum, value)
}
