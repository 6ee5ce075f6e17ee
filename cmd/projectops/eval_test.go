package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// evalServer starts a double on loopback with one saved server and points
// the CLI at it through the environment (so these tests are not parallel);
// opts are the double's, after a rate limit that is off.
func evalServer(t *testing.T, opts ...projectopstest.Option) (*projectopstest.Server, string) {
	t.Helper()
	srv := projectopstest.NewTestServer(t, append([]projectopstest.Option{projectopstest.WithRateLimit(0, 0)}, opts...)...)
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	serverID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "down",
		TransportType: "http", URL: "http://127.0.0.1:1/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	demoID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo",
		MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("EVAL_TEST_DEMO_SERVER", demoID)
	t.Setenv("PROJECTOPS_API_KEY", ws.APIKey)
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_PROJECT", ws.ProjectID)
	return srv, serverID
}

func evalCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), append([]string{"eval"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func writeTests(t *testing.T, p evals.RunParams) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tests.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEvalRunFailedRunExitsOne(t *testing.T) {
	_, serverID := evalServer(t)
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{serverID}, Tests: []evals.Test{{
		Title: "echo", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "Use echo with message=hi")}}}})
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms")
	if code != 1 || !strings.Contains(out, "failed: failed (0 passed, 1 failed of 1") {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "SERVER_UNREACHABLE") || !strings.Contains(out, "TEST") {
		t.Errorf("summary table lacks the iteration's error:\n%s", out)
	}
	runID := strings.Fields(out[strings.LastIndex(out, "run run_"):])[1]

	code, out, errOut = evalCLI(t, "run", "--file", file, "--wait", "--json", "--interval", "1ms")
	var res struct {
		Run        evals.Run         `json:"run"`
		Iterations []evals.Iteration `json:"iterations"`
	}
	if code != 1 || json.Unmarshal([]byte(out), &res) != nil || res.Run.Status != evals.StatusFailed || res.Run.Result != evals.ResultFailed || len(res.Iterations) != 1 {
		t.Fatalf("run --json: %d\n%s\n%s", code, out, errOut)
	}

	code, out, _ = evalCLI(t, "iterations", runID)
	if code != 0 || !strings.Contains(out, "echo") {
		t.Fatalf("iterations: %d %s", code, out)
	}
	code, _, errOut = evalCLI(t, "cancel", runID)
	if code != 2 || !strings.Contains(errOut, "409 CONFLICT") {
		t.Fatalf("cancel finished run: %d %s", code, errOut)
	}
	itID := res.Iterations[0].ID
	code, out, _ = evalCLI(t, "trace", res.Run.ID, itID)
	if code != 0 || !strings.Contains(out, "skipped") {
		t.Fatalf("trace: %d %s", code, out)
	}
}

func TestEvalRunUsageAndErrors(t *testing.T) {
	_, serverID := evalServer(t)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage:\n  projectops eval [flags]"},
		{[]string{"run"}, 2, "exactly one of --suite or --file"},
		{[]string{"run", "--suite", "a", "--file", "b"}, 2, "exactly one"},
		{[]string{"run", "--suite", "a", "--wait", "--interval", "0s"}, 2, "--interval must be positive"},
		{[]string{"run", "--suite", "a", "--wait", "--interval", "-1s"}, 2, "--interval must be positive"},
		{[]string{"cancel"}, 2, "want RUN_ID, got 0 argument(s)"},
		{[]string{"nope"}, 2, `unknown command "nope" for "projectops eval"`},
		{[]string{"run", "--suite", "evs_missing"}, 2, "NOT_FOUND"},
		{[]string{"run", "--file", writeTests(t, evals.RunParams{SuiteName: "x", ServerIDs: []string{serverID},
			Tests: []evals.Test{{Title: "t", Model: "openai/gpt-9", Steps: []evals.Step{evals.PromptStep("p", "x")}}}})}, 2, "VALIDATION_ERROR"},
	}
	for _, tc := range cases {
		code, out, errOut := evalCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%v: %d %q %q; want %d containing %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
	// Without --wait the run is started and its id printed.
	file := writeTests(t, evals.RunParams{SuiteName: "x", ServerIDs: []string{serverID},
		Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "x")}}}})
	code, out, errOut := evalCLI(t, "run", "--file", file)
	if code != 0 || !strings.Contains(out, "run run_") {
		t.Fatalf("run without --wait: %d %q %q", code, out, errOut)
	}
}

