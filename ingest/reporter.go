package ingest

import (
	"context"
	"fmt"
	"hash/maphash"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
)

// Reporter streams results into one run: a single report call when the
// whole run, its fields included, fits one chunk, else runs/start, chunks of runs/iterations and
// runs/finalize. Memory is the chunk size × (concurrency + 1) whatever the
// run's length, plus the bodies of chunks already answered that the
// HTTP transport still holds (net/http's HTTP/1 may still be writing one
// the service answered early; it lets go when the write ends or the
// connection drops), plus at most about 40 bytes per distinct title (and
// external case id) among the results recorded without an
// ExternalIterationID (see Record). Its methods are safe for concurrent
// use. A Reporter not made by NewReporter (a zero Reporter) sends nothing:
// Record, Flush, Close and Err return a VALIDATION_ERROR ("unconfigured
// reporter") at once, and ExternalRunID returns "".
type Reporter struct {
	svc *Service
	opt *ReporterOptions // a pointer: fmt prints it as an address, never its secrets
	log *slog.Logger
	enc *encoder

	// mu serialises Record, Flush and Close. A channel, not a sync.Mutex,
	// so that a Record or Flush waiting behind a call stuck on a stalled
	// upload can give up when its context ends (see lock).
	mu      chan struct{}
	buf     []byte // the current chunk's results, comma-separated
	n       int    // results in buf
	seq     int    // chunks cut
	runID   string
	started bool
	done    bool // the run was already complete at start: send nothing
	closed  bool
	closing atomic.Bool // set by the first Close, before it waits for mu
	// slots holds a token per chunk upload in flight (cap Concurrency),
	// uploads counts their goroutines. Waiting for a slot watches a
	// context, which errgroup.Group.Go (SetLimit) would not.
	slots   chan struct{}
	uploads sync.WaitGroup
	pending *pendingChunk // cut and spooled, waiting for a slot (see dispatch)
	// upCtx carries the chunk uploads: detached from the Record call that
	// cut the chunk (whose context may end as soon as Record returns), and
	// ended by upCancel when a Flush or Close context ends first.
	upCtx    context.Context
	upCancel context.CancelFunc
	spool    *spool
	// occ counts the occurrences of each identity (title, external case
	// id) recorded without an id, by hash: ~20-40 bytes an identity, kept
	// for the run's life. Forgetting one would give its next occurrence
	// the first one's id, a row the service skips; a sequence number
	// instead would give a result another id when a retried step records
	// in another order (parallel tests), storing some twice and skipping
	// others.
	occ  map[uint64]int32
	seed maphash.Seed

	passed, failed, truncated int
	recorded                  atomic.Int64
	chunks                    atomic.Int64 // r.seq, for Progress

	failMu    sync.Mutex
	failure   error
	sent      atomic.Int64
	inflight  atomic.Int32
	throttled atomic.Bool
	serial    sync.Mutex // held by each upload while throttled
	bodies    sync.Pool
}

// NewReporter returns a Reporter for svc (Client.Ingest, or NewService's);
// a nil or zero svc is a VALIDATION_ERROR.
func NewReporter(svc *Service, opt ReporterOptions) (*Reporter, error) {
	if svc == nil {
		return nil, apierr.Invalid("service", "ingest.NewReporter: nil service")
	}
	if svc.tr().HTTPClient() == nil {
		// A zero Service: every upload would fail, and the results go to
		// a spool whose Resume could not send them either.
		return nil, apierr.Invalid("service", "ingest.NewReporter: unconfigured client: build the service with projectops.NewClient or ingest.NewService")
	}
	// A copy: the reporter applies them for as long as it lives, and the
	// caller may reuse its slice (and must not undo the check below).
	opt.RequestOptions = slices.Clone(opt.RequestOptions)
	if c, err := option.ForCall(opt.RequestOptions); err != nil {
		return nil, err
	} else if c.IdempotencyKey != "" || c.Response != nil {
		return nil, apierr.Invalid("requestOptions", "WithIdempotencyKey and WithResponseInto name one call: a reporter sends many")
	}
	if opt.ChunkSize < 0 || opt.ChunkBytes < 0 || opt.Concurrency < 0 {
		return nil, apierr.Invalid("options", "chunk size, chunk bytes and concurrency must not be negative")
	}
	if opt.ChunkBytes != 0 && opt.ChunkBytes < 4*chunkOverhead {
		return nil, apierr.Invalid("chunkBytes", fmt.Sprintf("ChunkBytes must be at least %d", 4*chunkOverhead))
	}
	if opt.ChunkBytes > MaxBodyBytes {
		return nil, apierr.Invalid("chunkBytes", "ChunkBytes must not exceed the service's 1 MiB body limit (MaxBodyBytes)")
	}
	opt.Project = orStr(opt.Project, DefaultProject)
	opt.ChunkSize = orInt(opt.ChunkSize, DefaultChunkSize)
	opt.ChunkBytes = orInt(opt.ChunkBytes, DefaultChunkBytes)
	opt.Concurrency = orInt(opt.Concurrency, 2)
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	opt.Run.ExternalRunID = ExternalRunID(opt.Run.ExternalRunID, opt.Getenv)
	// Refusals the service would make of every request (the external run
	// id from the options or the environment): caught here, the results
	// are not spooled for a Resume that can never send them.
	if err := opt.Run.check(); err != nil {
		return nil, err
	}
	if opt.Run.CI == nil {
		opt.Run.CI = DetectCI(opt.Getenv)
	}
	if opt.SpoolDir == "" {
		opt.SpoolDir = DefaultSpoolDir(opt.Getenv)
	}
	run, err := opt.Run.withHostConfigHash()
	if err != nil {
		return nil, err
	}
	opt.Run = run
	r := &Reporter{svc: svc, opt: &opt, log: opt.Logger, occ: map[uint64]int32{}, seed: maphash.MakeSeed(),
		mu: make(chan struct{}, 1), slots: make(chan struct{}, opt.Concurrency)}
	r.upCtx, r.upCancel = context.WithCancel(context.Background())
	if r.log == nil {
		r.log = slog.Default()
	}
	r.enc = newEncoder(clientRedactor(svc.redact).withValues(opt.Run.secrets()...), serialized(opt.Redact), opt.ChunkBytes)
	return r, nil
}

