package projectopstest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// The double serves the API in process: requests sent through Client never
// touch a socket.
func ExampleServer() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	ws := srv.Default()

	req, _ := http.NewRequestWithContext(context.Background(), "GET", srv.URL()+"/me", nil)
	req.Header.Set("Authorization", "Bearer "+ws.APIKey)
	resp, err := srv.Client().Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var me struct{ ID, Email string }
	_ = json.NewDecoder(resp.Body).Decode(&me)
	fmt.Println(resp.StatusCode, me.ID, me.Email)
	// Output: 200 usr_1 owner@example.com
}

// SetFault makes a route fail the way the real service can, here with a
// rate limit that says when it lifts.
func ExampleServer_SetFault() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	srv.SetFault("GET /projects/{projectId}/hosts", projectopstest.Fault{
		Code: shared.CodeRateLimited, RetryAfter: 3e9, Times: 1,
	})
	ws := srv.Default()
	for range 2 {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", srv.URL()+"/projects/"+ws.ProjectID+"/hosts", nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		resp, err := srv.Client().Do(req)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), string(body))
	}
	// Output:
	// 429 3 {"code":"RATE_LIMITED","message":"Too Many Requests"}
	// 200  {"items":[]}
}

// A seed describes a whole workspace; DemoSeed is the one `projectops serve`
// uses by default.
func ExampleWithSeed() {
	srv, err := projectopstest.NewServer(projectopstest.WithSeed(projectopstest.DemoSeed()))
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	fmt.Println(srv.Default())
	// Output: Workspace{Org:org_demo User:usr_owner Project:prj_demo Key:key_owner [REDACTED]}
}