func TestEvalRunPassedRunExitsZero(t *testing.T) {
	_, _ = evalServer(t)
	demo := os.Getenv("EVAL_TEST_DEMO_SERVER")
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{demo}, Tests: []evals.Test{{
		Title: "echo", Model: "openai/gpt-4o-mini", Runs: 2, Steps: []evals.Step{
			evals.PromptStep("p", "Use echo with message=hi"),
			evals.AssertCalledWith("a", "echo", map[string]any{"message": "hi"}),
		}}}})
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms")
	if code != 0 || !strings.Contains(out, "completed: passed (2 passed, 0 failed of 2; pass rate 100%)") ||
		!strings.Contains(out, "echo") {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	// A rerun of the suite by id, with the trace of its first iteration.
	suiteID := ""
	code, out, _ = evalCLI(t, "run", "--file", file, "--json")
	var rc evals.RunCreated
	if code != 0 || json.Unmarshal([]byte(out), &rc) != nil {
		t.Fatalf("run --json: %d %s", code, out)
	}
	suiteID = rc.SuiteID
	code, out, errOut = evalCLI(t, "run", "--suite", suiteID, "--wait", "--json", "--interval", "1ms")
	var res struct {
		Run        evals.Run         `json:"run"`
		Iterations []evals.Iteration `json:"iterations"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || !res.Run.Passed() {
		t.Fatalf("rerun: %d %s %s", code, out, errOut)
	}
	code, out, _ = evalCLI(t, "trace", res.Run.ID, res.Iterations[0].ID)
	if code != 0 || !strings.Contains(out, "Echo: hi") || !strings.Contains(out, "prompt 0: passed=true") {
		t.Fatalf("trace: %d %s", code, out)
	}
}

// eval run --wait writes JUnit XML (one case per iteration, the failing
// step's reason as the message) and appends a Markdown summary.
func TestEvalRunJUnitAndSummary(t *testing.T) {
	srv, _ := evalServer(t)
	demo := os.Getenv("EVAL_TEST_DEMO_SERVER")
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{demo}, Tests: []evals.Test{
		{Title: "echoes", Model: "openai/gpt-4o-mini", Steps: []evals.Step{
			evals.ToolCallStep("call", "echo", map[string]any{"message": "hi"}),
			evals.AssertCalledWith("check", "echo", nil)}},
		{Title: "adds | sums", Model: "openai/gpt-4o-mini", Steps: []evals.Step{
			evals.ToolCallStep("call", "echo", map[string]any{"message": "hi"}),
			evals.AssertCalledWith("want-add", "add", nil)}},
	}})
	dir := t.TempDir()
	junit, summary := filepath.Join(dir, "eval.xml"), filepath.Join(dir, "summary.md")
	if err := os.WriteFile(summary, []byte("earlier step\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms", "--junit", junit, "--summary", summary)
	if code != 1 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	// The table shows a failed iteration's reason, on one line.
	if !strings.Contains(out, "REASON") || !strings.Contains(out, "step want-add: add was not called") || strings.Count(out, "\n") != 4 {
		t.Errorf("table:\n%s", out)
	}
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(x); !strings.Contains(s, `tests="2" failures="1"`) || !strings.Contains(s, `<testcase name="echoes #1"`) ||
		!strings.Contains(s, `message="step want-add: `) {
		t.Errorf("junit:\n%s", s)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(md); !strings.HasPrefix(s, "earlier step\n") || !strings.Contains(s, "Pass rate **50%**") ||
		!strings.Contains(s, `| adds \| sums | 2 | step want-add:`) {
		t.Errorf("summary:\n%s", s)
	}
	if code, _, errOut := evalCLI(t, "run", "--file", file, "--junit", junit); code != 2 || !strings.Contains(errOut, "need --wait") {
		t.Errorf("--junit without --wait: %d %q", code, errOut)
	}
	// A report path that cannot be written is refused before a run starts.
	before := len(srv.Requests())
	bad := filepath.Join(t.TempDir(), "missing", "r.xml")
	if code, _, errOut := evalCLI(t, "run", "--file", file, "--wait", "--junit", bad); code != 2 || !strings.Contains(errOut, "directory does not exist") {
		t.Errorf("--junit in a missing directory: %d %q", code, errOut)
	}
	// So is a directory given as the file, for either report.
	for _, flag := range []string{"--junit", "--summary"} {
		code, _, errOut := evalCLI(t, "run", "--file", file, "--wait", flag, dir)
		if code != 2 || !strings.Contains(errOut, flag+" "+dir+": is a directory") || !strings.Contains(errOut, "--help") {
			t.Errorf("%s DIRECTORY: %d %q", flag, code, errOut)
		}
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("%d requests sent for a refused invocation", n)
	}
}

// A model the service cannot run is refused at create time; the error's
// hosted models are listed.
func TestEvalRunRejectedModelListsHosted(t *testing.T) {
	evalServer(t)
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{os.Getenv("EVAL_TEST_DEMO_SERVER")}, Tests: []evals.Test{
		{Title: "t", Model: "openai/not-a-model", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}})
	code, _, errOut := evalCLI(t, "run", "--file", file)
	if code != 2 || !strings.Contains(errOut, "valid hosted models: openai/") {
		t.Errorf("exit %d: %q", code, errOut)
	}
}

