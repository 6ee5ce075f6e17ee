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

// TestSweepQueuesOnlyRecentUploads: the sweep's cost does not grow
// with the artifacts it can never release. An unbounded double queues no
// artifact to lapse (none can), and a bounded one queues each upload once
// and forgets the entry at its ArtifactTTL, named since or not, so the
// queue holds only the last ArtifactTTL's uploads.
func TestSweepQueuesOnlyRecentUploads(t *testing.T) {
	for _, bounded := range []bool{false, true} {
		clk := NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		opts := []Option{WithRateLimit(0, 0), WithClock(clk.Now)}
		if bounded {
			opts = append(opts, WithMaxRuns(1000))
		}
		s := NewTestServer(t, opts...)
		ws := s.Default()
		base := "/projects/" + ws.ProjectID + "/eval-ingest"
		upload := func() string {
			t.Helper()
			st, body := postInProcess(t, s, base+"/artifacts/upload-url", ws.APIKey, `{}`)
			if st != http.StatusOK {
				t.Fatalf("mint: %d %s", st, body)
			}
			_, token, _ := strings.Cut(body, uploadPath)
			token, _, _ = strings.Cut(token, `"`)
			st, body = postInProcess(t, s, uploadPath+token, "", "<p>w</p>")
			if st != http.StatusOK {
				t.Fatalf("upload: %d %s", st, body)
			}
			_, id, _ := strings.Cut(body, `"storageId":"`)
			id, _, _ = strings.Cut(id, `"`)
			return id
		}
		named := upload()
		snap := `{"toolCallId":"tc1","toolName":"t","protocol":"mcp-apps","serverId":"srv_1","resourceUri":"ui://w","toolMetadata":{},
 "widgetCsp":null,"widgetPermissions":null,"widgetPermissive":false,"prefersBorder":true,"widgetHtmlBlobId":"` + named + `"}`
		if st, body := postInProcess(t, s, base+"/report", ws.APIKey, `{"suiteName":"s","externalRunId":"r","results":[
 {"caseTitle":"c","passed":true,"widgetSnapshots":[`+snap+`]}]}`); st != http.StatusOK {
			t.Fatalf("report: %d %s", st, body)
		}
		for range 20 {
			upload()
		}
		s.mu.Lock()
		queued := len(s.st.ingest.unnamed)
		s.mu.Unlock()
		if want := map[bool]int{false: 0, true: 21}[bounded]; queued != want {
			t.Errorf("bounded %v: %d artifacts queued to lapse, want %d", bounded, queued, want)
		}
		clk.Advance(ArtifactTTL)
		upload() // sweeps
		s.mu.Lock()
		queued, kept := len(s.st.ingest.unnamed), len(s.st.ingest.artifacts)
		s.mu.Unlock()
		if want := map[bool]int{false: 0, true: 1}[bounded]; queued != want {
			t.Errorf("bounded %v: %d entries queued after the sweep, want %d (the new upload)", bounded, queued, want)
		}
		if want := map[bool]int{false: 22, true: 2}[bounded]; kept != want {
			t.Errorf("bounded %v: %d artifacts kept, want %d", bounded, kept, want)
		}
	}
}
