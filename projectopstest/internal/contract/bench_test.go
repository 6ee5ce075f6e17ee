package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// ingestChunk is a runs/iterations body like the reporter sends: 200
// results of a go test stream, each with a little output.
func ingestChunk() []byte {
	var b bytes.Buffer
	b.WriteString(`{"runId":"run_1","results":[`)
	for i := range 200 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"caseTitle":"pkg/TestThing%d","passed":%t,"durationMs":%d,"externalIterationId":"r-%d",`+
			`"externalCaseId":"pkg/TestThing%d","metadata":{"package":"example.com/pkg","elapsed":0.01},`+
			`"error":"","trace":"=== RUN TestThing%d\n--- PASS: TestThing%d (0.01s)\n"}`, i, i%7 != 0, i, i, i, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkIngestBody measures the double's per-body cost of the contract
// against plain decoding, which the double did before it (twice).
func BenchmarkIngestBody(b *testing.B) {
	body := ingestChunk()
	route := mustLoad(b).Route("POST", "/projects/{projectId}/eval-ingest/runs/iterations")
	b.Run("decode+check", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			v, err := Decode(body)
			if err != nil {
				b.Fatal(err)
			}
			if err := route.CheckRequest(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json-any", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// suiteBody is an eval-suite create body with 100 tests, the shape the
// validator comparison (kin-openapi openapi3filter against this package)
// was measured on.
func suiteBody() []byte {
	var b bytes.Buffer
	b.WriteString(`{"name":"s","serverIds":["srv_1"],"model":"m","tests":[`)
	for i := range 100 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"title":"t%d","runs":1,"model":"m","provider":"p","steps":[{"id":"s1","kind":"prompt","prompt":"hello %d"}]}`, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func BenchmarkSuiteBody(b *testing.B) {
	body := suiteBody()
	route := mustLoad(b).Route("POST", "/projects/{projectId}/eval-suites")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		v, err := Decode(body)
		if err != nil {
			b.Fatal(err)
		}
		if err := route.CheckRequest(v); err != nil {
			b.Fatal(err)
		}
	}
}
