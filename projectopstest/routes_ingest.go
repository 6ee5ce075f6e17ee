package projectopstest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/hostconfig"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest/internal/hostcfg"
	"github.com/projectops/projectops-go/projectopstest/internal/rows"
	"github.com/projectops/projectops-go/shared"
)

// ingestRoutes serves eval-ingest (spec §4.5, shapes from the reference
// reporter). Successes use the legacy {"ok": true, ...} envelope.
func ingestRoutes(s *Server, rt *router) {
	rt.handle("POST /projects/{projectId}/eval-ingest/report", ingestOp(s, checkReport, ingestReport))
	rt.handle("POST /projects/{projectId}/eval-ingest/runs/start", ingestOp(s, checkStart, ingestStart))
	rt.handle("POST /projects/{projectId}/eval-ingest/runs/iterations", ingestOp(s, checkAppend, ingestAppend))
	rt.handle("POST /projects/{projectId}/eval-ingest/runs/finalize", ingestOp(s, nil, ingestFinalize))
	rt.handle("POST /projects/{projectId}/eval-ingest/artifacts/upload-url", withServer(s, ingestUploadURL))
	rt.handlePublic(uploadRoute, withServer(s, ingestUpload))
}

// uploadRoute serves minted upload URLs; its path holds the URL's token,
// which the request log and debug log redact.
const uploadRoute = "POST " + uploadPath + "{token}"

// decodeIngest reads an ingest body under the API's 1 MiB cap (the
// gateway's own 6 MiB cap for ingest, and its backend's 5 MiB, sit behind
// it and never see a larger body) and parses it once into its checked
// object and, cut in the same pass, the raw JSON of each result (what the
// run stores). A projectId in the body is ignored (the path decides), as
// the gateway overwrites it.
func decodeIngest(r *http.Request) (map[string]any, [][]byte, *edge.Error) {
	obj, _, results, _, herr := edge.DecodeObjectElements(r, edge.MaxBodyBytes, edge.BodyTooLarge(), "results")
	if herr == nil {
		delete(obj, "projectId")
	}
	return obj, results, herr
}

// runParams reads the run fields of a report or runs/start body (the
// results, when present, stay out: they are stored as rows).
func runParams(obj map[string]any) (ingest.RunParams, *edge.Error) {
	head := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "results" {
			head[k] = v
		}
	}
	var p ingest.RunParams
	b, _ := json.Marshal(head) // decoded JSON always re-encodes
	if err := json.Unmarshal(b, &p); err != nil {
		return p, edge.DecodeError(err)
	}
	if herr := validateRunParams(p); herr != nil {
		return p, herr
	}
	if cfg, ok := obj["hostConfig"].(map[string]any); ok {
		// The backend re-runs the host config validator on ingest, on the
		// config as the eval wire carries it, and checks the hash against it.
		canon, err := hostconfig.Canonicalize(hostconfig.ForEvalWire(cfg))
		if err != nil {
			return p, hostcfg.ConfigError("hostConfig", err)
		}
		if h, _ := obj["hostConfigHash"].(string); h != "" && h != hostconfig.ID(canon) {
			return p, edge.Validation("hostConfigHash", "hostConfigHash does not match hostConfig")
		}
	}
	return p, nil
}

// ingestProject resolves the project path value for a write; the
// literal "default" is the caller's organization's first project.
func (st *state) ingestProject(a actor, projectID string) (string, *edge.Error) {
	if projectID == ingest.DefaultProject {
		projectID = ""
		for _, p := range sortedByOrd(st.projects, func(p *projectRec) int { return p.ord },
			func(p *projectRec) bool { return p.orgID == a.orgID }) {
			projectID = p.id
			break
		}
	}
	p, _, herr := st.projectFor(a, projectID, accessWrite)
	if herr != nil {
		return "", herr
	}
	return p.id, nil
}

// ingestBody is an ingest request parsed once: the checked object, its
// bytes, and what check derived from them for apply.
type ingestBody struct {
	obj     map[string]any
	raw     [][]byte // each result as sent
	run     ingest.RunParams
	results []any
	rows    []rows.Row
}

