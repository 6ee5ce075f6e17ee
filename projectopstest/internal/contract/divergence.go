package contract

// specWins applies, to the decoded 2026-07-09 document, the places where
// the document says other than the service does (reference-notes lists
// each) or than api-spec.md, which wins:
//   - the 409 error code CONFLICT, missing from the 07-09 Error enum and
//     named by every later version (the specification uses it);
//   - the run status timed_out, which the specification names;
//   - the build provider provider_a, the specification's neutral name for
//     the one provider the reference names (e2b).
func specWins(doc any) {
	appendEnum(lookup(doc, "components", "schemas", "Error", "properties", "code"), "CONFLICT")
	appendEnum(lookup(doc, "components", "schemas", "EvalRun", "properties", "status"), "timed_out")
	appendEnum(lookup(doc, "components", "schemas", "ComputerEnvironmentBuild", "properties", "provider"), "provider_a")
}

// routeRules removes, from either document's request schemas, what the
// service's route code decides with its own messages rather than a schema
// check, so that the double's handlers answer as the service does:
//   - which fields go together (top-level oneOf/anyOf of required sets:
//     "Provide exactly one of `template` or a non-empty `config`.",
//     suiteId or suiteName+tests+serverIds, PATCH needing a field);
//   - an empty host config, which the gateway reads as absent;
//   - the host template enum: the gateway takes any id found in its live
//     or bundled catalog ("Unknown host template: <id>"), 16 at 07-09
//     where the enum lists 12;
//   - a test case's model, provider and runs, which the specification
//     makes optional (they fall back to the suite's defaults);
//   - the tunnel name's minLength and maxLength: the service trims the
//     name before counting (zod's trim().min(1).max(128)) and counts
//     UTF-16 code units, where the schema would count code points of the
//     raw value, refusing a 128-character name sent with white space
//     around it and taking one of white space alone; its type stays;
//
// declares the run-create body's projectId, which the service's schema
// takes (the path's value replaces it) and neither document lists; and
// closes the host delete body: the gateway refuses any field but
// force (the specification keeps force; the document leaves it open).
func routeRules(doc any) {
	if del, ok := lookup(doc, "paths", "/projects/{projectId}/hosts/{hostId}", "delete", "requestBody",
		"content", "application/json", "schema").(map[string]any); ok {
		del["additionalProperties"] = false
	}
	schemas := lookup(doc, "components", "schemas")
	for _, name := range []string{"HostCreateRequest", "HostUpdateRequest", "EvalRunCreateRequest",
		"ComputerEnvironmentUpdateRequest", "SandboxImageUpdateRequest"} {
		if m, ok := lookup(schemas, name).(map[string]any); ok {
			delete(m, "oneOf")
			delete(m, "anyOf")
		}
	}
	if cfg, ok := lookup(schemas, "HostCreateRequest", "properties", "config").(map[string]any); ok {
		delete(cfg, "minProperties")
	}
	if tpl, ok := lookup(schemas, "HostCreateRequest", "properties", "template").(map[string]any); ok {
		delete(tpl, "enum")
	}
	if name, ok := lookup(schemas, "TunnelCreateRequest", "properties", "name").(map[string]any); ok {
		delete(name, "minLength") // checkCreateTunnel counts the trimmed name
		delete(name, "maxLength")
	}
	if props, ok := lookup(schemas, "EvalRunCreateRequest", "properties").(map[string]any); ok {
		props["projectId"] = map[string]any{} // any value: the service overwrites it with the path's
	}
	if tc, ok := lookup(schemas, "EvalTestCase").(map[string]any); ok {
		req, _ := tc["required"].([]any)
		kept := []any{}
		for _, r := range req {
			if r != "model" && r != "provider" && r != "runs" {
				kept = append(kept, r)
			}
		}
		tc["required"] = kept
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

// renamed pairs a 2026-07-09 path with the 2026-08-22 path of the same
// operation under its new name. Only whether the body is closed is taken
// from the newer route: its fields were renamed too (dockerfile became
// blueprint), so its schema is not the older route's.
var renamed = map[string]string{
	"/projects/{projectId}/computer-environments":                 "/projects/{projectId}/images",
	"/projects/{projectId}/computer-environments/{environmentId}": "/projects/{projectId}/images/{imageId}",
}
