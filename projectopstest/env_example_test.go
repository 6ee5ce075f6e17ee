package projectopstest_test

import (
	"context"
	"fmt"
	"log"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

// Hold a build with a build hook to observe it mid-way, then inspect the
// computer booted from it.
func ExampleWithBuildHook() {
	steps := make(chan projectopstest.BuildStep)
	release := make(chan struct{})
	hook := func(ctx context.Context, s projectopstest.BuildStep) error {
		steps <- s
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	srv, err := projectopstest.NewServer(projectopstest.WithBuildHook(hook))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx, ws := context.Background(), srv.Default()

	env, err := client.Environments.Create(ctx, ws.ProjectID, environments.CreateParams{
		Name: "tools", Dockerfile: "FROM alpine:3.20@sha256:d3dfed77bb64d7d29a735783a2a90e9a1979dacbe1b8dead996d9ebc78544336\nRUN apk add jq\n"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Environments.Build(ctx, ws.ProjectID, env.ID); err != nil {
		log.Fatal(err)
	}
	for s := range 3 {
		step := <-steps // the build waits here until released
		if s == 2 {
			b, _ := client.Environments.Get(ctx, ws.ProjectID, env.ID)
			fmt.Println(b.CurrentBuild.Status, "before", step.Instruction)
		}
		release <- struct{}{}
	}
	srv.Wait()

	if err := srv.InstallOnComputer(ws.ProjectID, ws.UserID, "left-over"); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Environments.Boot(ctx, ws.ProjectID, env.ID); err != nil {
		log.Fatal(err)
	}
	srv.Wait()
	c, _ := srv.Computer(ws.ProjectID, ws.UserID)
	fmt.Println(c.Status, c.EnvironmentID == env.ID, len(c.Installed))
	// Output:
	// building before RUN apk add jq
	// running true 0
}
