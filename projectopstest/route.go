package projectopstest

import (
	"net/http"
	"sync"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// call is one request as a typed handler sees it: the caller, the request
// and, on a route under /projects/{projectId}, the project it may access.
type call struct {
	s       *Server
	r       *http.Request
	a       actor
	project *projectRec
	role    Role
	// present maps the body's top-level keys to whether they carried a
	// non-null value, so a handler can tell "absent" from "zero" (and,
	// by membership, "absent" from "null").
	present map[string]bool
	// scratch carries what check computed to apply (a canonical config).
	scratch any
	// afters run once Server.mu is released (hooks that may call back).
	afters []func()
}

// calls recycles call values: one per request would be the adapter's only
// allocation on a read (measured by BenchmarkHandlerOnly).
var calls = sync.Pool{New: func() any { return new(call) }}

func newCall(s *Server, r *http.Request, a actor) *call {
	c := calls.Get().(*call)
	c.s, c.r, c.a = s, r, a
	return c
}

// release returns c to the pool; nothing may use it afterwards.
func (c *call) release() {
	*c = call{}
	calls.Put(c)
}

// after runs f once the handler's lock is released.
func (c *call) after(f func()) { c.afters = append(c.afters, f) }

// path returns a path value of the route's pattern.
func (c *call) path(name string) string { return c.r.PathValue(name) }

// none is the request type of a route that reads no body: nothing is
// decoded (a GET's body, or a tunnel close's, is ignored, as the service
// ignores it).
type none struct{}

// noBody is the request type of a bodyless write: any field is refused.
type noBody struct{}

// rawJSON is a response already encoded (a stored detail): written as is.
type rawJSON []byte

// op describes one route for the typed adapter. The adapter does, in
// order: the single decode and contract check of the body into Req and
// check without the lock (the service's routes validate a body before
// their backend looks the project or the resource up, so a bad body is 400
// whatever the path names or the caller may do); the access check on
// {projectId} and find; then apply under Server.mu with the access checked
// again (the project may have changed meanwhile), and the encoding of
// apply's result with status.
type op[Req, Resp any] struct {
	// status is the success status; 0 is 200.
	status int
	// need is the access a route under /projects/{projectId} needs.
	need access
	// find, when set, runs with the access check (under Server.mu): the
	// resource the path names must exist, or the route is 404.
	find func(c *call) *edge.Error
	// ownAccess: the route checks access itself instead of on the path's
	// {projectId} (apply runs under Server.mu with c.project unset).
	ownAccess bool
	// check validates the body without the lock (it may call out: the host
	// catalog, canonical configs). Optional.
	check func(c *call, body *Req) *edge.Error
	// apply does the work under Server.mu and returns the response.
	apply func(c *call, body *Req) (Resp, *edge.Error)
	// unlocked runs apply without Server.mu: for work that calls out (an
	// MCP server) and takes the lock itself for what it reads.
	unlocked bool
}

// gate checks, under Server.mu, the caller's access to the path's project
// and that the resource the path names exists.
func (o *op[Req, Resp]) gate(s *Server, c *call) *edge.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	herr := c.resolveProject(o.need)
	if herr == nil && o.find != nil {
		herr = o.find(c)
	}
	return herr
}

// locked runs the handler under Server.mu. The unlock is deferred so that a
// handler's panic (recovered by net/http or the in-process transport as a
// dropped connection) does not leave every later request waiting on the
// lock.
func (o *op[Req, Resp]) locked(s *Server, c *call, body *Req, scoped bool) (resp Resp, herr *edge.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if scoped {
		herr = c.resolveProject(o.need)
	}
	if herr == nil {
		resp, herr = o.apply(c, body)
	}
	return resp, herr
}

// route adapts a typed handler to the router's handlerFunc.
func route[Req, Resp any](s *Server, o op[Req, Resp]) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a actor) *edge.Error {
		c := newCall(s, r, a)
		defer c.release()
		scoped := r.PathValue("projectId") != "" && !o.ownAccess
		var body Req
		_, bodyless := any(body).(none)
		_, refuse := any(body).(noBody)
		if !bodyless {
			if refuse {
				if herr := edge.RejectBody(r); herr != nil {
					return herr
				}
			} else {
				present, herr := edge.DecodeBody(r, &body)
				if herr != nil {
					return herr
				}
				c.present = present
			}
			if o.check != nil {
				if herr := o.check(c, &body); herr != nil {
					return herr
				}
			}
			if scoped {
				if herr := o.gate(s, c); herr != nil {
					return herr
				}
			}
		}
		var resp Resp
		var herr *edge.Error
		if o.unlocked {
			resp, herr = o.apply(c, &body)
		} else {
			resp, herr = o.locked(s, c, &body, scoped)
		}
		for _, f := range c.afters {
			f()
		}
		if herr != nil {
			return herr
		}
		respond(w, o.status, resp)
		return nil
	}
}

// respond writes a handler's result: status 0 is 200, a rawJSON goes out
// as it is.
func respond(w http.ResponseWriter, status int, resp any) {
	if status == 0 {
		status = http.StatusOK
	}
	if raw, ok := resp.(rawJSON); ok {
		edge.WriteRaw(w, status, raw)
		return
	}
	edge.WriteJSON(w, status, resp)
}

// resolveProject checks the caller's access to {projectId}. Call with
// Server.mu held.
func (c *call) resolveProject(need access) *edge.Error {
	p, role, herr := c.s.st.projectFor(c.a, c.path("projectId"), need)
	c.project, c.role = p, role
	return herr
}

// withServer adapts a handler written as a function of the server (one
// that does not fit the typed adapter: an upload streamed to storage).
func withServer(s *Server, h func(*Server, http.ResponseWriter, *http.Request, actor) *edge.Error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a actor) *edge.Error { return h(s, w, r, a) }
}
