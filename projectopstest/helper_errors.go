package projectopstest

import (
	"errors"
	"fmt"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

// notFoundError is a helper's error for a reference to something the
// double does not hold (an unknown project, user, key, ...).
// errors.Is(err, projectops.ErrNotFound) matches it, as it matches the
// API's 404, so a test need not compare messages.
type notFoundError struct{ msg string }

func (e *notFoundError) Error() string { return e.msg }

// Is matches shared.ErrNotFound (projectops.ErrNotFound) only: the error is
// no API error, so errors.As to *shared.Error does not match it.
func (e *notFoundError) Is(target error) bool { return target == shared.ErrNotFound }

// notFound formats a notFoundError.
func notFound(format string, args ...any) error {
	return &notFoundError{msg: fmt.Sprintf(format, args...)}
}

// apiRefused is a helper's error for a check the API shares, prefix then
// the API's message: one the API answers NOT_FOUND (an unknown server
// id, ...) is a notFoundError, as the helpers' own unknown references are.
func apiRefused(herr *edge.Error, prefix string) error {
	msg := prefix + ": " + herr.Body.Message
	if herr.Body.Code == shared.CodeNotFound {
		return &notFoundError{msg: msg}
	}
	return errors.New(msg)
}

// helperError gives an exported helper's error the package's prefix,
// keeping what it wraps; the state's own errors go without it, as the
// seed loader adds its own context to them.
func helperError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("projectopstest: %w", err)
}
