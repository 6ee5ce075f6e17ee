package projectopstest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/builds"

	"github.com/projectops/projectops-go/environments"
)

// startBuildLocked records a queued build of e's current Dockerfile. The

// builder runs environment builds on goroutines the server owns and
// provisions the computers booted from them.
type builder struct{ s *Server }

// caller runs it with runBuild after unlocking.
func (bd *builder) startBuildLocked(e *envRec) (*buildRec, context.Context) {
	s := bd.s
	es := s.st.envStore()
	id, _ := s.st.newID("bld", "") // cannot fail without a wanted id
	b := &buildRec{id: id, envID: e.id, provider: s.envOpt.provider, dockerfile: e.dockerfile,
		contentHash: e.contentHash, status: environments.BuildQueued, createdAt: s.now(),
		ord: s.st.nextOrd(), digests: []string{}}
	for _, prev := range e.builds {
		if prev.status == environments.BuildReady && prev.contentHash == b.contentHash && prev.provider == b.provider {
			b.reused = true
		}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	b.cancel = cancel
	b.log = append(b.log, fmt.Sprintf("#0 build %s queued for %s (Dockerfile %s)", id, b.provider, shortHash(b.contentHash)))
	e.builds = append(e.builds, b)
	es.builds[id] = b
	return b, ctx
}

// runBuild does a build's work on a goroutine the server owns: parse the
// Dockerfile snapshot, resolve the base images, "run" each instruction, and
// finish ready or failed. Every step first passes the build hook and the
// step delay; a step whose context ended (server closed, environment
// deleted) stops without writing anything.
func (bd *builder) runBuild(ctx context.Context, projectID string, b *buildRec) {
	s := bd.s
	if !s.goBackground(func(context.Context) { bd.buildWork(ctx, projectID, b) }) {
		b.cancel()
	}
}

func (bd *builder) buildWork(ctx context.Context, projectID string, b *buildRec) {
	s := bd.s
	defer b.cancel()
	step := BuildStep{ProjectID: projectID, EnvironmentID: b.envID, BuildID: b.id}
	if err := bd.buildStep(ctx, step); err != nil {
		bd.failBuild(ctx, b, err)
		return
	}
	// Saved Dockerfiles were checked (checkDockerfile); a parse error
	// still fails the build rather than the server.
	instrs, perr := builds.Parse(b.dockerfile)
	if !bd.updateBuild(ctx, b, func() { b.begin(s.now()) }) {
		return
	}
	if perr != nil {
		bd.failBuild(ctx, b, perr)
		return
	}
	step.Total = len(instrs)
	for i, in := range instrs {
		step.Index, step.Instruction = i+1, in.Cmd+" "+in.Args
		if err := bd.buildStep(ctx, step); err != nil {
			bd.failBuild(ctx, b, err)
			return
		}
		var runErr error
		if !bd.updateBuild(ctx, b, func() { runErr = b.applyInstr(i, len(instrs), in) }) {
			return
		}
		if runErr != nil {
			bd.failBuild(ctx, b, runErr)
			return
		}
	}
	bd.updateBuild(ctx, b, func() { b.ready(len(instrs), s.now()) })
}

// applyInstr logs instruction i of n and records a FROM's digest; a failing
// RUN returns its error.
func (b *buildRec) applyInstr(i, n int, in builds.Instr) error {
	num := "#" + strconv.Itoa(i+1)
	b.log = append(b.log, fmt.Sprintf("%s [%d/%d] %s %s", num, i+1, n, in.Cmd, builds.Clip(in.Args)))
	switch {
	case in.Cmd == "FROM" && in.Digest != "":
		b.digests = append(b.digests, in.Digest)
		b.log = append(b.log, num+" resolve "+clipRunes(in.Base, maxRefLogRunes))
	case in.Cmd == "FROM":
		b.log = append(b.log, num+" from build stage "+clipRunes(in.Args, maxRefLogRunes))
	default:
		if err := builds.RunExit(in); err != nil {
			return &builds.Error{Line: in.Line, Msg: err.Error()}
		}
		b.log = append(b.log, num+" DONE")
	}
	return nil
}

// begin moves b to building.
func (b *buildRec) begin(now time.Time) {
	b.status = environments.BuildBuilding
	b.startedAt = now
	b.providerBuildID = b.provider + "-" + strings.TrimPrefix(b.id, "bld_")
	b.log = append(b.log, fmt.Sprintf("#0 building on %s as %s", b.provider, b.providerBuildID))
	if b.reused {
		b.log = append(b.log, "#0 reusing cached layers of an identical ready build")
	}
}

// ready ends b ready after n instructions.
func (b *buildRec) ready(n int, now time.Time) {
	b.status = environments.BuildReady
	b.finishedAt = now
	b.log = append(b.log, fmt.Sprintf("#%d exporting image %s/%s", n+1, b.provider, b.providerBuildID), "build ready")
	b.cancel = nil
}

// fail ends b failed with err.
func (b *buildRec) fail(err error, now time.Time) {
	b.status = environments.BuildFailed
	b.errMsg = err.Error()
	if b.startedAt.IsZero() {
		b.startedAt = now
	}
	b.finishedAt = now
	// The log's line is cut (the record's error has it whole), so the
	// preview, the log's last 4 KiB, always shows why the build failed.
	b.log = append(b.log, "ERROR: "+clipRunes(b.errMsg, maxErrorLogRunes), "build failed")
	b.cancel = nil
}

// buildNowLocked runs a whole build of e synchronously (seeding): no hook,
// no delay, no goroutine.
func (bd *builder) buildNowLocked(e *envRec) *buildRec {
	s := bd.s
	b, _ := bd.startBuildLocked(e)
	defer b.cancel()
	now := s.now()
	b.begin(now)
	instrs, perr := builds.Parse(b.dockerfile)
	if perr != nil {
		b.fail(perr, now)
		return b
	}
	for i, in := range instrs {
		if err := b.applyInstr(i, len(instrs), in); err != nil {
			b.fail(err, now)
			return b
		}
	}
	b.ready(len(instrs), now)
	return b
}

// buildStep runs the hook and the pacing delay before a step.
func (bd *builder) buildStep(ctx context.Context, step BuildStep) error {
	s := bd.s
	if h := s.envOpt.hook; h != nil {
		if err := h(ctx, step); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("provider error: %w", err)
		}
	}
	if d := s.envOpt.stepDelay; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
	return ctx.Err()
}

