package projectopstest

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkCheckJSONText measures the UTF-8 and duplicate-key scan on a
// 1000-result ingest body (about 1 MiB), the reporter's largest chunk.
func BenchmarkCheckJSONText(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"runId":"r","results":[`)
	for i := range 1000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"caseTitle":"pkg/TestCase` + strconv.Itoa(i) + `","passed":true,"durationMs":12,` +
			`"externalIterationId":"ext-` + strconv.Itoa(i) + `","metadata":{"package":"github.com/x/y","elapsed":0.01},` +
			`"trace":"` + strings.Repeat("output line\\n", 60) + `"}`)
	}
	sb.WriteString(`]}`)
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if herr := checkJSONText(data); herr != nil {
			b.Fatal(herr)
		}
	}
}
