package projectopstest_test

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// TestFaultLatencyEndsWhenClientLeaves: a POST waiting out a fault's
// latency stops when its client goes away, and never runs afterwards: no
// host is created.
func TestFaultLatencyEndsWhenClientLeaves(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	srv.SetFault("POST /projects/{projectId}/hosts", projectopstest.Fault{Latency: time.Hour})
	c, prefix := dialRaw(t, srv)
	body := `{"name":"h","template":"claude"}`
	_, err := io.WriteString(c, "POST "+prefix+"/projects/"+ws.ProjectID+"/hosts HTTP/1.1\r\nHost: x\r\n"+
		"Authorization: Bearer "+ws.APIKey+"\r\nContent-Type: application/json\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n"+body)
	if err != nil {
		t.Fatal(err)
	}
	// Another round trip lets the server pick the POST up (one goroutine
	// per connection) before its client leaves.
	other, _ := dialRaw(t, srv)
	if _, err := io.WriteString(other, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(other), nil); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	c.Close()
	deadline := time.Now().Add(guard)
	for !posted(srv) {
		if time.Now().After(deadline) {
			t.Fatal("the POST is still waiting out its latency after its client left")
		}
		time.Sleep(10 * time.Millisecond)
	}
	srv.ClearFaults()
	var page rawPage
	inproc(srv).call(t, "GET", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, nil).decode(t, &page)
	for _, h := range page.Items {
		if h["name"] == "h" {
			t.Errorf("the departed client's POST ran: %v", h)
		}
	}
}

// posted reports whether the request log holds a finished hosts POST.
func posted(srv *projectopstest.Server) bool {
	for _, r := range srv.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/hosts") {
			return true
		}
	}
	return false
}
