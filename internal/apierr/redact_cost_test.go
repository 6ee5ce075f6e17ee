package apierr_test

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/shared"
)

// Redact scrubs each string of an error's details on its own: a 60 KiB
// error of short strings, each with a '%' (so each takes the encoded
// pass) and the letters a request's 2.3 KB token ("eyJ...", a JWT) may
// begin with, costs little more than the same strings without their '%'
// (no encoded pass), not a walk's ring per string (1.66 GB once, 7 MB
// with rings as wide as the walk gets). Compared, not absolute: under the
// race detector the rest of a scrub allocates too.
func TestRedactManyDetailsLongSecretAllocatesLittle(t *testing.T) {
	var token strings.Builder
	for token.Len() < 2300 {
		token.WriteString("eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9")
	}
	scrub := wire.SecretScrubber(token.String())
	redactCost := func(detail string) (uint64, int) {
		var items []any
		for body := 0; body < 60<<10; body += len(detail) + 3 {
			items = append(items, detail)
		}
		// The least of three: under -race sync.Pool drops a random share
		// of Puts, and a concurrent collection or goroutine adds to
		// TotalAlloc; both only add.
		least := uint64(math.MaxUint64)
		for range 3 {
			e := &shared.Error{Message: "x", Details: map[string]any{"errors": slices.Clone(items)}}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			apierr.Redact(e, scrub)
			runtime.ReadMemStats(&after)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		return least, len(items)
	}
	scrub("%e") // the scrubber's encoded values, made once
	walked, n := redactCost("bad % value: abcdefghijklmnopqrstuvwxyz")
	skipped, _ := redactCost("bad value: abcdefghijklmnopqrstuvwxyz")
	if limit := uint64(n) * 2500; walked > skipped+limit {
		t.Errorf("redacting an error of %d detail strings allocated %d bytes, %d without their '%%'; want at most %d more", n, walked, skipped, limit)
	}
}
