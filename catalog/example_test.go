package catalog_test

import (
	"context"
	"fmt"
	"log"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

// The host catalog is public: a client without a key can read it.
func ExampleService_HostCatalog() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := projectops.NewClient(projectops.WithoutEnvironment(),
		projectops.WithBaseURL(srv.URL()), projectops.WithTransport(srv.Transport()))
	if err != nil {
		log.Fatal(err)
	}
	cat, err := client.Catalog.HostCatalog(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cat.Source, cat.Catalog.HostsByID["claude"].Label)
	// Output: bundled Claude
}

// List the projects the key can reach, with the caller's role.
func ExampleService_AllProjects() {
	srv, err := projectopstest.NewServer(projectopstest.WithSeed(projectopstest.DemoSeed()))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient(projectops.WithAPIKey(projectopstest.DemoMemberKey))
	if err != nil {
		log.Fatal(err)
	}
	for p, err := range client.Catalog.AllProjects(context.Background(), nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(p.ID, p.Name, p.Role)
	}
	// Output: prj_demo Demo Project member
}
