package rows

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkInsert stores appends of 200 result rows shaped like the
// reporter's go test results, and reports the stored bytes per row.
//
//	go test -run '^$' -bench Insert ./projectopstest/internal/rows
func BenchmarkInsert(b *testing.B) {
	rows := make([]Row, 200)
	var wire int
	for i := range rows {
		raw := fmt.Sprintf(`{"caseTitle":"example.com/mod/pkg%d.TestCase%d","passed":%t,"durationMs":10,`+
			`"externalIterationId":"gotest:%016x","externalCaseId":"example.com/mod/pkg%d.TestCase%d",`+
			`"metadata":{"package":"example.com/mod/pkg%d","elapsed":0.01},"error":"%s"}`,
			i/50, i, i%7 != 0, uint64(i)*0x9e3779b97f4a7c15, i/50, i, i/50, map[bool]string{true: "", false: "--- FAIL: TestCase (0.01s)"}[i%7 != 0])
		rows[i] = Row{Raw: []byte(raw), Passed: i%7 != 0}
		wire += len(raw)
	}
	s := NewStore(false)
	at := time.Unix(0, 0)
	b.SetBytes(int64(wire))
	b.ReportAllocs()
	for b.Loop() {
		s.Insert(rows, at) // repeated ids are skipped by extId only: none here
	}
	var stored int
	for _, blk := range s.blocks {
		stored += len(blk.z)
	}
	b.ReportMetric(float64(stored)/float64(s.Len()), "stored-B/row")
	b.ReportMetric(float64(wire)/float64(len(rows)), "wire-B/row")
}

// BenchmarkInsertIDs is BenchmarkInsert with an externalIterationId on
// every row, new in every append, as a streamed run sends them: the cost
// of remembering the ids a run holds.
func BenchmarkInsertIDs(b *testing.B) {
	const n = 200
	ids := make([]string, 0, 1<<20)
	for i := range cap(ids) {
		ids = append(ids, fmt.Sprintf("it-%012x-1", uint64(i)*0x9e3779b97f4a7c15))
	}
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Raw: []byte(`{"caseTitle":"t","passed":true}`), Passed: true}
	}
	s := NewStore(false)
	at := time.Unix(0, 0)
	next := 0
	b.ReportAllocs()
	for b.Loop() {
		if next+n > len(ids) {
			s, next = NewStore(false), 0 // a new run
		}
		for i := range rows {
			rows[i].ExtID = ids[next+i]
		}
		next += n
		s.Insert(rows, at)
	}
}
