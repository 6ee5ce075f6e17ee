package projectopstest

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest/internal/rows"
	"github.com/projectops/projectops-go/shared"
)

// uploadPath is where, under the API prefix, the double serves the upload
// URLs it mints.
const uploadPath = "/eval-ingest-uploads/"

// UploadURLTTL is how long an upload URL the double mints stays valid. The
// double serves such a URL itself, under its base URL
// (…/api/v1/eval-ingest-uploads/<token>), without a key, and accepts one
// upload to it.
const UploadURLTTL = 5 * time.Minute

// startIngestedRunLocked creates the run named by p.ExternalRunID in the
// project, or returns the existing one (reused). The suite is found or
// created by name. The run joins the eval runs (source "sdk"), but it is
// not executed and does not count against the concurrency cap.
func (s *Server) startIngestedRunLocked(a actor, projectPath string, p ingest.RunParams, hash string) (*evalRunRec, bool, *edge.Error) {
	projectID, herr := s.st.ingestProject(a, projectPath)
	if herr != nil {
		return nil, false, herr
	}
	st := &s.st.ingest
	key := projectID + "\x00" + p.ExternalRunID
	if run := st.byExt[key]; run != nil {
		if hash != "" && run.ext.configHash != "" && hash != run.ext.configHash {
			// A reused externalRunId must describe the same evaluation.
			return nil, false, edge.NewError(shared.CodeConflict,
				"externalRunId was already used with a different evaluationConfigHash",
				map[string]any{"field": "evaluationConfigHash", "runId": run.id})
		}
		return run, true, nil
	}
	suiteID, err := s.suiteByNameLocked(projectID, p.SuiteName, p.SuiteDescription)
	if err != nil {
		return nil, false, edge.Internal()
	}
	id, err := s.st.newID("run", "")
	if err != nil {
		return nil, false, edge.Internal()
	}
	if st.byExt == nil {
		st.byExt = map[string]*evalRunRec{}
	}
	n := s.st.nextRunNumberLocked(suiteID)
	p.ServerNames = slices.Clone(p.ServerNames)
	p.Tags = slices.Clone(p.Tags)
	run := &evalRunRec{id: id, projectID: projectID, orgID: s.st.projects[projectID].orgID, suiteID: suiteID,
		source: evals.SourceSDK, runNumber: n, status: evals.StatusRunning, notes: p.Notes,
		createdAt: s.now(), ord: s.st.nextOrd(), ext: &runExternal{params: p, configHash: hash, rows: rows.NewStore(st.discard)}}
	if p.PassCriteria != nil {
		run.passCriteria = &evals.PassCriteria{MinimumPassRate: p.PassCriteria.MinimumPassRate}
	}
	s.st.evals.runs[id], st.byExt[key] = run, run
	s.ev.trimRunsLocked()
	return run, false, nil
}

// suiteByNameLocked returns the project's suite called name, creating it
// (with description) when there is none.
func (s *Server) suiteByNameLocked(projectID, name, description string) (string, error) {
	for _, su := range sortedByOrd(s.st.suites, func(v *evalSuiteRec) int { return v.ord },
		func(v *evalSuiteRec) bool { return v.projectID == projectID && v.name == name }) {
		return su.id, nil
	}
	id, err := s.addEvalSuiteLocked(EvalSuiteSpec{ProjectID: projectID, Name: name})
	if err == nil {
		s.st.suites[id].def = &suiteDef{description: description}
	}
	return id, err
}

// findIngestedRunLocked resolves an ingested run of the project; another
// project's run, or a run created through the API, reads as 404.
func (s *Server) findIngestedRunLocked(a actor, projectPath, runID string) (*evalRunRec, *edge.Error) {
	projectID, herr := s.st.ingestProject(a, projectPath)
	if herr != nil {
		return nil, herr
	}
	run := s.st.evals.runs[runID]
	if run == nil || run.ext == nil || run.projectID != projectID {
		if herr := s.ev.droppedRunError(projectID, runID); herr != nil {
			return nil, herr
		}
		return nil, notFoundIn("Run")
	}
	return run, nil
}

// finalizeIngested ends an ingested run: an empty run, or one with
// fewer rows than expectedIterations, fails; otherwise it is completed and
// passes when its pass rate reaches the pass criteria's minimum (100% by
// default), as an engine run does (endRun).
func (st *state) finalizeIngested(run *evalRunRec) {
	sum := run.summary()
	status := evals.StatusCompleted
	if sum.Total == 0 || sum.Total < run.ext.params.ExpectedIterations {
		status = evals.StatusFailed
	}
	st.endRun(run, status)
}

