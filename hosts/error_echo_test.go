package hosts_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
)

// TestConfigErrorEchoRedacted: a host config's header values a service
// quotes back from the request body in its error never reach the SDK's
// error, on create or update.
func TestConfigErrorEchoRedacted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var decoded any
		_ = json.Unmarshal(body, &decoded)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": "VALIDATION_ERROR", "message": "invalid body " + string(body),
			"details": map[string]any{"body": decoded}})
	}))
	defer srv.Close()
	svc, err := hosts.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x"), option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	c := hosts.Config(`{"connectionDefaults":{"headers":{"Authorization":"Bearer SEKRIT-H1"}},` +
		`"serverOverrides":{"x":{"headersOverride":{"X-Api-Key":"SEKRIT-H2"}}},"servers":[{"url":"https://r.example/t/s/mcp?k=SEKRIT-K3"}]}`)
	_, cerr := svc.Create(t.Context(), "prj_1", hosts.CreateParams{Name: "n", Config: c})
	_, uerr := svc.Update(t.Context(), "prj_1", "host_1", hosts.UpdateParams{Config: c})
	for _, err := range []error{cerr, uerr} {
		if err == nil {
			t.Fatal("no error")
		}
		for _, s := range []string{err.Error(), fmt.Sprintf("%#v", err)} {
			if strings.Contains(s, "SEKRIT") {
				t.Errorf("error shows a header value: %.500s", s)
			}
		}
	}
}
