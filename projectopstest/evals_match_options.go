package projectopstest

import (
	"encoding/json"
	"math"
	"slices"
	"sort"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// matchVocabulary is one of the service's two strict match-option
// schemas: each key and the check of its value ("" when it is valid).
type matchVocabulary map[string]func(v any) string

// internalMatchOptions is the service's matchOptionsSchema
// (shared/eval-matching.ts), a test's matchOptions.
var internalMatchOptions = matchVocabulary{
	"toolCallOrder": enumOf("toolCallOrder must be ignore, strict or superset", "ignore", "strict", "superset"),
	"maxExtraToolCalls": func(v any) string {
		if v == nil || isCount(v) {
			return ""
		}
		return "maxExtraToolCalls must be a non-negative integer or null"
	},
	"allowExtraToolCalls": func(v any) string {
		if _, ok := v.(bool); ok {
			return ""
		}
		return "allowExtraToolCalls must be a boolean"
	},
	"argumentMatching": enumOf("argumentMatching must be exact, partial or ignore", "exact", "partial", "ignore"),
}

// publicMatchOptions is the public vocabulary a run's
// matchOptionsOverride may use instead (routes/v1/evals.ts).
var publicMatchOptions = matchVocabulary{
	"toolCallOrder": enumOf("toolCallOrder must be any, in-order or exact", "any", "in-order", "exact"),
	"extraToolCalls": func(v any) string {
		if v == "unlimited" || isCount(v) {
			return ""
		}
		return `extraToolCalls must be "unlimited" or a non-negative integer`
	},
	"arguments": enumOf("arguments must be ignore, partial or exact", "ignore", "partial", "exact"),
}

// checkMatchOptions holds raw to the internal vocabulary or, when
// allowPublic (a run's override), to either one: the service's union of
// two strict objects whose vocabularies are disjoint.
func checkMatchOptions(field string, raw json.RawMessage, allowPublic bool) *edge.Error {
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return edge.Validation(field, field+" must be an object")
	}
	herr := internalMatchOptions.check(field, obj)
	if herr == nil || !allowPublic {
		return herr
	}
	pub := publicMatchOptions.check(field, obj)
	switch {
	case pub == nil:
		return nil
	case internalMatchOptions.claims(obj):
		return herr
	}
	return pub
}

// check reports the first key of obj (in sorted order) the vocabulary
// does not know or whose value it refuses.
func (m matchVocabulary) check(field string, obj map[string]any) *edge.Error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		valid, known := m[k]
		if !known {
			return edge.Validation(field+"."+k, "Unknown field "+edge.Quote(k)+" in "+field)
		}
		if msg := valid(obj[k]); msg != "" {
			return edge.Validation(field+"."+k, msg)
		}
	}
	return nil
}

// claims reports whether obj uses a key only the internal vocabulary has,
// or its toolCallOrder names: its error is then the one to report.
func (m matchVocabulary) claims(obj map[string]any) bool {
	for k, v := range obj {
		if _, pub := publicMatchOptions[k]; !pub {
			if _, ok := m[k]; ok {
				return true
			}
		}
		if k == "toolCallOrder" && m[k](v) == "" {
			return true
		}
	}
	return false
}

func enumOf(msg string, values ...string) func(v any) string {
	return func(v any) string {
		if s, ok := v.(string); ok && slices.Contains(values, s) {
			return ""
		}
		return msg
	}
}

// isCount reports whether v is a JSON number that is a whole number ≥ 0.
func isCount(v any) bool {
	n, ok := v.(float64)
	return ok && n >= 0 && n == math.Trunc(n) && !math.IsInf(n, 0)
}
