package ingest

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/internal/apierr"
)

// check refuses a run the service would refuse (report and runs/start
// require a suite name and an external run id), before anything is sent
// or spooled.
func (p *RunParams) check() error {
	switch {
	case strings.TrimSpace(p.SuiteName) == "":
		return apierr.Invalid("suiteName", "RunParams.SuiteName is required (and not blank)")
	case p.ExternalRunID == "":
		return apierr.Invalid("externalRunId", "RunParams.ExternalRunID is required")
	case utf8.RuneCountInString(p.ExternalRunID) > maxIterationIDChars:
		return apierr.Invalid("externalRunId", fmt.Sprintf("RunParams.ExternalRunID is longer than %d characters", maxIterationIDChars))
	case p.PassCriteria != nil && !(p.PassCriteria.MinimumPassRate >= 0 && p.PassCriteria.MinimumPassRate <= 100):
		return apierr.Invalid("passCriteria.minimumPassRate", "PassCriteria.MinimumPassRate must be between 0 and 100")
	}
	return nil
}
