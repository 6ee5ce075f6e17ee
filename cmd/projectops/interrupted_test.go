package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// Ctrl-C while the service has not answered is said as an interrupt, not
// as the bare "context canceled" the request returns; eval run, whose
// request may already have started a run that goes on (and costs), says
// so and how to cancel it, as env build does for a build.
func TestInterruptBeforeAnswerSaysInterrupted(t *testing.T) {
	arrived := make(chan struct{}, 1)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The body read to its end: only then does net/http's server watch
		// the connection, and end r's context when the client closes it
		// (which the client does when it gives up on the request).
		_, _ = io.Copy(io.Discard, r.Body)
		arrived <- struct{}{}
		<-r.Context().Done() // never answers
	}))
	defer hang.Close() // returns once the CLI closed its connections
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	t.Setenv("PROJECTOPS_BASE_URL", hang.URL+"/api/v1")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"eval", "run", "--suite", "evs_smoke", "--wait"},
			[]string{"projectops eval run: interrupted before the service answered; a run of suite evs_smoke may have started", "projectops eval cancel --project prj_demo RUN_ID"}},
		{[]string{"eval", "run", "--suite", "evs_smoke"}, []string{"interrupted before the service answered", "may have started"}},
		{[]string{"export", "--server", "srv_demo"}, []string{"projectops export: interrupted\n"}},
		{[]string{"tools", "list", "--server", "srv_demo"}, []string{"projectops tools list: interrupted\n"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			go func() { <-arrived; cancel() }() // Ctrl-C once the request is in
			var o, e bytes.Buffer
			if code := run(ctx, tc.args, &o, &e); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			for _, w := range tc.want {
				if !strings.Contains(e.String(), w) {
					t.Errorf("stderr does not say %q: %q", w, e.String())
				}
			}
			if strings.Contains(e.String(), "context canceled") {
				t.Errorf("stderr says the bare %q", e.String())
			}
		})
	}
}
