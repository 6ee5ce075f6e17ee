package evals_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// The service raises its refusal to cancel a finished run with the code
// VALIDATION_ERROR (the specification gives it 409 and no code; the
// service's own envelope turns it into a 400): Cancel's error matches
// ErrConflict in every form, keeps its own code, and a 400 that is not
// that refusal does not.
func TestCancelFinishedRunMatchesConflict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status   int
		body     string
		conflict bool
	}{
		{409, `{"code":"CONFLICT","message":"Cannot cancel a run that already completed"}`, true},
		{409, `{"code":"VALIDATION_ERROR","message":"Cannot cancel a run that already completed"}`, true},
		{400, `{"code":"VALIDATION_ERROR","message":"Cannot cancel a run that already failed"}`, true},
		{400, `{"code":"VALIDATION_ERROR","message":"Unexpected field(s) in body: x"}`, false},
		{409, `{"code":"FORBIDDEN","message":"something else entirely"}`, false},
	} {
		answer := rtFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: tc.status, Request: r, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(tc.body))}, nil
		})
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"),
			option.WithTransport(answer), option.WithMaxRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Evals.Runs.Cancel(t.Context(), "prj_1", "run_1")
		var e *projectops.Error
		if errors.Is(err, projectops.ErrConflict) != tc.conflict || !errors.As(err, &e) || e.StatusCode != tc.status {
			t.Errorf("%d %s: Cancel = %v (ErrConflict %v, want %v)", tc.status, tc.body, err, errors.Is(err, projectops.ErrConflict), tc.conflict)
		}
		if strings.Contains(tc.body, "VALIDATION") && !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("%s: the error no longer matches its own code", tc.body)
		}
		// Sentinels match by code: one of the caller's own matches too.
		if errors.Is(err, &projectops.Error{Code: projectops.CodeConflict}) != tc.conflict {
			t.Errorf("%s: a CONFLICT sentinel of the caller's own matches %v", tc.body, !tc.conflict)
		}
	}
}

// A finished run's cancel is pinned by status alone (spec §7 rule 4: 409,
// code not shown), and new codes can appear: a 409 with a code the SDK does
// not know still matches ErrConflict, keeps its code, and is not temporary.
func TestCancelFinishedRunWithUnknownCodeMatchesConflict(t *testing.T) {
	t.Parallel()
	answer := rtFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 409, Request: r, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"code":"RUN_ALREADY_TERMINAL","message":"Run already completed"}`))}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"),
		option.WithTransport(answer), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Evals.Runs.Cancel(t.Context(), "prj_1", "run_1")
	var e *projectops.Error
	if !errors.Is(err, projectops.ErrConflict) || !errors.As(err, &e) || e.Code != "RUN_ALREADY_TERMINAL" || e.Temporary() {
		t.Errorf("Cancel = %v (ErrConflict %v)", err, errors.Is(err, projectops.ErrConflict))
	}
}
