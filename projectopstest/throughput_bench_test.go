package projectopstest_test

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// BenchmarkServeThroughput is GET throughput over loopback with 64
// concurrent connections: the double serving GET /me against a trivial
// net/http handler that writes the same bytes. The ratio of their req/s is
// the double's overhead per request under load (goal: ≥ 0.9).
//
//	go test -run '^$' -bench ServeThroughput -benchtime 3s ./projectopstest/
func BenchmarkServeThroughput(b *testing.B) {
	srv := projectopstest.NewTestServer(b, projectopstest.WithRateLimit(0, 0))
	key := srv.Default().APIKey
	base, err := srv.Start()
	if err != nil {
		b.Fatal(err)
	}
	body, ctype := fetchOnce(b, base+"/me", key)
	trivial := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		_, _ = w.Write(body)
	}), ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = trivial.Serve(ln) }()
	b.Cleanup(func() { _ = trivial.Close() })

	var rates [2]float64
	for i, tc := range []struct{ name, url string }{
		{"trivial", "http://" + ln.Addr().String() + "/me"},
		{"double", base + "/me"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			rates[i] = parallelGET(b, tc.url, key)
			if i == 1 && rates[0] > 0 {
				b.ReportMetric(rates[1]/rates[0], "x-trivial")
			}
		})
	}
}

// parallelGET runs b.N GETs from 64 goroutines, each with its own kept-alive
// connection, and reports requests per second.
func parallelGET(b *testing.B, url, key string) float64 {
	const conns = 64
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	b.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr}
	b.SetParallelism((conns + 1) / 2) // × GOMAXPROCS (2 here) goroutines
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		for pb.Next() {
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
	rate := float64(b.N) / time.Since(start).Seconds()
	b.ReportMetric(rate, "req/s")
	return rate
}

func fetchOnce(b *testing.B, url, key string) ([]byte, string) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET /me: %d %v", resp.StatusCode, err)
	}
	return body, resp.Header.Get("Content-Type")
}