// ingestResult is the run's result as eval-ingest answers it: pending
// until the run is terminal.
func ingestResult(run *evalRunRec) string {
	if !run.terminal() {
		return ingest.ResultPending
	}
	return string(run.result)
}

func (st *state) runResult(run *evalRunRec, reused bool) ingest.RunResult {
	sum := ingest.Summary(run.summary())
	return ingest.RunResult{OK: true, SuiteID: run.suiteID, RunID: run.id, ProjectID: run.projectID,
		Reused: reused, Status: string(run.status), Result: ingestResult(run), Summary: &sum}
}

// ingestUploadURL mints a single-use upload URL served by this double.
func ingestUploadURL(s *Server, w http.ResponseWriter, r *http.Request, a actor) *edge.Error {
	if herr := s.checkIngestAccess(r, a); herr != nil {
		return herr
	}
	if _, _, herr := decodeIngest(r); herr != nil {
		return herr
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	s.mu.Lock()
	projectID, herr := s.st.ingestProject(a, r.PathValue("projectId"))
	if herr == nil {
		st := &s.st.ingest
		if st.uploads == nil {
			st.uploads = map[string]*uploadRec{}
		}
		st.uploads[token] = &uploadRec{projectID: projectID, expires: s.now().Add(UploadURLTTL)}
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	edge.WriteJSON(w, http.StatusOK, ingest.UploadURL{OK: true, UploadURL: requestBase(r) + uploadPath + token})
	return nil
}

// ingestUpload stores the raw body sent to a minted URL. No key is needed:
// the URL is the capability, so it is checked (and claimed) before a byte
// of the body is read: a made-up URL costs no memory.
func ingestUpload(s *Server, w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
	up, herr := s.claimUpload(r.PathValue("token"))
	if herr != nil {
		return herr
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, ingest.MaxArtifactBytes+1))
	if err == nil && len(data) > ingest.MaxArtifactBytes {
		herr = edge.NewError(shared.CodeValidation, "Artifact exceeds the upload size limit",
			map[string]any{"limit": ingest.MaxArtifactBytes})
	} else if err != nil {
		herr = edge.Validation("", "Could not read request body")
	}
	var id string
	s.mu.Lock()
	if herr == nil {
		if id, err = s.st.newID("stg", ""); err != nil {
			herr = edge.Internal()
		}
	}
	if herr != nil {
		up.used = false // a failed upload leaves the URL usable
	} else {
		st := &s.st.ingest
		if st.artifacts == nil {
			st.artifacts = map[string]*artifactRec{}
		}
		st.artifacts[id] = &artifactRec{id: id, projectID: up.projectID, contentType: r.Header.Get("Content-Type"),
			data: data, createdAt: s.now()}
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	edge.WriteJSON(w, http.StatusOK, ingest.Upload{StorageID: id})
	return nil
}

// shownPath is a request path as the double's errors and logs show it:
// the segment after eval-ingest-uploads, an upload URL's token and its
// credential, is replaced, whatever the method or the rest of the path
// ("//", "." and ".." segments skipped), and so is anything shaped like an
// API key (see keyShapedSegments).
func shownPath(p string) string {
	p = keyShapedSegments(p)
	const dir = "eval-ingest-uploads"
	if !strings.Contains(p, dir) {
		return p
	}
	segs := strings.Split(p, "/")
	for i := 0; i < len(segs); i++ {
		if segs[i] != dir {
			continue
		}
		for j := i + 1; j < len(segs); j++ {
			if s := segs[j]; s != "" && s != "." && s != ".." {
				segs[j], i = "REDACTED", j
				break
			}
		}
	}
	return strings.Join(segs, "/")
}

// keyShapedSegments replaces, in each segment of p, an API key pasted into
// it (a caller who pasted one where an id goes must not see it echoed in
// an error or a log): from an "sk_" (ASCII, in any case) to the segment's
// end, when the "sk_" starts the segment or follows a byte that is no
// ASCII letter or digit (" sk_", "=sk_", "-sk_") and is followed by at
// least minKeyTail base64url bytes. An id that merely holds "sk_"
// (task_runner, disk_1, sk_test) is no key and is left alone. p is read
// byte by byte, never through a case-folded copy, whose length may differ
// (invalid UTF-8, İ, K); it is returned as it is unless a key is found.
func keyShapedSegments(p string) string {
	var b strings.Builder
	done := 0 // p[:done] is in b
	for i := 0; i < len(p); {
		u := strings.IndexByte(p[i:], '_')
		if u < 0 {
			break
		}
		k := i + u - 2 // where "sk_" would start
		i += u + 1
		if !keyStartsAt(p, k) {
			continue
		}
		end := strings.IndexByte(p[i:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += i
		}
		b.WriteString(p[done:k])
		b.WriteString("REDACTED")
		done, i = end, end
	}
	if done == 0 {
		return p
	}
	b.WriteString(p[done:])
	return b.String()
}

// minKeyTail is the fewest base64url bytes after "sk_" that make it a
// key's: a key's random part is 43 bytes (newKeySecret), a seed's keys may
// be shorter, and an id holding "sk_" ends sooner.
const minKeyTail = 16

// keyStartsAt reports whether a key starts at p[k]: "sk_" in any ASCII
// case, at the start of p or after a byte that is no ASCII letter or
// digit, followed by minKeyTail base64url bytes.
func keyStartsAt(p string, k int) bool {
	if k < 0 || k+len(keyPrefix)+minKeyTail > len(p) ||
		p[k]|0x20 != 's' || p[k+1]|0x20 != 'k' || p[k+2] != '_' ||
		k > 0 && isASCIIAlnum(p[k-1]) {
		return false
	}
	for _, c := range []byte(p[k+len(keyPrefix) : k+len(keyPrefix)+minKeyTail]) {
		if !inKeyAlphabet(c) {
			return false
		}
	}
	return true
}

// isASCIIAlnum reports whether c is an ASCII letter or digit.
func isASCIIAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// inKeyAlphabet reports whether c is in base64url's alphabet, a key's
// random part's.
func inKeyAlphabet(c byte) bool {
	return isASCIIAlnum(c) || c == '-' || c == '_'
}

// shownPath is the package's shownPath also replacing what the double
// knows is one of its keys (by hash), whatever the key's length or
// alphabet: a key pasted with its "sk_" anywhere (glued to an id, or not
// of the shape keyShapedSegments masks), the longest key that matches
// there first, and a segment that is a key pasted without it. It runs
// once per request (serveHTTP keeps what it returns in the request's
// reqInfo). A place is hashed only where a key's first bytes and length
// fit (st.keyLens), under the server's lock taken once, and at most
// maxKeyHashes times, so a hostile path costs about its length.
func (s *Server) shownPath(p string) string {
	p = shownPath(p)
	ix := s.st.keyLens.index()
	if ix == nil {
		return p
	}
	kc := keyCheck{s: s}
	defer kc.done()
	for k := strings.Index(p, keyPrefix); k >= 0; {
		if body := p[k+len(keyPrefix):]; ix.mayStart(body) {
			for _, n := range ix.lens {
				if n <= len(body) && kc.isKeyBody(body[:n]) {
					p = p[:k] + "REDACTED" + body[n:]
					break
				}
			}
		}
		next := strings.Index(p[k+1:], keyPrefix)
		if next < 0 {
			break
		}
		k += 1 + next
	}
	for start := 0; start < len(p); {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		if seg := p[start:end]; slices.Contains(ix.lens, len(seg)) && ix.mayStart(seg) && kc.isKeyBody(seg) {
			p = p[:start] + "REDACTED" + p[end:]
			end = start + len("REDACTED")
		}
		start = end + 1
	}
	return p
}

// maxKeyHashes bounds the hashes one path costs: a path made of a key's
// first bytes costs no more than this (a key pasted in it is found unless
// that many look-alikes of that key precede it; ids holding "sk_" cost
// nothing).
const maxKeyHashes = 256

// keyCheck looks a path's candidates up among the double's keys, taking
// the server's lock at the first and keeping it until done.
type keyCheck struct {
	s      *Server
	locked bool
	hashes int
}

// isKeyBody reports whether keyPrefix+body is one of the double's keys,
// hashing it without building that string.
func (kc *keyCheck) isKeyBody(body string) bool {
	if kc.hashes++; kc.hashes > maxKeyHashes {
		return false
	}
	if !kc.locked {
		kc.s.mu.Lock()
		kc.locked = true
	}
	return kc.s.st.keyHashes[hashKeyParts(keyPrefix, body)]
}

func (kc *keyCheck) done() {
	if kc.locked {
		kc.s.mu.Unlock()
	}
}
