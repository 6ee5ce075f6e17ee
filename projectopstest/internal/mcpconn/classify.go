package mcpconn

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Kind is what went wrong talking to an MCP server, in the API's terms.
type Kind int

// Kinds of failure.
const (
	// Unreachable: could not connect, or the connection broke (502).
	Unreachable Kind = iota + 1
	// Timeout: connected, but no answer before the deadline (504).
	Timeout
	// Unsupported: the server does not implement the method (422).
	Unsupported
	// AuthRequired: the server refused the double's credentials (HTTP
	// 401 or 403, in Failure.Status).
	AuthRequired
	// InvalidParams: the server rejected the request's parameters (400).
	InvalidParams
	// NotFound: the server has no such resource (404).
	NotFound
	// ServerError: the server answered with another JSON-RPC error (500).
	ServerError
	// Canceled: the caller went away.
	Canceled
)

// Failure is a classified error. Message is safe to show to API callers: it
// is the MCP server's own JSON-RPC message or a fixed text, never a command
// line, URL or credential from the transport layer.
type Failure struct {
	Kind Kind
	Code int64 // JSON-RPC code, when the server answered one
	// Answered: the server answered a JSON-RPC error, whose code is Code
	// (go-sdk's servers answer a handler's plain error with code 0).
	Answered bool
	Status   int // the HTTP status of an AuthRequired refusal (401 or 403)
	// ProbeStatus is the refusal the service's doctor probe would have
	// read (Conn.ProbeRefusal), 0 for none: not always Status, the last
	// refusal of either attempt.
	ProbeStatus int
	Message     string
	Err         error // the underlying error, for the double's own use only
}

// Error implements error.
func (f *Failure) Error() string { return f.Message }

// Unwrap returns the underlying error.
func (f *Failure) Unwrap() error { return f.Err }

// Classify maps an error from Dial or a session call. opCtx is the context
// the call ran under (with the double's deadline); caller is the request's
// own context, to tell a deadline from a caller that left.
func Classify(err error, opCtx, caller context.Context, c *Conn) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	rpc := serverError(err)
	switch {
	case caller != nil && caller.Err() != nil:
		return &Failure{Kind: Canceled, Message: "request canceled", Err: err}
	case errors.Is(err, ErrConnectTimeout) || errors.Is(err, context.DeadlineExceeded) ||
		(opCtx != nil && errors.Is(opCtx.Err(), context.DeadlineExceeded)):
		return &Failure{Kind: Timeout, Message: "The server did not answer in time", Err: err}
	case c != nil && c.AuthRejected():
		return c.authFailure(err)
	case c != nil && c.failedReading(err):
		// The session died reading (a message it could not decode, the
		// peer gone) and this call got that failure, not an answer:
		// whatever code it carries is not the server's.
		return &Failure{Kind: Unreachable, Message: "The server's connection failed", Err: err}
	case rpc != nil:
		f := &Failure{Code: rpc.Code, Answered: true, Message: rpc.Message, Err: err}
		switch rpc.Code {
		case jsonrpc.CodeMethodNotFound:
			f.Kind = Unsupported
		case jsonrpc.CodeInvalidParams:
			f.Kind = InvalidParams
		default:
			f.Kind = ServerError
		}
		return f
	}
	return &Failure{Kind: Unreachable, Message: "Could not reach the server", Err: err}
}

// codeRejected is go-sdk's "rejected by transport" (jsonrpc2.ErrRejected,
// internal to go-sdk). Its streamable client wraps every failed HTTP
// exchange in it, a refused connection included, so it is not an answer
// from the server.
const codeRejected = -32005

// serverError returns the first JSON-RPC error in err's tree that the
// server answered, skipping go-sdk's transport rejection; nil if none.
func serverError(err error) *jsonrpc.Error {
	if e, ok := err.(*jsonrpc.Error); ok && e.Code != codeRejected {
		return e
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if next := u.Unwrap(); next != nil {
			return serverError(next)
		}
	case interface{ Unwrap() []error }:
		for _, next := range u.Unwrap() {
			if e := serverError(next); e != nil {
				return e
			}
		}
	}
	return nil
}

// Dead reports whether reading the session's messages failed: it can
// take no more calls.
func (c *Conn) Dead() bool { return c.readErr.Load() != nil }

// failedReading reports whether err is, or wraps, the very error the
// session's reading failed with (identity, not an equal code: an answer
// the server gave just before it went away stays its answer).
func (c *Conn) failedReading(err error) bool {
	p := c.readErr.Load()
	return p != nil && holds(err, *p)
}

func holds(err, target error) bool {
	for err != nil {
		if err == target {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if holds(e, target) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