// ExternalRunID returns the run's external id; "" for a Reporter not made
// by NewReporter, which has no run.
func (r *Reporter) ExternalRunID() string {
	if !r.configured() {
		return ""
	}
	return r.opt.Run.ExternalRunID
}

// configured reports whether r was made by NewReporter. A zero Reporter
// has no lock channel: waiting on it would block forever, and Close's
// AfterFunc of its nil cancel func kills the process.
func (r *Reporter) configured() bool { return r != nil && r.mu != nil }

// errUnconfigured is what every method of a Reporter not made by
// NewReporter returns, as a zero service's calls return "unconfigured
// client".
func errUnconfigured() error {
	return apierr.Invalid("reporter", "unconfigured reporter: build it with ingest.NewReporter")
}

// Record adds one finished result. A result the service would refuse (a
// blank CaseTitle, a CaseID that differs from its ExternalCaseID, an
// ExternalIterationID over 256 characters, ...) is a VALIDATION_ERROR sent
// nowhere; without ExternalIterationID it gets a
// deterministic one (from its title, external case id and occurrence). A
// result that would not fit a chunk has its widget HTML uploaded through
// an upload URL, then its largest text cut. A failed upload does not stop
// the run: the HTML not uploaded stays inline when the result then fits
// (what was uploaded before the failure may have made room), else it is
// dropped, with a warning, the snapshots otherwise whole, and the result
// cut further only if still too large. Record may block while
// Concurrency chunks are in flight (that is what bounds memory, with the
// bodies the transport still holds; see Reporter), and
// behind another call to Record, Flush or Close; it waits only while ctx
// lasts. When ctx ends first, Record returns ctx's error and refuses res:
// it is neither recorded nor spooled (the next occurrence without an id
// gets the id it would have had), so the caller can record it again or
// count it as lost. What was recorded earlier is kept: a chunk cut before
// the wait is already spooled, and is sent first by the next call (or left
// in the spool by Close). A Close whose context ends cancels the uploads,
// which ends such a wait too (res is then recorded and spooled). A chunk's
// upload does not end with ctx; Flush and Close bound the uploads instead.
func (r *Reporter) Record(ctx context.Context, res Result) error {
	if ctx == nil {
		return apierr.NilContext()
	}
	if !r.configured() {
		return errUnconfigured()
	}
	if err := res.check(); err != nil {
		return err
	}
	if err := r.lock(ctx); err != nil {
		return err
	}
	defer r.unlock()
	if r.closed {
		return ErrReporterClosed
	}
	// A chunk whose wait for a slot an earlier call gave up goes first:
	// chunks go in order, and memory stays bounded.
	if err := r.dispatch(ctx); err != nil {
		return err
	}
	var h uint64
	derived := res.ExternalIterationID == ""
	if derived {
		h = maphash.String(r.seed, res.CaseTitle+"\x00"+res.ExternalCaseID)
		r.occ[h]++
		res.ExternalIterationID = IterationID(int(r.occ[h]), res.CaseTitle, res.ExternalCaseID)
	}
	b, cut, err := r.enc.encode(&res)
	if err == nil && cut && hasWidgetHTML(&res) {
		// Widget HTML goes through an upload URL rather than being cut.
		var uploaded bool
		uctx, stop := r.bounded(ctx)
		uploaded, err = r.uploadWidgets(uctx, &res)
		stop()
		if uploaded && err == nil {
			b, cut, err = r.enc.encode(&res)
		} else if err != nil {
			// Not a reporting failure: the run goes on. What was uploaded
			// before the failure may have made room for the rest inline;
			// else the result is cut to fit: its widget HTML dropped first
			// (the snapshots keep their other fields), then, only if it
			// still does not fit, its largest text. Only HTML actually
			// dropped is warned of.
			upErr := err
			b, cut, err = r.enc.encode(&res)
			if r.enc.htmlDropped {
				r.log.WarnContext(ctx, "projectops: ingest: widget upload failed; widget HTML dropped from the result to fit the chunk",
					"case", r.shownTitle(res.CaseTitle), "error", upErr)
			} else {
				r.log.DebugContext(ctx, "projectops: ingest: widget upload failed; the result fits with its widget HTML inline",
					"case", r.shownTitle(res.CaseTitle), "error", upErr)
			}
		}
	}
	if err != nil {
		return unencodable(&res, r.shownTitle(res.CaseTitle), err)
	}
	if r.n > 0 && (r.n >= r.opt.ChunkSize || len(r.buf)+1+len(b) > r.opt.ChunkBytes-chunkOverhead) {
		if err := r.cut(ctx); err != nil {
			// Refused: undo what res changed, so a retry is the same call.
			if derived {
				r.occ[h]--
			}
			return err
		}
	}
	if cut {
		r.truncated++
	}
	if r.n > 0 {
		r.buf = append(r.buf, ',')
	}
	r.buf = append(r.buf, b...)
	r.n++
	r.recorded.Add(1)
	if res.Passed {
		r.passed++
	} else {
		r.failed++
	}
	return r.strict(nil)
}

