package environments_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

// Create an environment, build it, wait for the build, and boot the
// caller's computer from it.
func Example() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	projectID := srv.Default().ProjectID

	// The base is an official image pinned by digest (the service's rule;
	// the double takes any digest, the service the image's real one).
	env, err := client.Environments.Create(ctx, projectID, environments.CreateParams{
		Name:       "scraper",
		Dockerfile: "FROM debian:bookworm-slim@sha256:12f2bc40491f9f7b029e375c38f2ecef73006e86ca71ea9321b3cf777df92ba8\nRUN apt-get update && apt-get install -y curl\n",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(env.Name, env.Sharing)

	started, err := client.Environments.Build(ctx, projectID, env.ID)
	if err != nil {
		log.Fatal(err)
	}
	build, err := client.Environments.WaitForBuild(ctx, projectID, env.ID, started.BuildID, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(build.Status, len(build.BaseImageDigests), "base image")

	attached, err := client.Environments.Boot(ctx, projectID, env.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(attached.Status)
	// Output:
	// scraper user
	// ready 1 base image
	// provisioning
}

// A build that fails says why, both in the error and in the build's log.
func ExampleService_WaitForBuild() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	projectID := srv.Default().ProjectID

	env, err := client.Environments.Create(ctx, projectID, environments.CreateParams{
		Name: "broken", Dockerfile: "FROM alpine:3.20@sha256:d3dfed77bb64d7d29a735783a2a90e9a1979dacbe1b8dead996d9ebc78544336\nRUN exit 1\n",
	})
	if err != nil {
		log.Fatal(err)
	}
	started, err := client.Environments.Build(ctx, projectID, env.ID)
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Environments.WaitForBuild(ctx, projectID, env.ID, started.BuildID, environments.WithProgress(func(b *environments.Build) {
		if b.Status.Terminal() {
			fmt.Println("build", b.Status)
		}
	}))
	var failed *environments.BuildError
	if errors.As(err, &failed) {
		fmt.Println(failed.Build.Error)
	}
	// Output:
	// build failed
	// line 2: RUN exit 1: exited with code 1
}

// Boot refuses an environment that has no ready build.
func ExampleService_Boot() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	projectID := srv.Default().ProjectID

	env, err := client.Environments.Create(ctx, projectID, environments.CreateParams{
		Name: "unbuilt", Dockerfile: "FROM alpine:3.20@sha256:d3dfed77bb64d7d29a735783a2a90e9a1979dacbe1b8dead996d9ebc78544336\n",
	})
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Environments.Boot(ctx, projectID, env.ID)
	fmt.Println(errors.Is(err, projectops.ErrValidation)) // the message says why
	// Output: true
}

// Share a draft with the project (project admins only), then list what
// the project sees.
func ExampleService_Share() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	projectID := srv.Default().ProjectID

	for _, name := range []string{"python", "node"} {
		if _, err := client.Environments.Create(ctx, projectID, environments.CreateParams{
			Name: name, Dockerfile: "FROM " + name + "@sha256:d3dfed77bb64d7d29a735783a2a90e9a1979dacbe1b8dead996d9ebc78544336\n",
		}); err != nil {
			log.Fatal(err)
		}
	}
	page, err := client.Environments.List(ctx, projectID, nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Environments.Share(ctx, projectID, page.Items[0].ID); err != nil {
		log.Fatal(err)
	}
	for env, err := range client.Environments.All(ctx, projectID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(env.Name, env.Sharing)
	}
	// Output:
	// python project
	// node user
}
