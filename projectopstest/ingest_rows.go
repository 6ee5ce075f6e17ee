package projectopstest

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/projectops/projectops-go/ingest"
)

// Received results are kept compactly, so the double's memory grows with
// what it stores and no faster: the rows of one append (every field of the
// reference's EvalResultInput, as JSON) are compressed together into a
// block, and the eval routes decompress a block when they read its rows.
// Results of a test stream repeat their keys and names, so a block is a
// fraction of its size on the wire.

// rowBlock is the rows of one append.
type rowBlock struct {
	z        []byte // flate: for each row, its length (uvarint) and JSON
	first    int    // index in the run of the block's first row
	n        int
	received int64 // unix milliseconds
	passed   []bool
}

// rowCache keeps the last block a run decoded: pages of iterations read
// the same block several times in a row.
type rowCache struct {
	block int
	rows  [][]byte
}

// encodedRows are results ready to store: each one's JSON, encoded before
// the lock is taken.
type encodedRow struct {
	raw    []byte
	extID  string
	passed bool
}

// encodeRows prepares a body's checked results for storage, before the
// lock is taken: each one's JSON exactly as it came (cut from the body with
// a token scan, so no row is re-encoded), its externalIterationId and its
// verdict.
func encodeRows(data []byte, results []any) []encodedRow {
	out := make([]encodedRow, len(results))
	for i, v := range results {
		m, _ := v.(map[string]any)
		out[i].extID, _ = m["externalIterationId"].(string)
		out[i].passed, _ = m["passed"].(bool)
	}
	var buf []byte
	var ends []int
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	_, err := dec.ReadToken() // {
	for err == nil && dec.PeekKind() == '"' {
		var name jsontext.Token
		if name, err = dec.ReadToken(); err != nil || name.String() != "results" {
			if err == nil {
				err = dec.SkipValue()
			}
			continue
		}
		if _, err = dec.ReadToken(); err != nil { // [
			break
		}
		for err == nil && dec.PeekKind() != ']' {
			var v jsontext.Value
			if v, err = dec.ReadValue(); err == nil {
				buf = append(buf, v...)
				ends = append(ends, len(buf))
			}
		}
		_, err = dec.ReadToken() // ]
	}
	if err != nil || len(ends) != len(out) {
		panic("projectopstest: a checked body does not scan") // Decode accepted it
	}
	start := 0
	for i, end := range ends {
		out[i].raw = buf[start:end:end]
		start = end
	}
	return out
}

var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(io.Discard, flate.BestSpeed) // the level is valid
	return w
}}

// insertRows stores rows as finished iterations of run, skipping any
// whose externalIterationId the run already holds or that repeats within
// rows. Under WithIngestDiscard only the counts are kept.
func (st *state) insertRows(run *evalRunRec, rows []encodedRow) (inserted, skipped int) {
	discard := st.ingest.discard
	var buf bytes.Buffer
	var passed []bool
	for _, r := range rows {
		if !discard && r.extID != "" {
			if run.ext.seen[r.extID] {
				skipped++
				continue
			}
			run.ext.seen[r.extID] = true
		}
		inserted++
		if r.passed {
			run.passed++
		} else {
			run.failed++
		}
		if discard {
			continue
		}
		buf.Write(binary.AppendUvarint(nil, uint64(len(r.raw))))
		buf.Write(r.raw)
		passed = append(passed, r.passed)
	}
	if len(passed) == 0 {
		return inserted, skipped
	}
	var z bytes.Buffer
	w := flateWriters.Get().(*flate.Writer)
	w.Reset(&z)
	_, _ = w.Write(buf.Bytes()) // writes to a bytes.Buffer do not fail
	_ = w.Close()
	flateWriters.Put(w)
	ext := run.ext
	ext.blocks = append(ext.blocks, rowBlock{z: bytes.Clone(z.Bytes()), first: ext.nrows, n: len(passed),
		received: st.now().UnixMilli(), passed: passed})
	ext.nrows += len(passed)
	return inserted, skipped
}

// rowAt returns row i of an ingested run: its JSON, when it arrived and its
// verdict. Call with Server.mu held.
func (r *evalRunRec) rowAt(i int) (raw []byte, received time.Time, passed bool) {
	ext := r.ext
	b := sort.Search(len(ext.blocks), func(b int) bool { return ext.blocks[b].first+ext.blocks[b].n > i })
	blk := &ext.blocks[b]
	if ext.cache == nil || ext.cache.block != b {
		ext.cache = &rowCache{block: b, rows: decodeBlock(blk)}
	}
	return ext.cache.rows[i-blk.first], time.UnixMilli(blk.received).UTC(), blk.passed[i-blk.first]
}

// decodeBlock decompresses a block into its rows.
func decodeBlock(blk *rowBlock) [][]byte {
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(blk.z)))
	if err != nil {
		panic("projectopstest: a stored row block does not decompress: " + err.Error())
	}
	rows := make([][]byte, 0, blk.n)
	for len(data) > 0 {
		n, k := binary.Uvarint(data)
		rows = append(rows, data[k:k+int(n)])
		data = data[k+int(n):]
	}
	return rows
}

// ingestedIterID names row n (1-based) of an ingested run. It is derived,
// so rows hold no id and none is registered.
func ingestedIterID(runID string, n int) string {
	return "itr_" + strings.TrimPrefix(runID, "run_") + "_" + strconv.Itoa(n)
}

// iterCount is how many iterations the run holds.
func (r *evalRunRec) iterCount() int {
	if r.ext != nil {
		return r.ext.nrows
	}
	return len(r.iters)
}

// iterAt is the run's i-th iteration (0-based). For an ingested run it is
// built from the stored row.
func (r *evalRunRec) iterAt(i int) *evalIterRec {
	if r.ext == nil {
		return r.iters[i]
	}
	raw, received, _ := r.rowAt(i)
	var res ingest.Result
	_ = json.Unmarshal(raw, &res) // stored rows passed the contract
	return ingestedIteration(ingestedIterID(r.id, i+1), i+1, res, received)
}

// iterByID finds an iteration of the run by id, or nil.
func (r *evalRunRec) iterByID(id string) *evalIterRec {
	if r.ext != nil {
		prefix := "itr_" + strings.TrimPrefix(r.id, "run_") + "_"
		n, err := strconv.Atoi(strings.TrimPrefix(id, prefix))
		if !strings.HasPrefix(id, prefix) || err != nil || n < 1 || n > r.ext.nrows {
			return nil
		}
		return r.iterAt(n - 1)
	}
	for _, it := range r.iters {
		if it.id == id {
			return it
		}
	}
	return nil
}
