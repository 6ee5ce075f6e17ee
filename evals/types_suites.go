package evals

import "github.com/projectops/projectops-go/shared"

// Suite is an eval suite as listed, with a summary of its runs.
type Suite struct {
	ID        string        `json:"id"`
	Name      string        `json:"name,omitempty"`
	ProjectID string        `json:"projectId,omitempty"`
	CreatedAt shared.Millis `json:"createdAt,omitempty"`
	UpdatedAt shared.Millis `json:"updatedAt,omitempty"`
	LatestRun *LatestRun    `json:"latestRun,omitempty"`
	Totals    Totals        `json:"totals"`
	// PassRateTrend holds the pass rates (0 to 1) of recent finished runs,
	// oldest first.
	PassRateTrend []float64 `json:"passRateTrend"`
}

// LatestRun summarises a suite's newest run. PassRate (0 to 1), Passed and
// Failed are nil when the service sends null (no verdict yet), which is not
// a 0% run; nil encodes back as null.
type LatestRun struct {
	ID        string        `json:"id,omitempty"`
	Status    Status        `json:"status,omitempty"`
	PassRate  *float64      `json:"passRate"`
	Passed    *int          `json:"passed"`
	Failed    *int          `json:"failed"`
	CreatedAt shared.Millis `json:"createdAt,omitempty"`
}

// Totals counts a suite's runs and their passed and failed iterations.
type Totals struct {
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	Runs   int `json:"runs"`
}

// CreateSuiteParams authors a suite. Name, ServerIDs, Model and Tests are
// required; Model and Provider are the defaults of tests that set none.
type CreateSuiteParams struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	ServerIDs   []string `json:"serverIds"`
	// ServerNames are optional display names, parallel to ServerIDs.
	ServerNames  []string      `json:"serverNames,omitempty"`
	Model        string        `json:"model"`
	Provider     string        `json:"provider,omitempty"`
	PassCriteria *PassCriteria `json:"passCriteria,omitempty"`
	Tags         []string      `json:"tags,omitempty"`
	Tests        []Test        `json:"tests"`
}

// ServerRef names a saved server a suite or run uses.
type ServerRef struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// CaseRef names a stored test case.
type CaseRef struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// CaseFailure is a test case that could not be stored.
type CaseFailure struct {
	ID    string `json:"id,omitempty"`
	Name  string `json:"name,omitempty"`
	Error string `json:"error,omitempty"`
}

// CaseUpsert reports which test cases were stored.
type CaseUpsert struct {
	Committed []CaseRef     `json:"committed,omitempty"`
	Failed    []CaseFailure `json:"failed,omitempty"`
}

// SuiteCreated is the answer to SuiteService.Create.
type SuiteCreated struct {
	SuiteID    string      `json:"suiteId"`
	Name       string      `json:"name"`
	Servers    []ServerRef `json:"servers,omitempty"`
	CaseUpsert CaseUpsert  `json:"caseUpsert"`
}

// SuiteRunsParams bounds Suites.ListRuns and Suites.AllRuns.
type SuiteRunsParams struct {
	// Limit is the number of runs, 1 to MaxSuiteRunsLimit (service default
	// 25); one outside that is refused before a request is sent.
	Limit int
	// Cursor is a previous page's NextCursor.
	Cursor string
}

// MaxSuiteRunsLimit is the most runs Suites.ListRuns returns.
const MaxSuiteRunsLimit = 100

// ListParams pages the suites listing.
type ListParams struct {
	// Cursor is a previous page's NextCursor.
	Cursor string
}
