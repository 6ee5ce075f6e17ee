package projectopstest_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// lockedBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestUploadTokenNotLogged: a minted upload URL is a capability (no key
// needed), so its token appears neither in Requests nor in the debug log.
func TestUploadTokenNotLogged(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithLogger(
		slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ws := srv.Default()
	tg := inproc(srv)
	var up struct {
		UploadURL string `json:"uploadUrl"`
	}
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/artifacts/upload-url", ws.APIKey, nil).decode(t, &up)
	i := strings.Index(up.UploadURL, "/eval-ingest-uploads/")
	if i < 0 {
		t.Fatalf("upload URL %q", up.UploadURL)
	}
	path := up.UploadURL[i:]
	token := path[len("/eval-ingest-uploads/"):]
	if r := tg.call(t, "POST", path, "", "data"); r.status != 200 {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
	found := false
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, token) {
			t.Errorf("request log shows the upload token: %+v", r)
		}
		found = found || strings.Contains(r.Path, "/eval-ingest-uploads/")
	}
	if !found {
		t.Errorf("upload request not logged: %+v", srv.Requests())
	}
	if strings.Contains(logs.String(), token) {
		t.Errorf("debug log shows the upload token:\n%s", logs.String())
	}
}
