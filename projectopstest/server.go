package projectopstest

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/projectops/projectops-go/projectopstest/internal/hostcfg"
	"github.com/projectops/projectops-go/projectopstest/internal/inproc"
	"github.com/projectops/projectops-go/projectopstest/internal/keylimit"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpops"
)

// InProcessURL is the base URL reported by URL before Start: requests sent
// through Transport or Client reach the double whatever their host.
const InProcessURL = "http://projectops.test/api/v1"

// ErrServerClosed is returned by the in-process transport and Start once
// Close has been called (the transport's is wrapped by backoff.Permanent,
// so the SDK does not retry it; errors.Is finds it). The Add helpers keep working on the store.
var ErrServerClosed = errors.New("projectopstest: server closed")

// Server is an in-memory, stateful Project Operations API. Create one with
// NewServer or NewTestServer; it is safe for concurrent use.
type Server struct {
	log *slog.Logger
	now func() time.Time
	// dated: a WithClock clock dates API answers (a Date header of its
	// own, which net/http keeps), as clients judge the service's time by
	// Date (a tunnel host's renewal does).
	dated   bool
	catalog *hostcfg.Cache // the gateway's live-catalog cache

	// ctx is cancelled by Close; every goroutine the server owns watches it.
	ctx    context.Context
	cancel context.CancelFunc

	life       sync.Mutex // guards closed, httpSrv, baseURL and the WaitGroup Adds
	closed     bool
	closeBegun chan struct{} // closed as Close begins: a control API wait ends on it
	httpSrv    *http.Server
	conn       connLimits // the loopback listener's limits (listen_limits.go)
	origins    []string   // the browser origins served (cors.go)
	control    bool       // WithControlAPI: the control API is served (control.go)
	baseURL    string
	inflight   sync.WaitGroup // request goroutines and the listener
	served     sync.WaitGroup // in-process requests being served: Close gives them ShutdownGrace too
	streams    loopStreams    // loopback streams, which Close ends once answered (listen_streams.go)
	bg         workGroup      // background work (Wait, which may run during an Add)

	// controlWaiters counts the control API's POST waits now in waitUntil,
	// so a test can tell its own server's wait is pending.
	controlWaiters atomic.Int32
	// loopbackOnly is set by StartAt on a loopback address: the control
	// API then refuses a request on the listener naming another Host
	// (DNS rebinding, control.go). Atomic since an in-process control
	// request may run while StartAt sets it.
	loopbackOnly atomic.Bool

	rt        *router
	handler   http.Handler
	transport *inproc.Transport
	reqSeq    atomic.Uint64

	pool    workerPool
	envOpt  envOptions
	limiter *keylimit.Limiter
	faults  faultSet
	reqlog  requestLog
	ev      *evalEngine   // executes eval runs (evals_engine.go)
	bld     *builder      // builds environments and provisions computers (env_build.go)
	mcp     *mcpops.Layer // saved servers' live MCP sessions and OAuth tokens

	// mu guards the store: one lock for all state, as in pstest.
	mu  sync.Mutex
	st  state
	def Workspace
}

// NewServer returns a running in-process server. Without WithSeed it holds
// the default workspace (see Default); nothing listens on a socket until
// Start. Close it when done.
func NewServer(opts ...Option) (*Server, error) {
	o := defaultOptions()
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		log: o.logger, now: o.clock, dated: o.clockSet,
		ctx: ctx, cancel: cancel, closeBegun: make(chan struct{}), conn: o.conn.withDefaults(), origins: o.origins, control: o.control,
		pool:    newWorkerPool(),
		envOpt:  o.envDefaults(),
		limiter: keylimit.New(o.perMinute, o.burst),
		faults:  faultSet{byRoute: map[string]*faultEntry{}},
		st:      newState(),
	}
	s.st.ingest.discard = o.ingestDiscard
	s.st.ingest.bounded = o.evals.maxRuns > 0
	s.st.now = o.clock
	s.ev = newEvalEngine(s, o.evals)
	s.bld = &builder{s: s}
	s.catalog = hostcfg.NewCache(ctx, o.catalogSource, o.clock, o.logger)
	s.catalog.Enter, s.catalog.Leave = s.enter, s.inflight.Done // Close waits for a live refresh
	s.mcp = newMCPLayer(s, o.mcp)
	s.buildMux()
	if o.contractTB != nil {
		s.handler = contractChecked(o.contractTB, s.handler)
	}
	if s.control {
		s.handler = s.controlled(s.handler) // outside the contract check and the request log
	}
	s.handler = resolvingDots(s.handler) // outermost: every layer sees the path the service routes
	// Permanent: a client's retries of a closed server's calls would only wait.
	s.transport = &inproc.Transport{Host: inprocHost{s}, Closed: backoff.Permanent(ErrServerClosed)}
	var err error
	if o.seed != nil {
		err = s.applySeed(o.seed)
	} else {
		err = s.seedDefault()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

// NewTestServer is NewServer for tests: it fails tb on error and closes the
// server when the test ends.
func NewTestServer(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	if _, isTest := tb.(*testing.T); checkEveryResponse && isTest {
		// Benchmarks measure the double as it is used: unchecked.
		opts = append(opts, WithContractCheck(tb))
	}
	s, err := NewServer(opts...)
	if err != nil {
		tb.Fatalf("projectopstest.NewServer: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("projectopstest: Close: %v", err)
		}
	})
	return s
}

