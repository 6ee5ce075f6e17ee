package option_test

import (
	"context"
	"fmt"
	"net/http"
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

// A call's WithHeader replaces the client's value of that header for the
// call alone; WithHeaderAdd adds a value to it and WithHeaderDel drops it.
func ExampleWithHeader() {
	srv, _ := projectopstest.NewServer()
	defer srv.Close()
	sent := &lastHeader{next: srv.Transport()}
	client, _ := srv.NewClient(option.WithTransport(sent), option.WithHeader("X-Trace-Id", "client-default"))
	project := srv.Default().ProjectID

	for _, opt := range []option.RequestOption{
		nil, // the client's headers alone
		option.WithHeader("X-Trace-Id", "this-call"),
		option.WithHeaderAdd("X-Trace-Id", "this-call"),
		option.WithHeaderDel("X-Trace-Id"),
	} {
		if _, err := client.Hosts.List(context.Background(), project, nil, opt); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%q\n", sent.header.Values("X-Trace-Id"))
	}
	// Output:
	// ["client-default"]
	// ["this-call"]
	// ["client-default" "this-call"]
	// []
}

// lastHeader keeps the header of the last request sent through it.
type lastHeader struct {
	next   http.RoundTripper
	header http.Header
}

func (l *lastHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	l.header = r.Header.Clone()
	return l.next.RoundTrip(r)
}
