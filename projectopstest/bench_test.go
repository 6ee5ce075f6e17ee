package projectopstest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// BenchmarkGET compares one authenticated GET in process with the same GET
// over loopback; the in-process path should be several times faster.
func BenchmarkGET(b *testing.B) {
	srv := projectopstest.NewTestServer(b, projectopstest.WithRateLimit(0, 0))
	key := srv.Default().APIKey
	loop, err := srv.Start()
	if err != nil {
		b.Fatal(err)
	}
	tr := &http.Transport{}
	b.Cleanup(tr.CloseIdleConnections)
	for _, tc := range []struct {
		name   string
		client *http.Client
		base   string
	}{
		{"inprocess", srv.Client(), projectopstest.InProcessURL},
		{"loopback", &http.Client{Transport: tr}, loop},
	} {
		b.Run(tc.name, func(b *testing.B) {
			req, _ := http.NewRequest("GET", tc.base+"/me", nil)
			req.Header.Set("Authorization", "Bearer "+key)
			for b.Loop() {
				resp, err := tc.client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatal(resp.StatusCode)
				}
			}
		})
	}
}

// BenchmarkHandlerOnly is the cost of the handler alone, the floor for the
// in-process transport.
func BenchmarkHandlerOnly(b *testing.B) {
	srv := projectopstest.NewTestServer(b, projectopstest.WithRateLimit(0, 0))
	key := srv.Default().APIKey
	req, _ := http.NewRequest("GET", projectopstest.InProcessURL+"/me", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	h := srv.Handler()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
	}
}

// BenchmarkTransportOnly is one RoundTrip without http.Client around it.
func BenchmarkTransportOnly(b *testing.B) {
	srv := projectopstest.NewTestServer(b, projectopstest.WithRateLimit(0, 0))
	key := srv.Default().APIKey
	req, _ := http.NewRequest("GET", projectopstest.InProcessURL+"/me", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	tr := srv.Transport()
	for b.Loop() {
		resp, err := tr.RoundTrip(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}
