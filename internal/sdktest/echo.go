package sdktest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// EchoBodyServer starts a server that refuses every request with 400
// VALIDATION_ERROR quoting the request body back, in its message and its
// details (as a validator may), and returns its API base URL: what an SDK
// error must not show of a request's secrets. It closes with the test.
func EchoBodyServer(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var decoded any
		_ = json.Unmarshal(body, &decoded)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": "VALIDATION_ERROR", "message": "invalid body " + string(body),
			"details": map[string]any{"body": decoded}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api/v1"
}
