package projectopstest

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest/internal/contract"
)

// WithContractCheck makes the server check every response it writes on a
// documented route against the reference contract (the 2026-07-09 OpenAPI
// document, and the eval-ingest schema written from the reference notes),
// failing tb with Errorf on each drift: a missing required field, a wrong
// type, an enum value the reference does not know, a status it does not
// document, a field the reference types as nullable left out instead of
// sent as null. The double's own contract tests run with it on, so the double
// cannot drift from the service unnoticed. Responses of routes outside the
// contract (the relay edge, artifact uploads) are not checked.
func WithContractCheck(tb testing.TB) Option {
	return func(o *options) error {
		o.contractTB = tb
		return nil
	}
}

// checkEveryResponse turns WithContractCheck on in every NewTestServer; the
// double's own tests set it (contract_internal_test.go), so each response
// they receive is held against the reference.
var checkEveryResponse bool

// contractChecked wraps next so each JSON response is checked.
func contractChecked(tb testing.TB, next http.Handler) http.Handler {
	c, err := contract.Load()
	if err != nil {
		tb.Fatalf("projectopstest: contract: %v", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := strings.CutPrefix(r.URL.Path, apiPrefix)
		route := c.Match(r.Method, rel)
		if !ok || route == nil {
			next.ServeHTTP(w, r)
			return
		}
		tee := &teeWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(tee, r)
		if !strings.HasPrefix(tee.Header().Get("Content-Type"), "application/json") {
			return
		}
		body, err := contract.Decode(tee.body.Bytes())
		if err == nil {
			err = route.CheckResponse(tee.status, body)
		}
		if err != nil {
			tb.Errorf("projectopstest: contract: %s %s -> %d: %v", route.Method, route.Pattern, tee.status, err)
			return
		}
		for _, f := range route.Missing(tee.status, body) {
			tb.Errorf("projectopstest: contract: %s %s -> %d: %s is nullable in the reference and left out (send null)",
				route.Method, route.Pattern, tee.status, f)
		}
	})
}

// teeWriter keeps a copy of what a handler writes.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (t *teeWriter) WriteHeader(code int) {
	t.status = code
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(p []byte) (int, error) {
	t.body.Write(p)
	return t.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach Flush on the real writer.
func (t *teeWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
