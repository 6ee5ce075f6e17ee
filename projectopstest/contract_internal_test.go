package projectopstest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Every server the double's own tests start checks its responses against
// the reference contract (WithContractCheck).
func init() { checkEveryResponse = true }

// errorsTB records Errorf calls; the rest of testing.TB is the real test's.
type errorsTB struct {
	testing.TB
	errs []string
}

func (e *errorsTB) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

// A JSON response that JavaScript's trim() empties is not {}: trim()'s
// wider set is the request edge's test, and a client's JSON.parse refuses
// such a response (checked as {}, it would be reported for missing
// fields instead).
func TestContractCheckRefusesTrimBlankResponse(t *testing.T) {
	for _, body := range []string{"\u00a0", "\f"} {
		tb := &errorsTB{TB: t}
		h := contractChecked(tb, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
		}))
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", apiPrefix+"/me", nil))
		if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], "Invalid JSON body") {
			t.Errorf("response %q: contract check said %q, want it invalid JSON", body, tb.errs)
		}
	}
}