// An API error is printed once, naming the command, without the SDK's own
// "projectops:" prefix repeated after it.
func TestErrorPrintedOnce(t *testing.T) {
	evalServer(t)
	code, _, errOut := evalCLI(t, "run", "--suite", "evs_nope", "--wait")
	if code != 2 || strings.Count(errOut, "projectops") != 1 || !strings.Contains(errOut, "NOT_FOUND") {
		t.Errorf("exit %d: %q", code, errOut)
	}
}

// Iterations a cancelled or timed-out run left without a verdict did not
// pass: JUnit counts them as failures, as the exit code does; the summary
// names the run's status (not its result, failed, when nothing failed),
// counts them as not finished so its numbers add up, and lists why.
func TestUnfinishedIterationsFailInReports(t *testing.T) {
	t.Parallel()
	run := &evals.Run{ID: "run_1", SuiteID: "evs_1", Status: evals.StatusCancelled}
	iters := []evals.Iteration{
		{ID: "it_1", Title: "a", IterationNumber: 1, Status: evals.StatusCompleted, Result: evals.ResultPassed, DurationMs: new(1206.421)},
		{ID: "it_2", Title: "b", IterationNumber: 1, Status: evals.StatusCancelled},
		{ID: "it_3", Title: "c", IterationNumber: 1, Status: evals.StatusTimedOut, Error: "deadline"},
		{ID: "it_4", Title: "d", IterationNumber: 1, Status: evals.StatusRunning},
	}
	reasons, err := (&evalCmd{}).failReasons(run.ID, iters)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"it_2": "iteration cancelled", "it_3": "iteration timed_out: deadline"}
	if diff := cmp.Diff(want, reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	x, err := junitXML(run, iters, reasons)
	if err != nil {
		t.Fatal(err)
	}
	// Times in whole milliseconds, printed without float noise.
	if s := string(x); !strings.Contains(s, `failures="2"`) || !strings.Contains(s, `<failure message="iteration cancelled">`) ||
		!strings.Contains(s, `time="1.206"`) {
		t.Errorf("junit:\n%s", s)
	}
	run.Result = evals.ResultFailed
	run.Summary = &evals.Summary{Total: 4, Passed: 1}
	var md strings.Builder
	if err := summaryMarkdown(&md, run, iters, reasons); err != nil {
		t.Fatal(err)
	}
	if s := md.String(); !strings.Contains(s, "run_1: 🚫 cancelled") || !strings.Contains(s, "1 passed, 0 failed, 2 not finished of 4") ||
		!strings.Contains(s, "iteration cancelled") {
		t.Errorf("summary:\n%s", s)
	}
}

