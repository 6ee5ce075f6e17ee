package projectops_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/projectopstest"
)

// newDouble starts the in-memory double with its demo workspace; examples
// run against it so they need no key.
func newDouble() *projectopstest.Server {
	srv, err := projectopstest.NewServer(projectopstest.WithSeed(projectopstest.DemoSeed()))
	if err != nil {
		log.Fatal(err)
	}
	return srv
}

// Build a client. In production the key and base URL usually come from
// PROJECTOPS_API_KEY and PROJECTOPS_BASE_URL; here they point at the double.
func ExampleNewClient() {
	srv := newDouble()
	defer srv.Close()

	client, err := projectops.NewClient(
		option.WithAPIKey(projectopstest.DemoOwnerKey),
		option.WithBaseURL(srv.URL()),
		option.WithTransport(srv.Transport()), // in process; omit for a real network
		option.WithMaxRetries(2),
		option.WithRetryBackoff(200*time.Millisecond, 2*time.Second),
	)
	if err != nil {
		log.Fatal(err)
	}
	me, err := client.Catalog.Me(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(me.Name)
	// Output: Olive Owner
}

// Bad options are errors, never panics.
func ExampleNewClient_badKey() {
	_, err := projectops.NewClient(option.WithAPIKey("not-a-key"))
	fmt.Println(err)
	// Output: projectops: VALIDATION_ERROR: API key must start with "sk_"
}

// Match errors on their code and reason with errors.Is, and read the
// details with errors.As.
func ExampleError() {
	srv := newDouble()
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}

	_, err = client.Hosts.Get(context.Background(), "prj_demo", "hst_missing")
	if errors.Is(err, projectops.ErrNotFound) {
		var e *projectops.Error
		errors.As(err, &e)
		fmt.Println(e.StatusCode, e.Code, e.Temporary())
	}
	// Output: 404 NOT_FOUND false
}

// Range over every item of a listing; pages (here of one item each) are
// fetched lazily as the loop goes.
func ExampleClient_iteration() {
	srv := newDouble()
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	for s, err := range client.Catalog.AllChatSessions(ctx, &catalog.ChatSessionsParams{ProjectID: "prj_demo", Limit: 1}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s (%s)\n", s.Title, s.Visibility)
	}
	// Output:
	// Welcome chat (private)
	// Team triage (project)
}
