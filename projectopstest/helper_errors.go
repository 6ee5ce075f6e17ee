package projectopstest

import (
	"fmt"

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

// helperError gives an exported helper's error the package's prefix,
// keeping what it wraps; the state's own errors go without it, as the
// seed loader adds its own context to them.
func helperError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("projectopstest: %w", err)
}
