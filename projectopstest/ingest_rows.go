package projectopstest

import (
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/rows"
)

// insertRows stores rows as finished iterations of run (the run's row
// store skips repeated externalIterationIds), counts their verdicts, and
// holds the artifacts blobs[i] that each stored row i names (see
// holdArtifacts): a skipped row, or one WithIngestDiscard counts without
// keeping, names nothing the run keeps.
func (st *state) insertRows(run *evalRunRec, rs []rows.Row, blobs [][]string) (inserted, skipped int) {
	stored := make([]bool, len(rs))
	inserted, passed, skipped := run.ext.rows.InsertStored(rs, st.now(), stored)
	run.passed += passed
	run.failed += inserted - passed
	for i, ids := range blobs {
		if i < len(stored) && stored[i] {
			st.holdArtifacts(run, ids)
		}
	}
	return inserted, skipped
}

// ingestedIterID names row n (1-based) of an ingested run. It is derived,
// so rows hold no id and none is registered.
func ingestedIterID(runID string, n int) string {
	return "itr_" + strings.TrimPrefix(runID, "run_") + "_" + strconv.Itoa(n)
}

// iterCount is how many iterations the run holds.
func (r *evalRunRec) iterCount() int {
	if r.ext != nil {
		return r.ext.rows.Len()
	}
	return len(r.iters)
}

// iterAt is the run's i-th iteration (0-based). For an ingested run it is
// built from the stored row.
func (r *evalRunRec) iterAt(i int) *evalIterRec {
	if r.ext == nil {
		return r.iters[i]
	}
	raw, received, _ := r.ext.rows.At(i)
	return ingestedIteration(ingestedIterID(r.id, i+1), i+1, decodeRow(raw), received)
}

// iterByID finds an iteration of the run by id, or nil.
func (r *evalRunRec) iterByID(id string) *evalIterRec {
	if r.ext != nil {
		prefix := "itr_" + strings.TrimPrefix(r.id, "run_") + "_"
		n, err := strconv.Atoi(strings.TrimPrefix(id, prefix))
		// Only the id as listed: Atoi would also take "01" and "+1".
		if !strings.HasPrefix(id, prefix) || err != nil || n < 1 || n > r.ext.rows.Len() || id != ingestedIterID(r.id, n) {
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
