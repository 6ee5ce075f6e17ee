package evals_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// weatherServer is a real MCP server served in process by the double.
func weatherServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "forecast", Description: "Forecast for a city"},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			City string `json:"city"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sunny in " + in.City}}}, nil, nil
		})
	return s
}

// Author a suite against an in-process MCP server, run it, wait for the
// verdict and read what happened.
func Example() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	projectID := srv.Default().ProjectID
	serverID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: projectID, Name: "weather", MCPServer: weatherServer()})
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	suite, err := client.Evals.Suites.Create(ctx, projectID, evals.CreateSuiteParams{
		Name: "weather smoke", ServerIDs: []string{serverID}, Model: "anthropic/claude-haiku-4.5",
		Tests: []evals.Test{{
			Title: "asks for the forecast", Runs: 2,
			Steps: []evals.Step{
				evals.PromptStep("ask", "What is the forecast for city=Paris?"),
				evals.AssertCalledWith("check", "forecast", map[string]any{"city": "Paris"}),
			},
		}},
	})
	if err != nil {
		log.Fatal(err)
	}
	created, err := client.Evals.Runs.Create(ctx, projectID, evals.RunParams{SuiteID: suite.SuiteID})
	if err != nil {
		log.Fatal(err)
	}
	run, err := client.Evals.Runs.Wait(ctx, projectID, created.RunID, evals.WithPollInterval(10*time.Millisecond, time.Second))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Status, run.Result, run.Summary.Passed, "of", run.Summary.Total)

	for it, err := range client.Evals.Runs.AllIterations(ctx, projectID, run.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		steps, err := client.Evals.Runs.ListSteps(ctx, projectID, run.ID, it.ID, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(it.IterationNumber, it.ActualToolCalls[0].ToolName, it.ActualToolCalls[0].Arguments["city"], steps.Items[1].Status)
	}
	// Output:
	// completed passed 2 of 2
	// 1 forecast Paris ok
	// 2 forecast Paris ok
}

// Run inline tests as a new suite, report progress while waiting, and read
// an iteration's trace.
func ExampleRunService_Wait() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	projectID := srv.Default().ProjectID
	serverID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: projectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	created, err := client.Evals.Runs.Create(ctx, projectID, evals.RunParams{
		SuiteName: "echo", ServerIDs: []string{serverID},
		Tests: []evals.Test{{Title: "echoes", Model: "openai/gpt-4o-mini", Steps: []evals.Step{
			evals.ToolCallStep("call", "echo", map[string]any{"message": "hello"}),
		}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	var lastStatus evals.Status
	run, err := client.Evals.Runs.Wait(ctx, projectID, created.RunID,
		evals.WithPollInterval(5*time.Millisecond, time.Second),
		evals.WithProgress(func(r *evals.Run) { lastStatus = r.Status }))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Passed(), lastStatus)
	page, err := client.Evals.Runs.ListIterations(ctx, projectID, run.ID, &evals.IterationsParams{Limit: 1})
	if err != nil {
		log.Fatal(err)
	}
	trace, err := client.Evals.Runs.Trace(ctx, projectID, run.ID, page.Items[0].ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(trace.Messages[0].Role, trace.Messages[0].Content)
	// Output:
	// true completed
	// tool Echo: hello
}

// Errors worth acting on are matched with errors.Is and inspected with
// errors.As.
func ExampleRunService_Create_errors() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	projectID := srv.Default().ProjectID
	serverID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: projectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Evals.Runs.Create(context.Background(), projectID, evals.RunParams{
		SuiteName: "s", ServerIDs: []string{serverID},
		Tests: []evals.Test{{Title: "t", Model: "anthropic/claude-opus-99", Steps: []evals.Step{evals.PromptStep("p", "hi")}}},
	})
	var e *projectops.Error
	if errors.As(err, &e) && errors.Is(err, projectops.ErrValidation) {
		fmt.Println("use one of:", e.HostedModels)
	}
	// Output:
	// use one of: [anthropic/claude-haiku-4.5 anthropic/claude-opus-4.5 anthropic/claude-sonnet-4.5 anthropic/claude-opus-4.6-fast anthropic/claude-sonnet-4.6 anthropic/claude-sonnet-5 anthropic/claude-opus-4.6 anthropic/claude-opus-4.7 anthropic/claude-fable-5]
}
