package projectops_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/hashicorp/go-cleanhttp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

// BenchmarkGetHost measures one GET /projects/{id}/hosts/{hostId}, side by
// side: through the SDK and through plain net/http + encoding/json against
// the double on loopback (goal: SDK/raw ≤ 1.05 in time per op), and through
// the SDK in process (goal: ≥ 5× faster than loopback).
func BenchmarkGetHost(b *testing.B) {
	srv, ws, hostID, base := hostBench(b)

	b.Run("sdk/loopback", func(b *testing.B) {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(base),
			option.WithAPIKey(ws.APIKey))
		if err != nil {
			b.Fatal(err)
		}
		benchSDK(b, c, ws.ProjectID, hostID)
	})

	b.Run("raw/loopback", func(b *testing.B) {
		hc := cleanhttp.DefaultPooledClient()
		url := fmt.Sprintf("%s/projects/%s/hosts/%s", base, ws.ProjectID, hostID)
		auth := "Bearer " + ws.APIKey
		b.ReportAllocs()
		for b.Loop() {
			req, err := http.NewRequestWithContext(b.Context(), http.MethodGet, url, nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", auth)
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var h hosts.HostDetail
			err = json.NewDecoder(resp.Body).Decode(&h)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK || h.ID != hostID {
				b.Fatalf("status %d, err %v", resp.StatusCode, err)
			}
		}
	})

	b.Run("sdk/in-process", func(b *testing.B) {
		c, err := srv.NewClient()
		if err != nil {
			b.Fatal(err)
		}
		benchSDK(b, c, ws.ProjectID, hostID)
	})
}

// hostBench starts a double on loopback with one host to get. Its config
// is small (the validator's required fields): the figure is the per-call
// cost, which a template's ~12 KB of host context would bury under JSON
// decoding.
func hostBench(b *testing.B) (srv *projectopstest.Server, ws projectopstest.Workspace, hostID, base string) {
	b.Helper()
	srv, err := projectopstest.NewServer(projectopstest.WithRateLimit(0, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	ws = srv.Default()
	hostID, err = srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "bench",
		Config: map[string]any{"modelId": "openai/gpt-5", "hostStyle": "chatgpt"}})
	if err != nil {
		b.Fatal(err)
	}
	if base, err = srv.Start(); err != nil {
		b.Fatal(err)
	}
	return srv, ws, hostID, base
}

func benchSDK(b *testing.B, c *projectops.Client, projectID, hostID string) {
	b.ReportAllocs()
	for b.Loop() {
		h, err := c.Hosts.Get(b.Context(), projectID, hostID)
		if err != nil || h.ID != hostID {
			b.Fatalf("get: %v", err)
		}
	}
}

// BenchmarkGetHostPaired is GetHost's in-process and loopback SDK calls
// taking turns in blocks of 100 within each iteration, so a host whose
// speed drifts (a shared VM) slows both alike. It reports each one's time
// per call and inproc-x, how many times faster in process is (goal ≥ 5).
//
//	go test -run '^$' -bench GetHostPaired -benchtime 300x -count 3 .
func BenchmarkGetHostPaired(b *testing.B) {
	srv, ws, hostID, base := hostBench(b)
	loop, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(base),
		option.WithAPIKey(ws.APIKey))
	if err != nil {
		b.Fatal(err)
	}
	inproc, err := srv.NewClient()
	if err != nil {
		b.Fatal(err)
	}
	const block = 100
	var spent [2]time.Duration
	b.ReportAllocs()
	for b.Loop() {
		for i, c := range []*projectops.Client{loop, inproc} {
			start := time.Now()
			for range block {
				h, err := c.Hosts.Get(b.Context(), ws.ProjectID, hostID)
				if err != nil || h.ID != hostID {
					b.Fatalf("get: %v", err)
				}
			}
			spent[i] += time.Since(start)
		}
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*block) }
	b.ReportMetric(per(spent[0]), "loopback-ns/call")
	b.ReportMetric(per(spent[1]), "inproc-ns/call")
	b.ReportMetric(float64(spent[0])/float64(spent[1]), "inproc-x")
}
