package apierr_test

import (
	"errors"
	"testing"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/shared"
)

// TestUnknownCodeMatchesSentinelByStatus: a code the SDK does not know
// (spec §9: new codes can appear) matches the sentinel its status implies,
// the same one a bodyless answer of that status gets as its code, so a
// 409 RUN_ALREADY_TERMINAL is still errors.Is ErrConflict. A known code
// keeps matching by itself alone, whatever the status.
func TestUnknownCodeMatchesSentinelByStatus(t *testing.T) {
	t.Parallel()
	for status := 100; status <= 599; status++ {
		for _, code := range []shared.Code{"RUN_ALREADY_TERMINAL", ""} {
			e := &shared.Error{StatusCode: status, Code: code}
			implied := apierr.StatusCode(status)
			for c, sentinel := range codeSentinels {
				if got, want := errors.Is(e, sentinel), c == implied; got != want {
					t.Errorf("%d %q: errors.Is(%s) = %v, want %v", status, code, c, got, want)
				}
			}
		}
	}
	// A sentinel of the caller's own for the new code matches it too,
	// whatever the status: the caller's way to match a code the SDK has no
	// constant for yet.
	own := &shared.Error{Code: "RUN_ALREADY_TERMINAL"}
	for _, status := range []int{0, 409, 500} {
		if !errors.Is(&shared.Error{StatusCode: status, Code: "RUN_ALREADY_TERMINAL"}, own) {
			t.Errorf("%d RUN_ALREADY_TERMINAL does not match a sentinel with its own code", status)
		}
	}
	known := &shared.Error{StatusCode: 409, Code: shared.CodeForbidden}
	if errors.Is(known, shared.ErrConflict) || !errors.Is(known, shared.ErrForbidden) {
		t.Error("a known code on a 409 should match its own sentinel only")
	}
	billing := &shared.Error{StatusCode: 409, Code: shared.CodeBillingLimitReached}
	if errors.Is(billing, shared.ErrConflict) || !errors.Is(billing, shared.ErrBillingLimitReached) {
		t.Error("the billing code is known: it should match its own sentinel only")
	}
}