// Flush sends everything recorded so far and waits for it to be stored.
// It switches the run to the chunked flow. If ctx ends first (while Flush
// waits behind another call, for an upload slot or for the uploads),
// Flush returns ctx's error. Once Flush has begun, that abandons the
// uploads in flight and any later ones (a reporting failure: Close keeps
// their results in the spool for Resume); results not yet cut stay
// recorded and go with the next chunk.
func (r *Reporter) Flush(ctx context.Context) error {
	if ctx == nil {
		return apierr.NilContext()
	}
	if !r.configured() {
		return errUnconfigured()
	}
	if err := r.lock(ctx); err != nil {
		return err
	}
	defer r.unlock()
	if r.closed {
		return ErrReporterClosed
	}
	// Set before the cut, so that ctx bounds its wait for a slot too.
	stop := context.AfterFunc(ctx, r.upCancel)
	err := r.dispatch(ctx)
	if err == nil && r.n > 0 {
		err = r.cut(ctx)
	} else if err == nil && !r.started {
		r.start(ctx)
	}
	r.uploads.Wait()
	if !stop() && err == nil {
		err = ctx.Err() // the uploads were abandoned
	}
	return r.strict(err)
}

// Err returns the first reporting failure, whatever Strict says; for a
// Reporter not made by NewReporter, the VALIDATION_ERROR its other methods
// return.
func (r *Reporter) Err() error {
	if !r.configured() {
		return errUnconfigured()
	}
	r.failMu.Lock()
	defer r.failMu.Unlock()
	return r.failure
}

func (r *Reporter) strict(err error) error {
	if err != nil {
		return err
	}
	if r.opt.Strict {
		if f := r.Err(); f != nil {
			return r.wrap(f)
		}
	}
	return nil
}

func (r *Reporter) wrap(err error) error {
	re := &ReportingError{Err: err}
	if r.spool != nil {
		re.SpoolPath = r.spool.path
	}
	return re
}

// lock takes mu, unless ctx ends first. A free lock is taken even when
// ctx has ended: ctx bounds waiting, nothing else.
func (r *Reporter) lock(ctx context.Context) error {
	select {
	case r.mu <- struct{}{}:
		return nil
	default:
	}
	select {
	case r.mu <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Reporter) unlock() { <-r.mu }

func orStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func orInt(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// shownTitle is a result's title as an error or a log line may show it:
// the built-in redaction of the title sent and spooled (encode has already
// applied the Redact hook to it).
func (r *Reporter) shownTitle(title string) string { return string(r.enc.redact.text(title)) }

func hasWidgetHTML(res *Result) bool {
	for _, s := range res.WidgetSnapshots {
		if s.WidgetHTML != "" {
			return true
		}
	}
	return false
}

// callCtx carries ReporterOptions.RequestOptions to a request.
func (r *Reporter) callCtx(ctx context.Context) context.Context {
	return transport.WithOptions(ctx, r.opt.RequestOptions)
}
