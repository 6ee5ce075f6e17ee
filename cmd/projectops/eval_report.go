package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/pager"
)

// failReasons returns, for each failed iteration, why it failed: its first
// failing step's reason ("step <id>: <reason>"), else its error. An
// iteration that ended without a verdict (cancelled, timed out) did not
// pass either: its reason is its status, so JUnit and the summary count it
// as a failure, as the exit code does.
func (ec *evalCmd) failReasons(runID string, iters []evals.Iteration) (map[string]string, error) {
	out := map[string]string{}
	for _, it := range iters {
		if it.Result == "" && it.Status.Terminal() {
			reason := "iteration " + string(it.Status)
			if it.Error != "" {
				reason += ": " + it.Error
			}
			out[it.ID] = ec.redacted(reason)
			continue
		}
		if it.Result != evals.ResultFailed {
			continue
		}
		reason := it.Error
		steps, err := pager.Collect(ec.c.Evals.Runs.AllSteps(ec.ctx, ec.project, runID, it.ID, nil))
		if err != nil {
			return nil, err
		}
		for _, st := range steps {
			if st.Status == evals.StepFail {
				reason = "step " + st.StepID + ": " + st.Reason
				break
			}
		}
		// Redacted whole, before JUnit, the summary or a cell cuts it.
		out[it.ID] = ec.redacted(orDefault(reason, "failed"))
	}
	return out, nil
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Time     float64     `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      float64       `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// junitXML is the run as JUnit XML: one test case per iteration, the
// failing step's reason as a failure's message.
func junitXML(run *evals.Run, iters []evals.Iteration, reasons map[string]string) ([]byte, error) {
	s := junitSuite{Name: "eval run " + run.ID, Tests: len(iters)}
	totalMs := 0.0 // whole milliseconds: their sum, and each time, print without float noise
	for _, it := range iters {
		ms := 0.0 // null (not terminal): no time
		if it.DurationMs != nil {
			ms = math.Round(*it.DurationMs)
		}
		c := junitCase{Name: fmt.Sprintf("%s #%d", orDefault(it.Title, it.ID), it.IterationNumber),
			ClassName: run.SuiteID, Time: ms / 1000}
		totalMs += ms
		s.Time = totalMs / 1000
		if r, failed := reasons[it.ID]; failed {
			s.Failures++
			c.Failure = &junitFailure{Message: firstLine(r), Text: r}
		}
		s.Cases = append(s.Cases, c)
	}
	b, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

func summaryMarkdown(w io.Writer, run *evals.Run, iters []evals.Iteration, reasons map[string]string) error {
	s := evals.Summary{}
	if run.Summary != nil {
		s = *run.Summary
	}
	verdict := "✅ passed"
	switch {
	case run.Status == evals.StatusCancelled || run.Status == evals.StatusTimedOut:
		verdict = "🚫 " + string(run.Status) // its result is failed, but nothing failed
	case !run.Passed():
		verdict = "❌ " + orDefault(string(run.Result), string(run.Status))
	}
	// Iterations that never ended (a cancelled or timed-out run's) are
	// neither passed nor failed; say so, so the counts add up.
	unfinished := 0
	for _, it := range iters {
		if it.Status == evals.StatusCancelled || it.Status == evals.StatusTimedOut {
			unfinished++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Eval run %s: %s\n\n", run.ID, verdict)
	fmt.Fprintf(&b, "Pass rate **%.0f%%**: %d passed, %d failed", s.PassRate*100, s.Passed, s.Failed)
	if unfinished > 0 {
		fmt.Fprintf(&b, ", %d not finished", unfinished)
	}
	fmt.Fprintf(&b, " of %d iterations.\n", s.Total)
	if len(reasons) > 0 {
		b.WriteString("\n| Test | Iteration | Reason |\n|---|---|---|\n")
		for _, it := range iters {
			if r, ok := reasons[it.ID]; ok {
				fmt.Fprintf(&b, "| %s | %d | %s |\n", mdCell(orDefault(it.Title, it.ID)), it.IterationNumber, mdCell(r))
			}
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// mdCell keeps a table cell on one line, its pipes literal and its
// control characters escaped (the summary may go to a terminal: see
// printable).
func mdCell(s string) string {
	s = strings.ReplaceAll(printable(firstLine(s)), "|", `\|`)
	if r := []rune(s); len(r) > 200 { // by characters: a byte cut could split one
		s = string(r[:200]) + "…"
	}
	return s
}