// Handler serves the API under /api/v1, for mounting on any server, and
// with WithControlAPI the control API under ControlPath too. Mount it at
// the root (it reads the whole path). ControlURL, like URL, then names the
// in-process address (or Start's), not yours: the control API is at your
// server's origin followed by ControlPath.
func (s *Server) Handler() http.Handler { return s.handler }

// Transport returns an http.RoundTripper that serves requests in process,
// without sockets, whatever the request's host.
func (s *Server) Transport() http.RoundTripper { return s.transport }

// Client returns an *http.Client using Transport.
func (s *Server) Client() *http.Client { return &http.Client{Transport: s.transport} }

// URL is the base URL including /api/v1: InProcessURL until Start, then the
// loopback address. The in-process URL is reached only through Transport,
// Client or NewClient: a client of your own needs
// option.WithTransport(srv.Transport()) with it (without one, its call
// fails on a DNS lookup of projectops.test, which may take seconds; the
// error then says how to reach the double); call Start first for a URL
// that any client, curl or another process reaches.
func (s *Server) URL() string {
	s.life.Lock()
	defer s.life.Unlock()
	if s.baseURL != "" {
		return s.baseURL
	}
	return InProcessURL
}

// String identifies the server by its base URL only, so printing a Server
// never dumps its store.
func (s *Server) String() string { return "projectopstest.Server(" + s.URL() + ")" }

// GoString is String, for %#v.
func (s *Server) GoString() string { return s.String() }

// Wait blocks until the server's background work (asynchronous operations
// started by requests) has finished. Under WithClock it times out the runs
// whose deadline the injected clock passed, and closes the kept MCP
// sessions idle for the idle timeout on it (see Clock), as it begins and
// again every few milliseconds while it waits, so a step made while it
// waits (by a hook, or another goroutine) is seen too.
func (s *Server) Wait() { s.waitUntil(nil, nil) }