// updateBuild applies f to b under the lock unless the build was stopped;
// it reports whether f ran.
func (bd *builder) updateBuild(ctx context.Context, b *buildRec, f func()) bool {
	s := bd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil || s.st.envStore().builds[b.id] != b {
		return false
	}
	f()
	return true
}

// failBuild ends b failed with err as its error and last log line, unless
// the build was stopped (err is then the context's).
func (bd *builder) failBuild(ctx context.Context, b *buildRec, err error) {
	s := bd.s
	bd.updateBuild(ctx, b, func() { b.fail(err, s.now()) })
}

// Lines of the build log that echo what a user wrote are cut, so that
// every line fits the preview: an image reference (a whole one, digest
// included, is far shorter) and a failure's message (at four bytes a rune
// at most, with "build failed" after it, it fits).
const (
	maxRefLogRunes   = 256
	maxErrorLogRunes = 900
)

// clipRunes cuts s to n runes, marking the cut.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s // n bytes are at most n runes
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// logPreview is the capped, ANSI-stripped tail of a build log
// (BuildLogPreviewCap bytes), as the service's is.
func logPreview(lines []string) string {
	full := builds.StripANSI(strings.Join(lines, "\n"))
	if len(full) <= BuildLogPreviewCap {
		return full
	}
	const marker = "[earlier log lines truncated]\n"
	tail := full[len(full)-(BuildLogPreviewCap-len(marker)):]
	if i := strings.IndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	return marker + tail
}

func shortHash(h string) string {
	if len(h) > 19 {
		return h[:19]
	}
	return h
}