// ingestOp is the typed adapter for the ingest routes, whose bodies are
// read differently from the others: under the gateway's own cap, into the
// checked object itself, with the project path's "default" alias. Access
// comes first, then the one parse, check unlocked, apply under Server.mu.
func ingestOp[Resp any](s *Server, check func(c *call, b *ingestBody) *edge.Error,
	apply func(c *call, b *ingestBody) (Resp, *edge.Error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a actor) *edge.Error {
		c := &call{s: s, r: r, a: a}
		if herr := s.checkIngestAccess(r, a); herr != nil {
			return herr
		}
		obj, raw, herr := decodeIngest(r)
		if herr != nil {
			return herr
		}
		b := &ingestBody{obj: obj, raw: raw}
		if check != nil {
			if herr := check(c, b); herr != nil {
				return herr
			}
		}
		resp, herr := applyLocked(s, c, b, apply)
		if herr != nil {
			return herr
		}
		respond(w, http.StatusOK, resp)
		return nil
	}
}

// applyLocked runs apply under Server.mu. The unlock is deferred, as in
// op.locked, so that a panic in apply (recovered by net/http or the
// in-process transport) does not leave every later request waiting on the
// lock.
func applyLocked[Resp any](s *Server, c *call, b *ingestBody,
	apply func(c *call, b *ingestBody) (Resp, *edge.Error)) (Resp, *edge.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return apply(c, b)
}

// checkStart reads the run's fields.
func checkStart(_ *call, b *ingestBody) (herr *edge.Error) {
	b.run, herr = runParams(b.obj)
	return herr
}

// checkReport reads the run's fields and its results, encoded as rows.
func checkReport(c *call, b *ingestBody) *edge.Error {
	if herr := checkStart(c, b); herr != nil {
		return herr
	}
	return checkRows(b, false)
}

func checkAppend(_ *call, b *ingestBody) *edge.Error { return checkRows(b, true) }

// checkRows validates the results and encodes them as rows; nonEmpty
// requires at least one.
func checkRows(b *ingestBody, nonEmpty bool) *edge.Error {
	b.results, _ = b.obj["results"].([]any)
	if herr := validateResults(b.results, nonEmpty); herr != nil {
		return herr
	}
	b.rows = rows.Encode(b.raw, b.results)
	return nil
}

// ingestReport stores a one-shot report. Everything that can refuse it is
// checked before a run (or its suite) is created, so a refused report
// leaves nothing behind, as every refusal of the double does: a run left
// in flight here would never end, and WithMaxRuns never drops one.
func ingestReport(c *call, b *ingestBody) (ingest.RunResult, *edge.Error) {
	s := c.s
	projectID, run, herr := s.reusedIngestedRunLocked(c.a, c.path("projectId"), b.run, configHash(b.obj))
	if herr == nil && run != nil {
		herr = stoppedRun(run)
	}
	var blobs [][]string
	if herr == nil {
		blobs, herr = s.st.checkBlobs(projectID, b.results)
	}
	if herr == nil && run == nil {
		run, herr = s.newIngestedRunLocked(projectID, b.run, configHash(b.obj))
	}
	if herr != nil {
		return ingest.RunResult{}, herr
	}
	if !run.terminal() {
		s.st.insertRows(run, b.rows, blobs)
	}
	// Trimmed once the new run holds its artifacts (a run dropped here may
	// name the same ones) and before it is finalized (a run in flight is
	// never dropped), as runs/start trims.
	s.ev.trimRunsLocked()
	if !run.terminal() {
		s.st.finalizeIngested(run)
	}
	return s.st.runResult(run, false), nil
}

func ingestStart(c *call, b *ingestBody) (ingest.RunResult, *edge.Error) {
	run, reused, herr := c.s.startIngestedRunLocked(c.a, c.path("projectId"), b.run, configHash(b.obj))
	if herr != nil {
		return ingest.RunResult{}, herr
	}
	c.s.ev.trimRunsLocked()
	return c.s.st.runResult(run, reused), nil
}

// stoppedRun refuses a report to a run cancelled (or timed out) through
// the eval routes: the results sent would be dropped; 409, as appending to
// any finished run. (Finalizing it answers its state: nothing is lost.)
func stoppedRun(run *evalRunRec) *edge.Error {
	if run.status != evals.StatusCancelled && run.status != evals.StatusTimedOut {
		return nil
	}
	return edge.NewError(shared.CodeConflict, "Run was "+strings.ReplaceAll(string(run.status), "_", " ")+"; report to a new run (another externalRunId)",
		map[string]any{"runId": run.id, "status": string(run.status)})
}

func ingestAppend(c *call, b *ingestBody) (ingest.AppendResult, *edge.Error) {
	s := c.s
	runID, _ := b.obj["runId"].(string) // the contract requires it
	run, herr := s.findIngestedRunLocked(c.a, c.path("projectId"), runID)
	if herr == nil && run.terminal() {
		herr = edge.NewError(shared.CodeConflict, "Run is already finalized; start a new run to add iterations",
			map[string]any{"runId": run.id, "status": string(run.status)})
	}
	var blobs [][]string
	if herr == nil {
		blobs, herr = s.st.checkBlobs(run.projectID, b.results)
	}
	if herr != nil {
		return ingest.AppendResult{}, herr
	}
	var out ingest.AppendResult
	out.Inserted, out.Skipped = s.st.insertRows(run, b.rows, blobs)
	out.OK, out.Total = true, run.passed+run.failed
	return out, nil
}

