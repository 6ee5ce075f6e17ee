package projectopstest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// evalFix is a double with a real in-process MCP server ("demo": echo, add,
// broken, block) saved in the default project, and an SDK client.
type evalFix struct {
	srv      *projectopstest.Server
	ws       projectopstest.Workspace
	c        *projectops.Client
	serverID string
	finished chan string       // run ids, as RunFinished reports them
	blocked  chan string       // a "block" tool call started (its arg "tag")
	unblock  chan struct{}     // closed to let "block" calls return early
	calls    chan blockOutcome // how each "block" call ended
}

type blockOutcome struct {
	tag       string
	cancelled bool // the call's context ended (in-flight MCP call stopped)
}

type echoIn struct {
	Message string `json:"message" jsonschema:"the text to echo"`
}

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type blockIn struct {
	Tag string `json:"tag"`
}

func newEvalFix(t *testing.T, opts ...projectopstest.Option) *evalFix {
	t.Helper()
	f := &evalFix{finished: make(chan string, 256), blocked: make(chan string, 64),
		unblock: make(chan struct{}), calls: make(chan blockOutcome, 64)}
	base := []projectopstest.Option{projectopstest.WithRateLimit(0, 0),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{RunFinished: func(id string, _ evals.Status) { f.finished <- id }})}
	f.srv = projectopstest.NewTestServer(t, append(base, opts...)...)
	f.ws = f.srv.Default()
	m := mcp.NewServer(&mcp.Implementation{Name: "demo", Version: "1.0.0"}, nil)
	mcp.AddTool(m, &mcp.Tool{Name: "echo", Description: "Echo a message"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	mcp.AddTool(m, &mcp.Tool{Name: "add", Description: "Add two integers"},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	mcp.AddTool(m, &mcp.Tool{Name: "broken", Description: "Always reports an error"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "broken"}}}, nil, nil
		})
	mcp.AddTool(m, &mcp.Tool{Name: "block", Description: "Blocks until cancelled"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in blockIn) (*mcp.CallToolResult, any, error) {
			f.blocked <- in.Tag
			select {
			case <-ctx.Done():
				f.calls <- blockOutcome{tag: in.Tag, cancelled: true}
				return nil, nil, ctx.Err()
			case <-f.unblock:
				f.calls <- blockOutcome{tag: in.Tag}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "unblocked"}}}, nil, nil
			}
		})
	id, err := f.srv.AddServer(projectopstest.ServerSpec{ProjectID: f.ws.ProjectID, Name: "demo", MCPServer: m})
	if err != nil {
		t.Fatal(err)
	}
	f.serverID = id
	if f.c, err = f.srv.NewClient(); err != nil {
		t.Fatal(err)
	}
	return f
}

// awaitRun blocks until the engine reports runID terminal.
func (f *evalFix) awaitRun(t *testing.T, runID string) *evals.Run {
	t.Helper()
	timeout := time.After(20 * time.Second) // a failure guard, not synchronisation
	for {
		select {
		case id := <-f.finished:
			if id != runID {
				continue
			}
			run, err := f.c.Evals.Runs.Get(t.Context(), f.ws.ProjectID, runID)
			if err != nil {
				t.Fatal(err)
			}
			return run
		case <-timeout:
			t.Fatalf("run %s did not finish", runID)
		}
	}
}

// awaitBlocked waits for a "block" tool call to start.
func (f *evalFix) awaitBlocked(t *testing.T) string {
	t.Helper()
	select {
	case tag := <-f.blocked:
		return tag
	case <-time.After(20 * time.Second):
		t.Fatal("no block call started")
		return ""
	}
}

func echoTest(title, msg string) evals.Test {
	return evals.Test{Title: title, Steps: []evals.Step{
		evals.PromptStep("ask", "Use the echo tool with message="+msg),
		evals.AssertCalledWith("check", "echo", map[string]any{"message": msg}),
	}}
}

// create starts a run of tests as a new suite.
func (f *evalFix) create(t *testing.T, p evals.RunParams) *evals.RunCreated {
	t.Helper()
	if p.SuiteID == "" && p.SuiteName == "" {
		p.SuiteName = "suite " + t.Name()
	}
	if p.SuiteID == "" && p.ServerIDs == nil {
		p.ServerIDs = []string{f.serverID}
	}
	for i := range p.Tests {
		if p.Tests[i].Model == "" {
			p.Tests[i].Model = "anthropic/claude-haiku-4.5"
		}
	}
	rc, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, p)
	if err != nil {
		t.Fatalf("create run: %v", err)
	}
	return rc
}

// runOne runs test alone, once, and returns its iteration and step
// verdicts once the run is terminal.
func (f *evalFix) runOne(t *testing.T, test evals.Test) (evals.Iteration, []evals.StepResult) {
	t.Helper()
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{test}})
	f.awaitRun(t, rc.RunID)
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil || len(iters) != 1 {
		t.Fatalf("iterations = %+v, %v", iters, err)
	}
	steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(t.Context(), f.ws.ProjectID, rc.RunID, iters[0].ID, nil))
	if err != nil || len(steps) != len(test.Steps) {
		t.Fatalf("steps = %+v, %v", steps, err)
	}
	return iters[0], steps
}

// jsonBody encodes v as a request body.
func jsonBody(t *testing.T, v any) io.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}

// items unwraps a page for tests that want its items.
func items[T any](p *shared.Page[T], err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	return p.Items, nil
}

// closeOnce returns a func that closes ch the first time it is called and
// does nothing after: a handler the double may call more than once must
// not panic closing its signal twice.
func closeOnce(ch chan struct{}) func() {
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}
