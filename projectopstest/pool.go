package projectopstest

// maxIdleWorkers bounds the goroutines kept waiting for in-process requests.
const maxIdleWorkers = 64

// workerPool runs in-process requests on reused goroutines. A fresh
// goroutine starts with a small stack and grows it on every request, which
// costs more than the handler itself; a reused one keeps its grown stack.
// Workers are owned by the server: they count in Server.inflight and exit
// when the server closes.
type workerPool struct {
	jobs chan func() // unbuffered: a send succeeds only if a worker is idle
	idle chan struct{}
}

func newWorkerPool() workerPool {
	return workerPool{jobs: make(chan func()), idle: make(chan struct{}, maxIdleWorkers)}
}

// dispatch runs f on an idle worker, or on a new one. It reports false once
// the server is closed.
func (s *Server) dispatch(f func()) bool {
	if s.ctx.Err() != nil {
		return false
	}
	select {
	case s.pool.jobs <- f:
		return true
	default:
	}
	return s.spawn(&s.inflight, func() {
		f()
		s.workerLoop()
	})
}

// workerLoop waits for jobs until the server closes, unless enough workers
// are already idle.
func (s *Server) workerLoop() {
	for {
		select {
		case s.pool.idle <- struct{}{}:
		default:
			return // enough idle workers already
		}
		select {
		case f := <-s.pool.jobs:
			<-s.pool.idle
			f()
		case <-s.ctx.Done():
			<-s.pool.idle
			return
		}
	}
}
