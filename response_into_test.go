package projectops_test

import (
	"context"
	"errors"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestResponseIntoResetWhenNothingSent reuses one option.Response across
// calls, as docs/sdk.md does: a call refused before anything is sent must
// leave it describing that call (no status, request id, attempts or body),
// not the successful call before it, whose request id an error log would
// otherwise quote.
func TestResponseIntoResetWhenNothingSent(t *testing.T) {
	srv := projectopstest.NewTestServer(t)
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	both := 2
	clash := &evals.MatchOptions{UnlimitedExtraToolCalls: true, MaxExtraToolCalls: &both}

	for _, tc := range []struct {
		name string
		call func(meta *option.Response) error
	}{
		{"empty id", func(meta *option.Response) error {
			_, err := client.Hosts.Get(t.Context(), ws.ProjectID, "", option.WithResponseInto(meta))
			return err
		}},
		{"cancelled context", func(meta *option.Response) error {
			_, err := client.Hosts.List(cancelled, ws.ProjectID, nil, option.WithResponseInto(meta))
			return err
		}},
		{"limit over the maximum", func(meta *option.Response) error {
			_, err := client.Catalog.ListChatSessions(t.Context(),
				&catalog.ChatSessionsParams{Limit: catalog.MaxChatSessionsLimit + 1}, option.WithResponseInto(meta))
			return err
		}},
		{"host config not JSON", func(meta *option.Response) error {
			_, err := client.Hosts.Create(t.Context(), ws.ProjectID,
				hosts.CreateParams{Name: "h", Config: hosts.Config("{")}, option.WithResponseInto(meta))
			return err
		}},
		{"suite test match options clash", func(meta *option.Response) error {
			_, err := client.Evals.Suites.Create(t.Context(), ws.ProjectID,
				evals.CreateSuiteParams{Tests: []evals.Test{{MatchOptions: clash}}}, option.WithResponseInto(meta))
			return err
		}},
		{"run match options clash", func(meta *option.Response) error {
			_, err := client.Evals.Runs.Create(t.Context(), ws.ProjectID,
				evals.RunParams{MatchOptionsOverride: clash}, option.WithResponseInto(meta))
			return err
		}},
		{"refused option before it", func(meta *option.Response) error {
			_, err := client.Hosts.List(t.Context(), ws.ProjectID, nil,
				option.WithHeader("Authorization", "Bearer x"), option.WithResponseInto(meta))
			return err
		}},
		{"client option given to the call", func(meta *option.Response) error {
			_, err := client.Hosts.List(t.Context(), ws.ProjectID, nil,
				option.WithResponseInto(meta), option.WithUserAgent("x/1"))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var meta option.Response
			if _, err := client.Hosts.List(t.Context(), ws.ProjectID, nil, option.WithResponseInto(&meta)); err != nil {
				t.Fatal(err)
			}
			if meta.StatusCode != 200 || meta.RequestID == "" || meta.Attempts != 1 || meta.Body == nil {
				t.Fatalf("the successful call's meta = %+v", meta)
			}
			err := tc.call(&meta)
			if err == nil {
				t.Fatal("the call succeeded; want it refused before sending")
			}
			if meta.StatusCode != 0 || meta.RequestID != "" || meta.Attempts != 0 || meta.Body != nil || meta.Header != nil {
				t.Errorf("after %v: meta = {StatusCode:%d RequestID:%q Attempts:%d Header:%v Body:%d bytes}; want the zero Response, not the previous call's",
					err, meta.StatusCode, meta.RequestID, meta.Attempts, meta.Header, len(meta.Body))
			}
		})
	}
}

// TestResponseIntoResetByRefusedResume: Resume refuses WithResponseInto
// (it sends many requests), and the refusal leaves the target describing
// no request rather than an earlier call's.
func TestResponseIntoResetByRefusedResume(t *testing.T) {
	srv := projectopstest.NewTestServer(t)
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	var meta option.Response
	if _, err := client.Hosts.List(t.Context(), srv.Default().ProjectID, nil, option.WithResponseInto(&meta)); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Resume(t.Context(), client.Ingest, t.TempDir(), option.WithResponseInto(&meta)); !errors.Is(err, projectops.ErrValidation) {
		t.Fatalf("Resume with WithResponseInto = %v; want a VALIDATION_ERROR", err)
	}
	if meta.StatusCode != 0 || meta.RequestID != "" || meta.Attempts != 0 {
		t.Errorf("meta = %+v after a refused Resume; want the zero Response", meta)
	}
}