// waitUntil is Wait ended early by stop or quit (nil for never), so that
// a wait on behalf of a client (the control API's) ends when it leaves or
// Close begins. It reports whether the background work is done.
func (s *Server) waitUntil(stop, quit <-chan struct{}) bool {
	done := s.bg.idle()
	var tick <-chan time.Time
	if s.dated {
		t := time.NewTicker(clockPoll)
		defer t.Stop()
		tick = t.C
	}
	for {
		if s.dated {
			s.checkClock()
		}
		// done first: select picks at random among ready cases, and work
		// already done is done even once Close has begun.
		select {
		case <-done:
			return true
		default:
		}
		select {
		case <-done:
			return true
		case <-stop:
		case <-quit:
		case <-tick:
			continue
		}
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
}

// clockPoll is how often Wait reads an injected clock while it waits.
const clockPoll = 5 * time.Millisecond

// Close stops the listener, lets requests in flight, loopback and in
// process, finish for up to ShutdownGrace, then cancels every request and
// background goroutine the server owns and waits for them to return. The
// grace is for requests not yet answered (a tool call); one answered
// during it runs on until it ends or the grace does. A stream whose
// response had begun as Close started (an SSE GET its caller holds open,
// a relayed tunnel response) is not waited for: over loopback its
// connection is dropped at once, so its caller reads an error rather
// than a complete-looking body; in process it is cancelled once the
// requests not yet answered are done (or the grace is over). A hijacked
// connection (a tunnel host's WebSocket) is kept as long, since the
// relayed requests still pending need it. An in-process request the
// cancelling leaves unanswered (its handler returns without
// writing) fails with ErrServerClosed, as over loopback it finds its
// connection closed. A loopback client still sending or not reading after
// ShutdownGrace has its connection closed, so Close never waits on it. It
// is idempotent and reports no error; the return value keeps the io.Closer
// shape. A Close racing the first returns at once; the first returns when
// everything has ended.
//
// So the first Close must not be called from inside the server's own
// work: a callback it runs (WithHostCatalogSource's source, a build hook,
// an eval model or hook, an in-process MCP server's tool handler) or
// anything a request is waiting on. Close would wait for that work and the work for Close, and
// neither would return (Close takes no context by which it could tell its
// caller's work from the rest). From there, close on a goroutine of its
// own, go srv.Close(): the work in flight returns, and Close then ends
// everything as usual.
func (s *Server) Close() error {
	s.life.Lock()
	if s.closed {
		// At once, not when the first Close is done: a Close from a
		// callback the server waits for (a hook, a model) would deadlock.
		s.life.Unlock()
		return nil
	}
	s.closed = true
	close(s.closeBegun)
	hs := s.httpSrv
	s.life.Unlock()

	// Requests in flight, on the listener and in process, run on s.ctx:
	// they finish (up to ShutdownGrace) before it is cancelled, or a tool
	// call cut short would answer a false 504 TIMEOUT. Hijacked
	// connections (a tunnel's host) and streams already answered are not
	// waited for: the cancel below ends them, once the requests not yet
	// answered are done (relayed ones need their host's connection).
	// Loopback streams already answered are cut before Shutdown (see
	// loopStreams).
	ctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	served := make(chan struct{})
	go func() { s.served.Wait(); close(served) }()
	if hs != nil {
		// Shutdown waits for connections to go idle, which an answered
		// stream's never does: cut those first.
		s.streams.close()
		if hs.Shutdown(ctx) != nil {
			// A client still sending (or not reading) after the grace
			// period: close its connection rather than wait for it. That
			// is the expected end of a stalled client, not a failure.
			if cerr := hs.Close(); cerr != nil {
				s.log.Debug("projectopstest: close listener", "err", cerr)
			}
		}
	}
	select {
	case <-served:
	case <-ctx.Done():
	}
	s.cancel()
	s.inflight.Wait()
	<-served    // every request is over: the goroutine waiting for them too
	s.bg.Wait() // background work (eval runs) uses the MCP pool: close it after
	s.mcp.Close()
	return nil
}

// enterRequest is enter for an in-process request, which Close also
// gives ShutdownGrace (s.served); the caller must call leaveRequest.
func (s *Server) enterRequest() bool {
	s.life.Lock()
	defer s.life.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	s.served.Add(1)
	return true
}

func (s *Server) leaveRequest() {
	s.served.Done()
	s.inflight.Done()
}

// closing reports whether Close has begun.
func (s *Server) closing() bool {
	s.life.Lock()
	defer s.life.Unlock()
	return s.closed
}

// enter counts a request served on the caller's goroutine in s.inflight,
// unless the server is closed; the caller must call s.inflight.Done.
func (s *Server) enter() bool {
	s.life.Lock()
	defer s.life.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	return true
}

// spawn runs f on a goroutine counted by wg, unless the server is closed.
func (s *Server) spawn(wg interface {
	Add(int)
	Done()
}, f func()) bool {
	s.life.Lock()
	if s.closed {
		s.life.Unlock()
		return false
	}
	wg.Add(1)
	s.life.Unlock()
	go func() {
		defer wg.Done()
		f()
	}()
	return true
}

// goBackground runs f as background work: Wait waits for it and Close
// cancels its context. It reports false once the server is closed.
func (s *Server) goBackground(f func(ctx context.Context)) bool {
	return s.spawn(&s.bg, func() { f(s.ctx) })
}

// inprocHost is the server as the in-process transport sees it.
type inprocHost struct{ s *Server }

func (h inprocHost) Handler() http.Handler        { return h.s.handler }
func (h inprocHost) Context() context.Context     { return h.s.ctx }
func (h inprocHost) Streams(r *http.Request) bool { return h.s.rt.streams(r) }
func (h inprocHost) Enter() bool                  { return h.s.enterRequest() }
func (h inprocHost) Leave()                       { h.s.leaveRequest() }
func (h inprocHost) Closing() bool                { return h.s.closing() }
func (h inprocHost) Dispatch(f func()) bool       { return h.s.dispatch(f) }
func (h inprocHost) Logger() *slog.Logger         { return h.s.log }
