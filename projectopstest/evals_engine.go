package projectopstest

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/wire"
)

// evalEngine executes eval runs on goroutines the server owns.
type evalEngine struct {
	s      *Server
	opts   evalOptions
	runner toolRunner
	// orgKeys are model provider keys stored per organization
	// (SetOrganizationModelKey); guarded by Server.mu.
	orgKeys map[string]map[string]Secret
	// dropped maps the runs dropped under WithMaxRuns to their project;
	// guarded by Server.mu.
	dropped map[string]string
	// onClock are the runs in progress under an injected clock, each with
	// its deadline on that clock (clock_server.go); guarded by Server.mu.
	onClock map[*evalRunRec]clockDeadline
}

func newEvalEngine(s *Server, o evalOptions) *evalEngine {
	return &evalEngine{s: s, opts: o.withDefaults(), runner: mcpRunner{s: s}}
}

// startRunLocked gives a new run its context (bounded by the run deadline
// and the server's life) and starts executing it once the caller unlocks.
// Call with Server.mu held, after the run is stored.
func (e *evalEngine) startRunLocked(run *evalRunRec) {
	s := e.s
	ctx, cancel := context.WithTimeout(s.ctx, e.opts.deadline)
	if fire := e.opts.fireDeadline; fire != nil {
		ctx, cancel = deadlineOn(ctx, cancel, fire)
	}
	if s.dated {
		ctx, cancel = e.deadlineOnClockLocked(ctx, cancel, run)
	}
	run.cancelFn, run.runCtx = cancel, ctx
	if !s.goBackground(func(context.Context) { e.executeRun(ctx, run) }) {
		cancel() // closed: the run never starts
		s.st.endRun(run, evals.StatusCancelled)
	}
}

// deadlineOn derives a run context that also ends, with the cause
// context.DeadlineExceeded as a passed deadline gives, once fire is closed.
// cancel releases ctx, as the returned function releases both.
func deadlineOn(ctx context.Context, cancel context.CancelFunc, fire <-chan struct{}) (context.Context, context.CancelFunc) {
	cctx, cancelCause := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-fire:
			cancelCause(context.DeadlineExceeded)
		case <-cctx.Done():
		}
	}()
	return cctx, func() { cancelCause(nil); cancel() }
}

// runEnv is what every iteration of a run shares: the tools of its servers.
type runEnv struct {
	runID, userID, projectID string
	modelKeys                map[string]Secret // the run's modelApiKeys, by provider
	tools                    []*mcp.Tool
	owner                    map[string]string // tool name → server id
	byRef                    map[string]string // a step's serverName, lower case → server id
	listErr                  error             // a server's tools could not be listed
	listErrServer            string
}

// scrubModelKeys takes the run's model API keys, and used, out of msg.
func (env *runEnv) scrubModelKeys(msg string, used Secret) string {
	keys := make([]string, 0, len(env.modelKeys)+1)
	for _, k := range env.modelKeys {
		keys = append(keys, string(k))
	}
	return wire.SecretScrubber(append(keys, string(used))...)(msg)
}

func (e *evalEngine) executeRun(ctx context.Context, run *evalRunRec) {
	s := e.s
	defer run.execCancel()
	// One MCP session per server for the whole run, as the service
	// connects a run's servers once and disconnects them when it settles.
	ctx, endSessions := s.mcp.Scope(ctx)
	defer endSessions()
	s.mu.Lock()
	if run.terminal() || run.exec == nil {
		s.mu.Unlock()
		return
	}
	run.status = evals.StatusRunning
	env := &runEnv{runID: run.id, userID: run.exec.userID, projectID: run.projectID,
		modelKeys: run.exec.modelKeys, owner: map[string]string{}, byRef: map[string]string{}}
	servers := run.servers // never mutated once stored
	iters := append([]*evalIterRec(nil), run.iters...)
	// A toolCall step names its server as the service resolves it: by id
	// first, then by the run's name for it or the saved server's name, in
	// any case; the first server to claim a name keeps it.
	type ref struct{ name, id string }
	refs := make([]ref, 0, 3*len(servers))
	for _, sv := range servers {
		refs = append(refs, ref{sv.ID, sv.ID})
	}
	for _, sv := range servers {
		refs = append(refs, ref{sv.Name, sv.ID})
		if rec := s.st.servers[sv.ID]; rec != nil {
			refs = append(refs, ref{rec.name, sv.ID})
		}
	}
	s.mu.Unlock()
	for _, r := range refs {
		if k := strings.ToLower(strings.TrimSpace(r.name)); k != "" {
			if _, taken := env.byRef[k]; !taken {
				env.byRef[k] = r.id
			}
		}
	}

	for _, sv := range servers {
		tools, err := e.runner.Tools(ctx, env.userID, env.projectID, sv.ID)
		if err != nil {
			if ctx.Err() != nil {
				// The run's deadline (or the server's close) cut the
				// listing short: that, not the server, settles the run,
				// so it ends timed_out rather than failed.
				break
			}
			// Decided under s.mu with the deadline read there too: a
			// cancel settling the run in between must see threw exactly
			// when the executor would settle it failed.
			s.mu.Lock()
			cut := run.deadlinePassed()
			if !cut && env.listErr == nil {
				env.listErr, env.listErrServer = err, sv.ID
				run.threw = true
			}
			s.mu.Unlock()
			if cut {
				break
			}
			continue
		}
		for _, t := range tools {
			if _, dup := env.owner[t.Name]; !dup {
				env.owner[t.Name] = sv.ID
				env.tools = append(env.tools, t)
			}
		}
	}

	work := make(chan *evalIterRec)
	var wg sync.WaitGroup
	for range min(e.opts.parallelism, len(iters)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range work {
				e.executeIteration(ctx, env, run, it)
			}
		}()
	}
	for _, it := range iters {
		if ctx.Err() != nil {
			break
		}
		work <- it
	}
	close(work)
	wg.Wait()
	e.finishRun(ctx, run)
}

