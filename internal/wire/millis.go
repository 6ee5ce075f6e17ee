// Package wire holds small wire-format helpers shared by the resource
// packages and the double.
package wire

import (
	"time"

	"github.com/projectops/projectops-go/shared"
)

// Millis is the service's timestamp (package shared defines it).
type Millis = shared.Millis

// MillisOf converts a time to epoch milliseconds.
func MillisOf(t time.Time) Millis { return shared.MillisOf(t) }
