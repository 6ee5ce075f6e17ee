package environments_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/option"
)

// A WaitOption from WithRequestOptions is applied when WaitForBuild runs:
// it keeps a copy of the options, so a caller that reuses its slice in
// between changes nothing.
func TestWaitForBuildRequestOptionsKeepsCallersSlice(t *testing.T) {
	t.Parallel()
	var seen atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("X-Trace"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items":[{"id":"bld_1","status":"ready"}],"nextCursor":""}`) // the builds listing
	}))
	defer ts.Close()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithBaseURL(ts.URL+"/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	opts := []option.RequestOption{option.WithHeader("X-Trace", "first")}
	wo := environments.WithRequestOptions(opts...)
	opts[0] = option.WithHeader("X-Trace", "second") // the caller reuses its slice
	b, err := c.Environments.WaitForBuild(t.Context(), "prj_1", "env_1", "bld_1", wo)
	if err != nil || b.Status != environments.BuildReady {
		t.Fatalf("WaitForBuild = %+v, %v", b, err)
	}
	if got := seen.Load(); got != "first" {
		t.Errorf("WaitForBuild polled with X-Trace %v, want \"first\" (the options WithRequestOptions was given)", got)
	}
}
