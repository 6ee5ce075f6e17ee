// Package contract is the double's copy of the service's contract: the
// reference OpenAPI documents (2026-07-09, whose names the specification
// follows, and 2026-08-22) and a JSON Schema of the five eval-ingest bodies,
// written from reference-notes section 3.8 because the OpenAPI leaves them
// open. The double checks every request body against it and its tests check
// every response against it, so what is valid is decided by the reference,
// never by the SDK's Go types.
//
// A body is accepted when it satisfies either reference version, with one
// rule on top: a top-level key that neither version documents is refused
// when either version declares the body closed (additionalProperties:
// false), as the service does since it made eval and host writes strict.
//
// The validator of record is santhosh-tekuri/jsonschema. On the two ingest
// routes that carry results, kin-openapi accepts valid results first, a
// third of the cost each; whatever it does not accept is checked whole by
// the validator of record (fastitems.go, FuzzFastItems).
package contract

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed data/*.json
var data embed.FS

// The documents' names inside the schema compiler. Nothing is fetched: the
// loader refuses any URL it was not given.
const (
	docV1     = "mem:///reference-openapi-2026-07-09.json"
	docV2     = "mem:///reference-openapi-2026-08-22.json"
	docIngest = "mem:///eval-ingest.schema.json"
	// docEnvelope is the error envelope every route may answer with
	// (api-spec section 2): the specification gives every operation its
	// error statuses, while the reference lists only some per route.
	docEnvelope = "mem:///envelope.schema.json"
)

var envelope = map[string]any{
	"type":     "object",
	"required": []any{"code", "message"},
	"properties": map[string]any{
		"code":    map[string]any{"type": "string", "minLength": 1},
		"message": map[string]any{"type": "string"},
		"details": map[string]any{"type": "object"},
	},
}

var files = map[string]string{
	docV1:     "data/reference-openapi-2026-07-09.json",
	docV2:     "data/reference-openapi-2026-08-22.json",
	docIngest: "data/eval-ingest.schema.json",
}

// Contract holds the compiled schemas of every route. It is safe for
// concurrent use.
type Contract struct {
	routes map[string]*Route // "METHOD /path/{template}"
}

// Load compiles the embedded documents once per process; the documents
// are part of the binary, so a failure is a bug that every test reports.
var Load = sync.OnceValues(load)

func load() (*Contract, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	docs := map[string]any{}
	for url, name := range files {
		b, err := data.ReadFile(name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("contract: %s: %w", name, err)
		}
		if url == docV1 {
			specWins(doc)
		}
		if url != docIngest {
			routeRules(doc)
		}
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("contract: %s: %w", name, err)
		}
		docs[url] = doc
	}
	if err := c.AddResource(docEnvelope, envelope); err != nil {
		return nil, err
	}
	env, err := c.Compile(docEnvelope)
	if err != nil {
		return nil, err
	}
	b := builder{c: c, v1: docs[docV1], v2: docs[docV2], ingestDefs: lookup(docs[docIngest], "$defs"), envelope: env}
	routes, err := b.routes()
	if err != nil {
		return nil, err
	}
	for _, r := range routes {
		r.segments = strings.Split(strings.Trim(r.Pattern, "/"), "/")
	}
	return &Contract{routes: routes}, nil
}

// Route returns the contract of one operation, named by its method and its
// 2026-07-09 path template relative to /api/v1 (for example
// "POST", "/projects/{projectId}/hosts"), or nil when the reference has no
// such operation.
func (c *Contract) Route(method, pattern string) *Route {
	return c.routes[method+" "+pattern]
}

// Routes lists every operation the contract knows, as "METHOD /template".
func (c *Contract) Routes() []string {
	out := make([]string, 0, len(c.routes))
	for k := range c.routes {
		out = append(out, k)
	}
	return out
}

// noLoader refuses every URL: the contract is self-contained, and a $ref
// that leaves it is a bug in the documents, not something to fetch.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("contract: no document at %s", url)
}
