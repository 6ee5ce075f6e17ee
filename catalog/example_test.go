package catalog_test

import (
	"context"
	"fmt"
	"log"

	"github.com/projectops/projectops-go/catalog"

	"github.com/projectops/projectops-go/option"

	"github.com/projectops/projectops-go/projectopstest"
)

// The host catalog is public: a client without a key can read it.
func ExampleService_HostCatalog() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	// A program that needs only the catalog builds it alone, from the
	// options a Client takes, and links no other service.
	svc, err := catalog.NewService(option.WithoutEnvironment(),
		option.WithBaseURL(srv.URL()), option.WithTransport(srv.Transport()))
	if err != nil {
		log.Fatal(err)
	}
	cat, err := svc.HostCatalog(context.Background())
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
	client, err := srv.NewClient(option.WithAPIKey(projectopstest.DemoMemberKey))
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
