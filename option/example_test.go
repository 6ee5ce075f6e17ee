package option_test

import (
	"context"
	"fmt"
	"time"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// Per-call options go after a method's own arguments: here a timeout and
// the response's metadata and body.
func ExampleWithResponseInto() {
	srv, _ := projectopstest.NewServer()
	defer srv.Close()
	client, _ := srv.NewClient()

	var meta option.Response
	page, err := client.Hosts.List(context.Background(), srv.Default().ProjectID, nil,
		option.WithRequestTimeout(5*time.Second), option.WithResponseInto(&meta))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(page.Items), meta.StatusCode, meta.Attempts, meta.RequestID != "")
	fmt.Println(string(meta.Body)) // as sent: fields the types do not model are here too
	// Output:
	// 0 200 1 true
	// {"items":[]}
}
