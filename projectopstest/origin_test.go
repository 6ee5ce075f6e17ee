package projectopstest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// TestMintedURLsUseTheRequestHost: an upload URL names the host the client
// reached the double by, as tunnel URLs do, so a client on another machine
// of a double bound to all interfaces can use it; it named the listen
// address ("[::]:port", which is no address to connect to).
func TestMintedURLsUseTheRequestHost(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	base, err := srv.StartAt("0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") || base != srv.URL() {
		t.Errorf("base URL of a wildcard bind = %s (URL %s), want a loopback URL a local client can dial", base, srv.URL())
	}
	req, err := http.NewRequest(http.MethodPost, base+"/projects/"+ws.ProjectID+"/eval-ingest/artifacts/upload-url", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "double.example:8080" // the name another machine knows it by
	req.Header.Set("Authorization", "Bearer "+ws.APIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var up struct{ UploadURL string }
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &up) != nil {
		t.Fatalf("upload-url: %d %s", resp.StatusCode, b)
	}
	if !strings.HasPrefix(up.UploadURL, "http://double.example:8080/api/v1/eval-ingest-uploads/") {
		t.Errorf("uploadUrl = %s, want it on the host the request used", up.UploadURL)
	}
}
