package projectopstest_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// Every faults every N-th matching request only; with Times it stops after
// that many faulted requests.
func TestFaultEvery(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	statuses := func(n int) []int {
		var out []int
		for range n {
			out = append(out, tg.call(t, "GET", "/me", ws.APIKey, nil).status)
		}
		return out
	}
	srv.SetFault("GET /me", projectopstest.Fault{Code: shared.CodeInternal, Every: 3})
	if got, want := statuses(7), []int{200, 200, 500, 200, 200, 500, 200}; !slices.Equal(got, want) {
		t.Errorf("Every 3: %v, want %v", got, want)
	}
	srv.SetFault("GET /me", projectopstest.Fault{Code: shared.CodeInternal, Every: 2, Times: 2})
	if got, want := statuses(7), []int{200, 500, 200, 500, 200, 200, 200}; !slices.Equal(got, want) {
		t.Errorf("Every 2 Times 2: %v, want %v", got, want)
	}
	// Every 1 (and 0) fault every request.
	srv.SetFault("GET /me", projectopstest.Fault{Code: shared.CodeInternal, Every: 1})
	if got, want := statuses(2), []int{500, 500}; !slices.Equal(got, want) {
		t.Errorf("Every 1: %v, want %v", got, want)
	}
	srv.ClearFaults()
	// A dropped connection on every other request.
	srv.SetFault("GET /me", projectopstest.Fault{Drop: true, Every: 2})
	var got []bool
	for range 4 {
		req, _ := http.NewRequestWithContext(t.Context(), "GET", projectopstest.InProcessURL+"/me", nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		got = append(got, err == nil)
	}
	if want := []bool{true, false, true, false}; !slices.Equal(got, want) {
		t.Errorf("Every 2 Drop: answered %v, want %v", got, want)
	}
}