func ingestFinalize(c *call, b *ingestBody) (ingest.RunResult, *edge.Error) {
	runID, _ := b.obj["runId"].(string) // the contract requires both
	extID, _ := b.obj["externalRunId"].(string)
	run, herr := c.s.findIngestedRunLocked(c.a, c.path("projectId"), runID)
	if herr == nil && run.ext.params.ExternalRunID != extID {
		herr = edge.Validation("externalRunId", "externalRunId does not match the run's")
	}
	if herr != nil {
		return ingest.RunResult{}, herr
	}
	if !run.terminal() {
		c.s.st.finalizeIngested(run)
	}
	return c.s.st.runResult(run, false), nil
}

// checkIngestAccess resolves the project before the body is read, so a
// caller without write access learns nothing from validation.
func (s *Server) checkIngestAccess(r *http.Request, a actor) *edge.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, herr := s.st.ingestProject(a, r.PathValue("projectId"))
	return herr
}

// validateRunParams checks the fields the service requires of a run.
func validateRunParams(p ingest.RunParams) *edge.Error {
	switch {
	case strings.TrimSpace(p.SuiteName) == "":
		return edge.Validation("suiteName", "suiteName is required")
	case p.ExternalRunID == "":
		return edge.Validation("externalRunId", "externalRunId is required")
	case utf8.RuneCountInString(p.ExternalRunID) > 256: // characters, as JSON Schema's maxLength
		return edge.Validation("externalRunId", "externalRunId is longer than 256 characters")
	case p.PassCriteria != nil && (p.PassCriteria.MinimumPassRate < 0 || p.PassCriteria.MinimumPassRate > 100):
		return edge.Validation("passCriteria.minimumPassRate", "minimumPassRate must be a percentage between 0 and 100")
	}
	return nil
}

// validateResults checks what the contract cannot of each result (the
// checked objects of a results array); nonEmpty requires at least one.
func validateResults(rs []any, nonEmpty bool) *edge.Error {
	if nonEmpty && len(rs) == 0 {
		return edge.Validation("results", "results must not be empty")
	}
	for i, v := range rs {
		res, _ := v.(map[string]any)
		at := "results[" + strconv.Itoa(i) + "]."
		title, _ := res["caseTitle"].(string)
		caseID, _ := res["caseId"].(string)
		extCase, _ := res["externalCaseId"].(string)
		extIter, _ := res["externalIterationId"].(string)
		switch {
		case strings.TrimSpace(title) == "":
			return edge.Validation(at+"caseTitle", "caseTitle is required")
		case caseID != "" && extCase != "" && caseID != extCase:
			return edge.Validation(at+"caseId", "caseId must equal externalCaseId when both are set")
		case utf8.RuneCountInString(extIter) > 256:
			return edge.Validation(at+"externalIterationId", "externalIterationId is longer than 256 characters")
		}
	}
	return nil
}

// configHash is a run body's evaluationConfigHash, or "".
func configHash(obj map[string]any) string {
	h, _ := obj["evaluationConfigHash"].(string)
	return h
}

// checkBlobs requires every widget snapshot's widgetHtmlBlobId to
// name an artifact uploaded to the project through an upload URL and still
// kept (see ArtifactTTL), and returns the ids each result names, by the
// result's index.
func (st *state) checkBlobs(projectID string, results []any) ([][]string, *edge.Error) {
	var ids [][]string
	for i, v := range results {
		res, _ := v.(map[string]any)
		snaps, _ := res["widgetSnapshots"].([]any)
		for j, sv := range snaps {
			snap, _ := sv.(map[string]any)
			id, ok := snap["widgetHtmlBlobId"].(string)
			if !ok {
				continue
			}
			if a := st.liveArtifact(id); a == nil || a.projectID != projectID {
				return nil, edge.Validation("results["+strconv.Itoa(i)+"].widgetSnapshots["+strconv.Itoa(j)+"].widgetHtmlBlobId",
					"No uploaded artifact "+edge.Quote(id))
			}
			if ids == nil {
				ids = make([][]string, len(results))
			}
			ids[i] = append(ids[i], id)
		}
	}
	return ids, nil
}