// deadlinePassed reports whether the run's deadline has fired, whether or
// not its executor has noticed yet.
func (r *evalRunRec) deadlinePassed() bool {
	return r.runCtx != nil && errors.Is(context.Cause(r.runCtx), context.DeadlineExceeded)
}

// executorStatus is the terminal status the executor gives run once its
// context ctx has ended as it did, or the run ran to its end: failed when
// a server's tools could not be listed (threw), as the service's runner
// throws then (the double still reports each iteration's setup failure);
// else timed_out past the deadline (unfinished iterations cancelled);
// cancelled when the server is closing; else completed, whatever its
// iterations' verdicts and statuses. A cancel in the deadline window
// settles with it too, so it never changes the run's end. Call with
// Server.mu held.
func (r *evalRunRec) executorStatus(ctx context.Context) evals.Status {
	switch {
	case r.threw:
		return evals.StatusFailed
	case errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return evals.StatusTimedOut
	case ctx.Err() != nil: // the server is closing
		return evals.StatusCancelled
	}
	return evals.StatusCompleted
}

// execCancel releases the run's context; safe after exec was cleared.
func (r *evalRunRec) execCancel() {
	if c := r.cancelFn; c != nil {
		c()
	}
}

// finishRun stores the run's terminal status (executorStatus) unless
// cancel got there first. Pass criteria decide the result.
func (e *evalEngine) finishRun(ctx context.Context, run *evalRunRec) {
	s := e.s
	s.mu.Lock()
	if run.terminal() {
		s.mu.Unlock()
		return
	}
	if s.dated {
		// The run's own hook or model may have stepped the injected clock
		// past its deadline: it is timed out, not completed.
		e.passDeadlinesLocked(s.now())
	}
	finished := e.settleLocked(run, run.executorStatus(ctx))
	s.mu.Unlock()
	if finished != nil {
		finished()
	}
}

// settleLocked makes run, not yet terminal, terminal with status: its
// unfinished iterations are cancelled (by the deadline when timed_out; one
// still executing ran until now, and what it finishes later is not
// stored). It returns the RunFinished call to make once Server.mu is
// released, or nil.
func (e *evalEngine) settleLocked(run *evalRunRec, status evals.Status) func() {
	for _, it := range run.iters {
		if it.status == evals.StatusRunning && !it.startedAt.IsZero() {
			it.duration = e.s.now().Sub(it.startedAt)
		}
		if it.status == evals.StatusPending || it.status == evals.StatusRunning {
			it.status = evals.StatusCancelled
			if status == evals.StatusTimedOut && it.errText == "" {
				it.errText = "run deadline exceeded"
			}
		}
	}
	e.s.st.endRun(run, status)
	if hook := e.opts.hooks.RunFinished; hook != nil {
		id := run.id
		return func() { hook(id, status) }
	}
	return nil
}

// endRun makes run terminal with status and computes its result: it
// passes when its pass rate reaches the pass criteria (100% by default).
func (st *state) endRun(run *evalRunRec, status evals.Status) {
	run.status, run.completedAt = status, st.now()
	run.result = evals.ResultFailed
	min := 100.0
	if pc := run.passCriteria; pc != nil {
		min = pc.MinimumPassRate
	}
	sum := run.summary()
	if status == evals.StatusCompleted && sum.Total > 0 && sum.PassRate*100 >= min-1e-9 {
		run.result = evals.ResultPassed
	}
	if run.exec != nil {
		run.exec = nil
	}
}
