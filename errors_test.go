package projectops_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// TestErrorAliases: the root re-exports the internal error model, so the
// values returned by services match the root's names.
func TestErrorAliases(t *testing.T) {
	t.Parallel()
	codes := map[projectops.Code]error{
		projectops.CodeUnauthorized:        projectops.ErrUnauthorized,
		projectops.CodeOAuthRequired:       projectops.ErrOAuthRequired,
		projectops.CodeForbidden:           projectops.ErrForbidden,
		projectops.CodeValidation:          projectops.ErrValidation,
		projectops.CodeNotFound:            projectops.ErrNotFound,
		projectops.CodeConflict:            projectops.ErrConflict,
		projectops.CodeFeatureNotSupported: projectops.ErrFeatureNotSupported,
		projectops.CodeRateLimited:         projectops.ErrRateLimited,
		projectops.CodeServerUnreachable:   projectops.ErrServerUnreachable,
		projectops.CodeTimeout:             projectops.ErrTimeout,
		projectops.CodeInternal:            projectops.ErrInternal,
	}
	var listed []projectops.Code
	for _, c := range shared.Codes {
		listed = append(listed, c)
		sentinel, ok := codes[c]
		if !ok {
			t.Errorf("code %s has no root sentinel", c)
			continue
		}
		for other, s := range codes {
			if got := errors.Is(&projectops.Error{Code: c}, s); got != (other == c) {
				t.Errorf("errors.Is(%s, sentinel of %s) = %v", c, other, got)
			}
		}
		if errors.Is(fmt.Errorf("w: %w", &projectops.Error{Code: "OTHER"}), sentinel) {
			t.Errorf("unknown code matched %s", c)
		}
	}
	if len(listed) != len(codes) {
		t.Errorf("shared.Codes has %d codes, root exports %d", len(listed), len(codes))
	}

	reasons := map[projectops.Reason]error{
		projectops.ReasonOrphanedKey:            projectops.ErrOrphanedKey,
		projectops.ReasonTraceNotAvailable:      projectops.ErrTraceNotAvailable,
		projectops.ReasonNoSavedServerSelection: projectops.ErrNoSavedServerSelection,
		projectops.ReasonConcurrentRunLimit:     projectops.ErrConcurrentRunLimit,
	}
	for r, s := range reasons {
		for other := range reasons {
			e := &projectops.Error{Code: projectops.CodeNotFound, Reason: other}
			if got := errors.Is(e, s); got != (other == r) {
				t.Errorf("errors.Is(reason %s, sentinel of %s) = %v", other, r, got)
			}
		}
	}
}

// TestErrorFromService gets a *projectops.Error out of a real service call
// with errors.As, through the caller's own wrapping.
func TestErrorFromService(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.handle(http.MethodGet, "/projects/p1/chatboxes/cb1", fixed(404,
		`{"code":"NOT_FOUND","message":"no chatbox","details":{"reason":"TRACE_NOT_AVAILABLE","hostedModels":["m"]}}`))
	_, err := s.client().Catalog.Chatbox(t.Context(), "p1", "cb1")
	err = fmt.Errorf("loading chatbox: %w", err)

	var e *projectops.Error
	if !errors.As(err, &e) {
		t.Fatalf("errors.As(%v, *projectops.Error) = false", err)
	}
	want := &projectops.Error{StatusCode: 404, Code: projectops.CodeNotFound, Message: "no chatbox",
		Details: map[string]any{"reason": "TRACE_NOT_AVAILABLE", "hostedModels": []any{"m"}},
		Reason:  projectops.ReasonTraceNotAvailable, HostedModels: []string{"m"},
		Method: http.MethodGet, Path: "/projects/p1/chatboxes/cb1"}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if !errors.Is(err, projectops.ErrNotFound) || !errors.Is(err, projectops.ErrTraceNotAvailable) || errors.Is(err, projectops.ErrForbidden) {
		t.Error("sentinel matching through the root names is wrong")
	}
	if e.Temporary() {
		t.Error("NOT_FOUND is Temporary")
	}
}

