package projectopstest_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// An upload URL's token is its credential: the double keeps it out of
// error messages, the request log and the debug log whatever the method
// or the rest of the path.
func TestUploadTokenNeverEchoed(t *testing.T) {
	t.Parallel()
	var logbuf bytes.Buffer
	srv := projectopstest.NewTestServer(t, projectopstest.WithLogger(slog.New(
		slog.NewTextHandler(&logbuf, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	u, err := c.Ingest.UploadURL(context.Background(), srv.Default().ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	token := u.UploadURL[strings.LastIndex(u.UploadURL, "/")+1:]
	hc := srv.Client()
	for _, tc := range []struct{ method, url string }{
		{"GET", u.UploadURL},
		{"PUT", u.UploadURL},
		{"POST", u.UploadURL + "/."},
		{"POST", u.UploadURL + "/x"},
		{"POST", strings.Replace(u.UploadURL, "/eval-ingest-uploads/", "/eval-ingest-uploads//", 1)},
	} {
		req, _ := http.NewRequest(tc.method, tc.url, strings.NewReader("x"))
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), token) {
			t.Errorf("%s %s: response body echoes the upload token: %s", tc.method, strings.ReplaceAll(tc.url, token, "<TOKEN>"),
				strings.ReplaceAll(string(b), token, "<TOKEN>"))
		}
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, token) {
			t.Errorf("request log keeps the token: %s %s", r.Method, strings.ReplaceAll(r.Path, token, "<TOKEN>"))
		}
	}
	if strings.Contains(logbuf.String(), token) {
		t.Errorf("debug log has the token:\n%s", strings.ReplaceAll(logbuf.String(), token, "<TOKEN>"))
	}
}
