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

// Create's scrub takes the config's credential header values out of an
// error, and only those: an ordinary value ("application/json") cut out
// wherever it occurs left the service's explanation saying nothing.
func TestCreateScrubsOnlyCredentials(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_, _ = io.WriteString(w, `{"code":"VALIDATION_ERROR","message":"connectionDefaults.headers.Accept must be application/json or text/event-stream, the staging-eu region is read-only, SEKRIT-123456 is not a token"}`)
	}))
	defer srv.Close()
	hs, _ := hosts.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x1234567890"), option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
	cfg := hosts.Config(`{"connectionDefaults":{"headers":{"Accept":"application/json","X-Region":"staging-eu","Authorization":"Bearer SEKRIT-123456"}}}`)
	_, err := hs.Create(t.Context(), "p", hosts.CreateParams{Name: "h", Config: cfg})
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{"application/json", "staging-eu"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("non-secret %q scrubbed from error: %v", w, err)
		}
	}
	if strings.Contains(err.Error(), "SEKRIT") {
		t.Errorf("credential kept: %v", err)
	}
}

// WithResponseInto's headers keep ordinary values that a config's header
// also has: the response's own Content-Type stays application/json.
func TestCreateResponseHeadersKeepOrdinaryValues(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Deployment", "staging-eu")
		w.WriteHeader(201)
		_, _ = io.WriteString(w, `{"id":"hst_1","name":"h","config":{}}`)
	}))
	defer srv.Close()
	hs, _ := hosts.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x1234567890"), option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
	cfg := hosts.Config(`{"connectionDefaults":{"headers":{"Accept":"application/json","X-Region":"staging-eu"}}}`)
	var resp option.Response
	if _, err := hs.Create(t.Context(), "p", hosts.CreateParams{Name: "h", Config: cfg}, option.WithResponseInto(&resp)); err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("response Content-Type = %q", ct)
	}
	if d := resp.Header.Get("X-Deployment"); d != "staging-eu" {
		t.Errorf("response X-Deployment = %q", d)
	}
}
