package projectopstest

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// postInProcess sends a JSON POST in process and returns its status and
// body.
func postInProcess(t *testing.T, s *Server, path, key, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", InProcessURL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestIngestStoreForgetsDeadUploads: a minted URL is usable once and
// only until UploadURLTTL, and under WithMaxRuns an artifact no run names
// lapses after ArtifactTTL, so a long session that mints and uploads without
// reporting keeps neither once they are dead (a later mint or upload
// sweeps them), however many there were.
func TestIngestStoreForgetsDeadUploads(t *testing.T) {
	clk := NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := NewTestServer(t, WithRateLimit(0, 0), WithClock(clk.Now), WithMaxRuns(100))
	ws := s.Default()
	mintPath := "/projects/" + ws.ProjectID + "/eval-ingest/artifacts/upload-url"
	mint := func() string {
		t.Helper()
		st, body := postInProcess(t, s, mintPath, ws.APIKey, `{}`)
		if st != http.StatusOK {
			t.Fatalf("mint: %d %s", st, body)
		}
		_, token, _ := strings.Cut(body, uploadPath)
		token, _, _ = strings.Cut(token, `"`)
		return apiPrefix + uploadPath + token
	}
	const n = 3000
	for i := range n {
		u := mint()
		if i%3 == 0 { // a third used, the rest left to expire
			if st, body := postInProcess(t, s, strings.TrimPrefix(u, apiPrefix), "", "<p>w</p>"); st != http.StatusOK {
				t.Fatalf("upload: %d %s", st, body)
			}
		}
	}
	clk.Advance(ArtifactTTL + UploadURLTTL) // every URL and artifact so far is dead
	for range 10 {
		mint()
	}
	s.mu.Lock()
	uploads, artifacts := len(s.st.ingest.uploads), len(s.st.ingest.artifacts)
	s.mu.Unlock()
	if uploads > 10 || artifacts > 0 {
		t.Errorf("%d upload URL records and %d artifacts kept after %d URLs and %d artifacts died: dead ones are never released",
			uploads, artifacts, n, n/3)
	}
}
