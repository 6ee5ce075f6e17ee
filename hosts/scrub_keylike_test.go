package hosts_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
)

// Real services take API keys in headers whose names have no credential
// word (Honeycomb's X-Honeycomb-Team, Pivotal Tracker's X-TrackerToken):
// a key-like value is taken out of an error that quotes it back, as %v of
// the same Config redacts it.
func TestCreateScrubsKeyLikeHeaderValues(t *testing.T) {
	t.Parallel()
	const k1, k2 = "hcaik_LEAKCANARY1234567890abcdef", "LEAKCANARYTRACKER0987654321"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		// The validator echoes the header values it refused.
		msg := "connectionDefaults.headers: invalid values " + k1 + ", " + k2
		_, _ = io.WriteString(w, `{"code":"VALIDATION_ERROR","message":"`+msg+`"}`)
	}))
	defer srv.Close()
	hs, _ := hosts.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x1234567890"), option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
	cfg := hosts.Config(`{"connectionDefaults":{"headers":{"X-Honeycomb-Team":"` + k1 + `","X-TrackerToken":"Token ` + k2 + `"}}}`)
	if s := cfg.String(); strings.Contains(s, k1) || strings.Contains(s, k2) {
		t.Fatalf("precondition: Config prints its header values: %s", s)
	}
	_, err := hs.Create(t.Context(), "p", hosts.CreateParams{Name: "h", Config: cfg})
	if err == nil {
		t.Fatal("no error")
	}
	for _, k := range []string{k1, k2} {
		if strings.Contains(err.Error(), k) {
			t.Errorf("the error quotes a connection header's value %s...: %v", k[:10], strings.ReplaceAll(strings.ReplaceAll(err.Error(), k1, "<K1>"), k2, "<K2>"))
		}
	}
}