// An iteration without a trace is an answer, not a failure: its verdicts
// print (an empty list, never null) with a null trace, and the command
// exits 0 with a note on stderr that names the command.
func TestEvalTraceWithoutTrace(t *testing.T) {
	_, _ = evalServer(t)
	demo := os.Getenv("EVAL_TEST_DEMO_SERVER")
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{demo}, Tests: []evals.Test{{
		Title: "echo " + projectopstest.NoTraceMarker, Model: "openai/gpt-4o-mini",
		Steps: []evals.Step{evals.PromptStep("p", "Use echo with message=hi")}}}})
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--json", "--interval", "1ms")
	var res struct {
		Run        evals.Run         `json:"run"`
		Iterations []evals.Iteration `json:"iterations"`
	}
	if json.Unmarshal([]byte(out), &res) != nil || len(res.Iterations) != 1 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = evalCLI(t, "trace", "--json", res.Run.ID, res.Iterations[0].ID)
	var tr struct {
		Steps []evals.StepResult `json:"steps"`
		Trace any                `json:"trace"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &tr) != nil || tr.Steps == nil || tr.Trace != nil ||
		!strings.HasPrefix(errOut, "projectops eval trace: this iteration has no trace") {
		t.Errorf("trace: %d\n%s\n%s", code, out, errOut)
	}
}

// eval trace shows the service's message parts: tool calls and results
// carried in the content list, not only the double's flat tool calls.
func TestPrintTraceShowsContentParts(t *testing.T) {
	var tr evals.Trace
	doc := `{"messages":[{"role":"user","content":"weather?"},{"role":"assistant","content":[{"type":"text","text":"checking"},{"type":"tool-call","toolCallId":"c1","toolName":"weather","input":{"city":"Paris"}}]},
	{"role":"assistant","content":"again","toolCalls":[{"toolName":"weather","arguments":{"city":"Oslo"}}]},
	{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"weather","output":{"type":"json","value":{"t":21}}}]}]}`
	if err := json.Unmarshal([]byte(doc), &tr); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	printTrace(&out, nil, &tr, func(s string) string { return s })
	// Contents aligned after "assistant:"; flat tool calls' arguments as JSON.
	for _, want := range []string{"  user:      weather?", `  assistant: checking [calls weather {"city":"Paris"}]`,
		`  assistant: again [calls weather {"city":"Oslo"}]`, `  tool:      [result of weather: {"type":"json","value":{"t":21}}]`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
}

// `eval iterations --json` on a run with no iterations yet prints [], as
// `eval trace --json` prints its steps, never null.
func TestEvalIterationsJSONEmptyIsArray(t *testing.T) {
	srv, _ := evalServer(t)
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Ingest.StartRun(t.Context(), os.Getenv("PROJECTOPS_PROJECT"), ingest.RunParams{SuiteName: "ci", ExternalRunID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := evalCLI(t, "iterations", "--json", st.RunID)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := strings.TrimSpace(out); got != "[]" {
		t.Errorf("eval iterations --json printed %q for a run with no iterations, want []", got)
	}
}

// The Markdown summary ($GITHUB_STEP_SUMMARY) stays valid UTF-8: a long
// failure reason is cut by characters, not at byte 200.
func TestEvalSummaryCutKeepsUTF8(t *testing.T) {
	run := &evals.Run{ID: "run_1", SuiteID: "evs_1", Status: evals.StatusCompleted, Result: evals.ResultFailed}
	iters := []evals.Iteration{{ID: "it_1", Title: "t", IterationNumber: 1, Status: evals.StatusCompleted, Result: evals.ResultFailed}}
	reason := "x" + strings.Repeat("é", 250) // byte 200 is inside an "é"
	var b bytes.Buffer
	if err := summaryMarkdown(&b, run, iters, map[string]string{"it_1": reason}); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(b.Bytes()) {
		t.Errorf("summary is not valid UTF-8:\n%q", b.String())
	}
	if !strings.Contains(b.String(), "x"+strings.Repeat("é", 199)+"…") {
		t.Errorf("reason not cut at 200 characters:\n%s", b.String())
	}
}

// --wait gives up after --wait-timeout, as the service's own gate does: the
// run goes on, and the command exits 2 saying so. So it does when the
// timeout is shorter than the poll interval (Wait then ends early, with
// context.DeadlineExceeded, while the context has not ended yet).
func TestEvalRunWaitTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{BeforeIteration: func(ctx context.Context, _, _ string) error {
			select { // held until the test ends
			case <-release:
			case <-ctx.Done():
			}
			return nil
		}}))
	t.Cleanup(func() { close(release) })
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	demoID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROJECTOPS_API_KEY", ws.APIKey)
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_PROJECT", ws.ProjectID)
	file := writeTests(t, evals.RunParams{SuiteName: "slow", ServerIDs: []string{demoID}, Tests: []evals.Test{{
		Title: "echo", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "Use echo with message=hi")}}}})
	for _, f := range [][2]string{{"1ms", "200ms"}, {"60s", "5s"}} { // interval, timeout
		code, _, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", f[0], "--wait-timeout", f[1])
		if code != 2 || !strings.Contains(errOut, "stopped waiting after --wait-timeout "+f[1]) || !strings.Contains(errOut, "continues") ||
			!strings.Contains(errOut, "follow it again with: projectops eval status --base-url "+base+" --project "+ws.ProjectID+" --wait run_") {
			t.Errorf("--interval %s --wait-timeout %s: exit %d, stderr %q", f[0], f[1], code, errOut)
		}
	}
}

// --wait-timeout is refused negative, and without --wait (it would do
// nothing), before any run is created.
func TestEvalRunWaitTimeoutUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--suite", "evs_1", "--wait", "--wait-timeout", "-1s"},
		{"run", "--suite", "evs_1", "--wait-timeout", "5m"},
	} {
		if code, _, errOut := evalCLI(t, args...); code != 2 || !strings.Contains(errOut, "--wait-timeout") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// Over the organization's concurrent-run cap, eval run says what lifts
// it (the error is not retried: it lifts when a run ends).
func TestEvalRunConcurrentLimitHint(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0),
		projectopstest.WithEvalConcurrency(1), projectopstest.WithEvalStepDelay(time.Minute))
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	demoID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo",
		MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROJECTOPS_API_KEY", ws.APIKey)
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_PROJECT", ws.ProjectID)
	file := writeTests(t, evals.RunParams{SuiteName: "cap", ServerIDs: []string{demoID},
		Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "x")}}}})
	if code, _, errOut := evalCLI(t, "run", "--file", file); code != 0 {
		t.Fatalf("first run: %d %q", code, errOut)
	}
	code, _, errOut := evalCLI(t, "run", "--file", file)
	if code != 2 || !strings.Contains(errOut, "CONCURRENT_RUN_LIMIT") || !strings.Contains(errOut, "cancel one") {
		t.Errorf("over the cap: %d %q", code, errOut)
	}
}

// --wait's exit status follows the run's result, which its pass criteria
// decide: a run that reaches them exits 0 though an iteration failed to set
// up (the run completes, as the service's does).
func TestEvalRunPassCriteriaDecideExit(t *testing.T) {
	evalServer(t)
	serverID := os.Getenv("EVAL_TEST_DEMO_SERVER")
	bad := evals.ToolCallStep("c", "echo", map[string]any{"message": "hi"})
	bad.ServerName = "nope"
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{serverID},
		PassCriteria: &evals.PassCriteria{MinimumPassRate: 50}, Tests: []evals.Test{
			{Title: "fails", Model: "openai/gpt-4o-mini", Steps: []evals.Step{bad}},
			{Title: "passes", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "Use echo with message=hi")}},
		}})
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms")
	if code != 0 || !strings.Contains(out, "completed: passed (1 passed, 1 failed of 2") {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
}
