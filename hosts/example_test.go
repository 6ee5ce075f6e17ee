package hosts_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

// Create a host from a built-in template, rename it, and delete it.
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

	h, err := client.Hosts.Create(ctx, projectID, hosts.CreateParams{
		Name: "Support", Template: hosts.TemplateClaude, Theme: hosts.ThemeDark,
	})
	if err != nil {
		log.Fatal(err)
	}
	h, err = client.Hosts.Update(ctx, projectID, h.ID, hosts.UpdateParams{Name: "Support (dark)"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h.Name)

	if _, err := client.Hosts.Delete(ctx, projectID, h.ID, nil); err != nil {
		log.Fatal(err)
	}
	_, err = client.Hosts.Get(ctx, projectID, h.ID)
	fmt.Println(errors.Is(err, projectops.ErrNotFound))
	// Output:
	// Support (dark)
	// true
}

// A host still used by an eval suite is deleted only with Force.
func ExampleService_Delete() {
	srv, err := projectopstest.NewServer(projectopstest.WithSeed(projectopstest.DemoSeed()))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	_, err = client.Hosts.Delete(ctx, "prj_demo", "hst_claude", nil)
	fmt.Println(errors.Is(err, projectops.ErrValidation))

	del, err := client.Hosts.Delete(ctx, "prj_demo", "hst_claude", &hosts.DeleteParams{Force: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(del.ID, del.Deleted)
	// Output:
	// true
	// hst_claude true
}

// Update replaces a host's config as a whole, so a partial config is
// refused: to change one field, read the config, change it and send it all
// back.
func ExampleService_Update_config() {
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
	h, err := client.Hosts.Create(ctx, projectID, hosts.CreateParams{Name: "Support", Template: hosts.TemplateClaude})
	if err != nil {
		log.Fatal(err)
	}

	partial := hosts.MustConfig(map[string]any{"modelId": h.Config.ModelID(), "systemPrompt": "Be brief."})
	_, err = client.Hosts.Update(ctx, projectID, h.ID, hosts.UpdateParams{Config: partial})
	if e, ok := errors.AsType[*projectops.Error](err); ok {
		fmt.Println(e.Code, e.Message)
	}

	m, err := h.Config.Map()
	if err != nil {
		log.Fatal(err)
	}
	m["systemPrompt"] = "Be brief."
	cfg, err := hosts.NewConfig(m)
	if err != nil {
		log.Fatal(err)
	}
	h, err = client.Hosts.Update(ctx, projectID, h.ID, hosts.UpdateParams{Config: cfg})
	if err != nil {
		log.Fatal(err)
	}
	var got struct {
		SystemPrompt string  `json:"systemPrompt"`
		Temperature  float64 `json:"temperature"`
	}
	if err := h.Config.Decode(&got); err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.SystemPrompt, got.Temperature)
	// Output:
	// VALIDATION_ERROR hostConfigV2: temperature must be finite
	// Be brief. 1
}
