package conformance

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// ingestSchema is the JSON Schema of the eval-ingest bodies, written from
// reference-notes section 3.8 (the OpenAPI leaves them open); the double
// validates traffic with the same file.
func ingestSchema(t *testing.T) map[string]*schema {
	t.Helper()
	b, err := os.ReadFile("../../projectopstest/internal/contract/data/eval-ingest.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Defs map[string]*schema `json:"$defs"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d.Defs
}

// The ingest wire types against the eval-ingest schema, request and
// response bodies alike.
func TestIngestSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	defs := ingestSchema(t)
	// projectId in a body is ignored by the service (the path decides), so
	// the SDK never sends it.
	pathDecides := []string{"projectId"}
	cases := []struct {
		def    string
		typ    reflect.Type
		ignore []string
	}{
		{"report", reflect.TypeFor[ingest.ReportParams](), pathDecides},
		{"runStart", reflect.TypeFor[ingest.RunParams](), pathDecides},
		{"runIterations", reflect.TypeFor[ingest.AppendParams](), pathDecides},
		{"runFinalize", reflect.TypeFor[ingest.FinalizeParams](), pathDecides},
		{"passCriteria", reflect.TypeFor[ingest.PassCriteria](), nil},
		{"ci", reflect.TypeFor[ingest.CIMetadata](), nil},
		{"serverReplayConfig", reflect.TypeFor[ingest.ServerReplayConfig](), nil},
		{"toolCall", reflect.TypeFor[ingest.ToolCall](), nil},
		{"matchOptions", reflect.TypeFor[ingest.MatchOptions](), nil},
		{"widgetSnapshot", reflect.TypeFor[ingest.WidgetSnapshot](), nil},
		{"result", reflect.TypeFor[ingest.Result](), nil},
		{"summary", reflect.TypeFor[ingest.Summary](), nil},
		{"reportResponse", reflect.TypeFor[ingest.RunResult](), []string{"reused"}},
		{"runStartResponse", reflect.TypeFor[ingest.RunResult](), nil},
		{"finalizeResponse", reflect.TypeFor[ingest.RunResult](), []string{"reused"}},
		{"runIterationsResponse", reflect.TypeFor[ingest.AppendResult](), nil},
		{"uploadURLResponse", reflect.TypeFor[ingest.UploadURL](), nil},
	}
	for _, c := range cases {
		t.Run(c.def, func(t *testing.T) {
			t.Parallel()
			s := defs[c.def]
			if s == nil {
				t.Fatalf("no $defs/%s", c.def)
			}
			trimmed := *s
			trimmed.Properties = map[string]*schema{}
			for k, v := range s.Properties {
				trimmed.Properties[k] = v
			}
			for _, k := range c.ignore {
				delete(trimmed.Properties, k)
			}
			checkFields(t, c.def, &trimmed, c.typ, c.ignore)
		})
	}
}
