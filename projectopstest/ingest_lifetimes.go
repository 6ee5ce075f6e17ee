package projectopstest

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// ArtifactTTL is how long a double with WithMaxRuns keeps an uploaded
// artifact that no eval run names: one the reporter uploaded but never
// reported (its report failed, or it gave up). The service's reporter
// uploads a widget's HTML just before it sends the result naming it, so an
// hour is ample; an artifact a stored run names (a result's
// widgetHtmlBlobId, or its id in the notes the run was created with, where
// projectops report --upload names the raw file) lives as long as the
// last such run (WithMaxRuns drops it with that run). Without WithMaxRuns
// the double keeps every artifact, as the service's storage does: a
// resumed report may name a blob it uploaded long before, and a test's
// clock may jump hours.
const ArtifactTTL = time.Hour

// sweepIngestLocked forgets the upload URLs that can only answer 404 from
// now on and, under WithMaxRuns, the artifacts past ArtifactTTL that no
// run names. It runs at most once per UploadURLTTL of the server's clock.
// Each URL record is visited by a few sweeps before it is forgotten, and
// each upload to a double bounded by WithMaxRuns once, at its ArtifactTTL,
// whether a run names it by then or not (released only if none does; an
// unbounded double queues none), so a mint or an upload costs O(1)
// amortized. Answers do not depend on when it runs: liveArtifact releases
// a lapsed artifact when it is read.
// Call with Server.mu held.
func (st *state) sweepIngestLocked() {
	now := st.now()
	is := &st.ingest
	if now.Before(is.nextSweep) {
		return
	}
	is.nextSweep = now.Add(UploadURLTTL)
	for token, up := range is.uploads {
		if up.forgotten(now) {
			delete(is.uploads, token)
		}
	}
	n := 0
	for _, u := range is.unnamed {
		if now.Before(u.createdAt.Add(ArtifactTTL)) {
			break // the rest were uploaded later
		}
		if a := is.artifacts[u.id]; a != nil && is.lapsed(a, now) {
			st.releaseArtifact(u.id)
		}
		n++
	}
	is.unnamed = slices.Delete(is.unnamed, 0, n)
}

// addArtifact stores an uploaded artifact; under WithMaxRuns it queues it
// to lapse unless a run names it in time.
func (st *state) addArtifact(a *artifactRec) {
	is := &st.ingest
	if is.artifacts == nil {
		is.artifacts = map[string]*artifactRec{}
	}
	is.artifacts[a.id] = a
	if is.bounded {
		is.unnamed = append(is.unnamed, unnamedArtifact{id: a.id, createdAt: a.createdAt})
	}
}

// forgotten reports whether a minted URL is past the time the double
// answers it 403: a second UploadURLTTL after its expiry, after which it
// is forgotten and answers 404 as an unknown URL does.
func (up *uploadRec) forgotten(now time.Time) bool {
	return !now.Before(up.expires.Add(UploadURLTTL))
}

// lapsed reports whether an artifact no run names has outlived
// ArtifactTTL on a double bounded by WithMaxRuns.
func (is *ingestStore) lapsed(a *artifactRec, now time.Time) bool {
	return is.bounded && a.refs == 0 && !now.Before(a.createdAt.Add(ArtifactTTL))
}

// liveArtifact is the stored artifact id, or nil when there is none or it
// has lapsed (released here, so the answer never waits on a sweep).
func (st *state) liveArtifact(id string) *artifactRec {
	a := st.ingest.artifacts[id]
	if a != nil && st.ingest.lapsed(a, st.now()) {
		st.releaseArtifact(id)
		return nil
	}
	return a
}

// holdArtifacts records that run names the artifacts ids (each already
// checked by checkBlobs), so they live as long as the run.
func (st *state) holdArtifacts(run *evalRunRec, ids []string) {
	for _, id := range ids {
		if _, ok := run.ext.blobs[id]; ok {
			continue
		}
		a := st.ingest.artifacts[id]
		if a == nil {
			continue
		}
		if run.ext.blobs == nil {
			run.ext.blobs = map[string]struct{}{}
		}
		run.ext.blobs[id] = struct{}{}
		a.refs++
	}
}

// notedArtifacts are the artifacts of the project whose ids a run's notes
// mention: projectops report --upload names the raw file it uploads only
// there ("junit artifact: stg_3"), and the run keeps that file as it keeps
// the widget HTML its results name.
func (st *state) notedArtifacts(projectID, notes string) []string {
	var ids []string
	for _, w := range strings.FieldsFunc(notes, func(r rune) bool {
		return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if a := st.liveArtifact(w); a != nil && a.projectID == projectID {
			ids = append(ids, w)
		}
	}
	return ids
}

// releaseRunArtifacts forgets that a dropped run names its artifacts,
// releasing those no other run names.
func (st *state) releaseRunArtifacts(run *evalRunRec) {
	for id := range run.ext.blobs {
		if a := st.ingest.artifacts[id]; a != nil {
			if a.refs--; a.refs <= 0 {
				st.releaseArtifact(id)
			}
		}
	}
	run.ext.blobs = nil
}

// releaseArtifact forgets an artifact and frees its id's slot in the id
// set (generated ids are never handed out twice, so no later artifact
// takes it).
func (st *state) releaseArtifact(id string) {
	delete(st.ingest.artifacts, id)
	delete(st.ids, id)
}
