package option_test

import (
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/internal/leaktest"
	"github.com/projectops/projectops-go/option"
)

// TestResponseBodyNeverPrinted: a response's body may hold a secret the
// call returned (a tunnel's connect token); it prints as its size only,
// nested or behind a pointer too.
func TestResponseBodyNeverPrinted(t *testing.T) {
	t.Parallel()
	r := option.Response{StatusCode: 200, Header: http.Header{"X-Request-Id": {"req_1"}}, RequestID: "req_1", Attempts: 1,
		Body: option.Body(`{"connectToken":"ct_SEKRIT"}`)}
	leaktest.NoLeak(t, "Response", r, false, "SEKRIT")
}
