package projectops_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// The call's deadline ends while an error response's body is still
// arriving (a 404 envelope sent in two parts, the second stalled). The
// call must end with the context's error (docs/sdk.md: "Cancelling the
// context stops a call at once"; transport.Do: failures are "the context's
// error when ctx ends"). Instead the half-read envelope is returned as a
// code-less "404 error: Not Found (non-envelope error body ...)": neither
// errors.Is(err, context.DeadlineExceeded) nor errors.Is(err,
// projectops.ErrNotFound) holds, and the status the user sees is invented
// from a body that was cut short by their own deadline. The same happens
// on the last attempt of any retryable status.
func TestDeadlineDuringErrorBody(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"code":"NOT_FOUND","mess`)
		w.(http.Flusher).Flush()
		select { // the rest of the body is slow
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
		_, _ = io.WriteString(w, `age":"no such host"}`)
	}))
	defer srv.Close()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_audit_key"),
		option.WithBaseURL(srv.URL+"/api/v1"), option.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Hosts.Get(context.Background(), "prj_1", "h_1", option.WithRequestTimeout(200*time.Millisecond))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v\nwant the context's error (context.DeadlineExceeded); errors.Is(err, ErrNotFound) = %v",
			err, errors.Is(err, projectops.ErrNotFound))
	}
}
