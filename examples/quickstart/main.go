// Command quickstart tours the API. With no PROJECTOPS_API_KEY it starts the
// in-memory double in process (no key, no network needed) and walks the
// catalog and the host lifecycle; with a key it runs the same read-only
// steps against the configured service.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// run is the whole tour; getenv decides the mode.
func run(ctx context.Context, w io.Writer, getenv func(string) string) error {
	if getenv(option.EnvAPIKey) != "" {
		client, err := projectops.NewClient() // key and base URL from the environment
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "projectops quickstart: read-only tour of %s\n", client.BaseURL())
		_, err = tour(ctx, w, client)
		return err
	}

	// The demo workspace of `projectops serve`, in process. Its rate limit is
	// raised so the tour does not pause; the service's is 60/min, burst 10.
	srv, err := projectopstest.NewServer(
		projectopstest.WithSeed(projectopstest.DemoSeed()),
		projectopstest.WithRateLimit(600, 50),
	)
	if err != nil {
		return err
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "projectops quickstart: no PROJECTOPS_API_KEY, so against the embedded double (in process)")
	projectID, err := tour(ctx, w, client)
	if err != nil {
		return err
	}
	if err := serverTour(ctx, w, client, projectID); err != nil {
		return err
	}
	if err := hostLifecycle(ctx, w, client, projectID); err != nil {
		return err
	}
	if err := evalTour(ctx, w, client, projectID); err != nil {
		return err
	}
	return ingestTour(ctx, w, client, projectID)
}

// tour runs the read-only steps and returns the first project's id.
func tour(ctx context.Context, w io.Writer, client *projectops.Client) (string, error) {
	me, err := client.Catalog.Me(ctx)
	if err != nil {
		return "", fmt.Errorf("me: %w", err)
	}
	fmt.Fprintf(w, "me: %s <%s>\n", me.Name, me.Email)

	cat, err := client.Catalog.HostCatalog(ctx)
	if err != nil {
		return "", fmt.Errorf("host catalog: %w", err)
	}
	fmt.Fprintf(w, "host catalog: %d hosts (source %s)\n", len(cat.Catalog.HostsByID), cat.Source)

	var projectID string
	for p, err := range client.Catalog.AllProjects(ctx, nil) {
		if err != nil {
			return "", fmt.Errorf("projects: %w", err)
		}
		fmt.Fprintf(w, "project: %s %q (role %s)\n", p.ID, p.Name, p.Role)
		if projectID == "" {
			projectID = p.ID
		}
	}
	if projectID == "" {
		fmt.Fprintln(w, "no project to explore")
		return "", nil
	}

	n := 0
	for s, err := range client.Catalog.AllChatSessions(ctx, &catalog.ChatSessionsParams{Limit: 10}) {
		if err != nil {
			return "", fmt.Errorf("chat sessions: %w", err)
		}
		if n++; n <= 3 {
			fmt.Fprintf(w, "chat session: %q (%s)\n", s.Title, s.Visibility)
		}
	}
	fmt.Fprintf(w, "chat sessions: %d\n", n)

	for s, err := range client.Servers.All(ctx, projectID, nil) {
		if err != nil {
			return "", fmt.Errorf("servers: %w", err)
		}
		fmt.Fprintf(w, "server: %s %q over %s\n", s.ID, s.Name, s.TransportType)
	}
	for c, err := range client.Catalog.AllChatboxes(ctx, projectID, nil) {
		if err != nil {
			return "", fmt.Errorf("chatboxes: %w", err)
		}
		fmt.Fprintf(w, "chatbox: %s %q with %d server(s)\n", c.ID, c.Name, c.ServerCount)
	}
	for h, err := range client.Hosts.All(ctx, projectID, nil) {
		if err != nil {
			return "", fmt.Errorf("hosts: %w", err)
		}
		fmt.Fprintf(w, "host: %s %q model %s\n", h.ID, h.Name, h.ModelID)
	}
	return projectID, nil
}

// hostLifecycle creates a host from a template, updates, lists and deletes it.
func hostLifecycle(ctx context.Context, w io.Writer, client *projectops.Client, projectID string) error {
	h, err := client.Hosts.Create(ctx, projectID, hosts.CreateParams{
		Name: "Quickstart host", Template: hosts.TemplateClaude, Theme: hosts.ThemeLight,
	})
	if err != nil {
		return fmt.Errorf("create host: %w", err)
	}
	fmt.Fprintf(w, "created host %s %q from template claude (model %s)\n", h.ID, h.Name, h.Config.ModelID())

	h, err = client.Hosts.Update(ctx, projectID, h.ID, hosts.UpdateParams{Name: "Quickstart host (renamed)"})
	if err != nil {
		return fmt.Errorf("update host: %w", err)
	}
	fmt.Fprintf(w, "renamed host %s to %q\n", h.ID, h.Name)

	page, err := client.Hosts.List(ctx, projectID, nil)
	if err != nil {
		return fmt.Errorf("list hosts: %w", err)
	}
	fmt.Fprintf(w, "project %s now has %d hosts\n", projectID, len(page.Items))

	del, err := client.Hosts.Delete(ctx, projectID, h.ID, nil)
	if err != nil {
		return fmt.Errorf("delete host: %w", err)
	}
	fmt.Fprintf(w, "deleted host %s: %v\n", del.ID, del.Deleted)
	return nil
}