// An envelope whose optional details are not an object keeps its code and
// message, so the code's sentinel still matches (api-spec §2, §7, §9: the
// code is what callers match on); the details are kept under "value",
// and null ones are absent.
func TestErrorCodeSurvivesMalformedDetails(t *testing.T) {
	t.Parallel()
	statuses := []struct {
		status int
		code   projectops.Code
		want   error
	}{
		{400, projectops.CodeValidation, projectops.ErrValidation},
		{404, projectops.CodeNotFound, projectops.ErrNotFound},
		{409, projectops.CodeConflict, projectops.ErrConflict},
		{422, projectops.CodeFeatureNotSupported, projectops.ErrFeatureNotSupported},
		{503, projectops.CodeServerUnreachable, projectops.ErrServerUnreachable},
	}
	details := []struct {
		json string
		want map[string]any
	}{
		{`["name"]`, map[string]any{"value": []any{"name"}}},
		{`"prompts"`, map[string]any{"value": "prompts"}},
		{`42`, map[string]any{"value": float64(42)}},
		{`true`, map[string]any{"value": true}},
		{`null`, nil},
	}
	for _, st := range statuses {
		for _, d := range details {
			t.Run(fmt.Sprintf("%d details %s", st.status, d.json), func(t *testing.T) {
				t.Parallel()
				s := newServer(t)
				s.handle(http.MethodGet, "/me", fixed(st.status,
					`{"code":"`+string(st.code)+`","message":"refused","details":`+d.json+`}`))
				_, err := s.client(option.WithMaxRetries(0)).Catalog.Me(t.Context())
				var e *projectops.Error
				if !errors.As(err, &e) {
					t.Fatalf("err = %v, want *projectops.Error", err)
				}
				if e.Code != st.code || e.Message != "refused" || e.StatusCode != st.status {
					t.Errorf("got %d %q %q, want %d %q \"refused\"", e.StatusCode, e.Code, e.Message, st.status, st.code)
				}
				if !errors.Is(err, st.want) {
					t.Errorf("errors.Is(%v, sentinel of %s) = false", err, st.code)
				}
				if diff := cmp.Diff(d.want, e.Details); diff != "" {
					t.Errorf("details (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// Details kept under "value" are scrubbed like an object's: a key the
// service reflects into them, plain or JSON-escaped, shows in none of the
// error's forms.
func TestMalformedDetailsRedacted(t *testing.T) {
	t.Parallel()
	escaped := `\u0073` + testKey[1:]
	for _, d := range []string{`"` + testKey + `"`, `"` + escaped + `"`, `["` + escaped + `",{"` + escaped + `":"` + testKey + `"}]`} {
		s := newServer(t)
		s.handle(http.MethodGet, "/me", fixed(400, `{"code":"VALIDATION_ERROR","message":"bad","details":`+d+`}`))
		_, err := s.client().Catalog.Me(t.Context())
		var e *projectops.Error
		if !errors.As(err, &e) || e.Code != projectops.CodeValidation {
			t.Fatalf("details %s: err = %v, want VALIDATION_ERROR", d, err)
		}
		if e.Details["value"] == nil {
			t.Errorf("details %s: not kept: %v", d, e.Details)
		}
		for _, out := range []string{fmt.Sprint(err), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e), fmt.Sprint(e.Details)} {
			if strings.Contains(out, testKey) {
				t.Errorf("details %s: the key shows: %s", d, out)
			}
		}
	}
}

// An envelope whose message is not a string keeps its code, and the
// status text stands in for the message it dropped.
func TestErrorMessageOfOtherShapeReadsAsStatusText(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{`7`, `{"text":"gone"}`, `null`, `""`} {
		s := newServer(t)
		s.handle(http.MethodGet, "/me", fixed(http.StatusNotFound, `{"code":"NOT_FOUND","message":`+msg+`}`))
		_, err := s.client(option.WithMaxRetries(0)).Catalog.Me(t.Context())
		var e *projectops.Error
		if !errors.As(err, &e) {
			t.Fatalf("message %s: err = %v, want *projectops.Error", msg, err)
		}
		if e.Code != projectops.CodeNotFound || e.Message != "Not Found" || !errors.Is(err, projectops.ErrNotFound) {
			t.Errorf("message %s: got %q %q (%v), want NOT_FOUND \"Not Found\"", msg, e.Code, e.Message, err)
		}
	}
}
