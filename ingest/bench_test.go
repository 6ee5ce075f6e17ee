package ingest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

var errEOF = io.EOF

// BenchmarkGoTestIngest reports a synthetic go test -json stream of 200k
// and 1M events into the in-process double, end to end (decode, chunk,
// redact, spool, send, store), next to a plain bufio.Scanner +
// encoding/json decode of the same stream. Metrics: events/s, peak heap
// (MiB, sampled from runtime/metrics) and, on the reporter, its rate as a
// fraction of the plain decode's. The double keeps counts only
// (WithIngestDiscard) so the figures are the reporter's; the
// "reporter-full-store" case keeps every row, as tests do.
//
//	go test -run '^$' -bench GoTestIngest -benchtime 1x ./ingest/
func BenchmarkGoTestIngest(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"200k", 200_000}, {"1M", 1_000_000}} {
		var plainRate float64
		b.Run("events="+size.name+"/plain-decode", func(b *testing.B) {
			plainRate = measure(b, size.n, func(r io.Reader) int { return plainDecode(b, r) })
		})
		b.Run("events="+size.name+"/reporter", func(b *testing.B) {
			rate := measure(b, size.n, func(r io.Reader) int { return reportStream(b, r, projectopstest.WithIngestDiscard()) })
			if plainRate > 0 {
				b.ReportMetric(rate/plainRate, "x-plain-rate")
			}
		})
		if size.n == 200_000 {
			b.Run("events="+size.name+"/reporter-full-store", func(b *testing.B) {
				measure(b, size.n, func(r io.Reader) int { return reportStream(b, r) })
			})
		}
	}
}

// measure runs f over a fresh stream b.N times and reports events/s and
// the peak heap seen by a sampling goroutine; it returns the rate.
func measure(b *testing.B, n int, f func(io.Reader) int) float64 {
	runtime.GC()
	stop := samplePeak()
	var events int
	start := time.Now()
	b.ResetTimer()
	for range b.N {
		events += f(newSynthStream(n))
	}
	b.StopTimer()
	elapsed := time.Since(start)
	peak, live := stop()
	rate := float64(events) / elapsed.Seconds()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(live)/(1<<20), "peak-live-MiB")
	return rate
}

// samplePeak samples the heap every millisecond until the returned
// function is called, which returns the maxima seen of the heap's object
// bytes (live and not yet collected: what the process holds) and of the
// live heap as marked by the last GC (what the program keeps reachable).
func samplePeak() func() (heap, live uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	var mu sync.Mutex
	var peak, peakLive uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			mu.Lock()
			peak = max(peak, s[0].Value.Uint64())
			peakLive = max(peakLive, s[1].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return peak, peakLive
	}
}

type plainEvent struct {
	Time        time.Time
	Action      string
	Package     string
	Test        string
	Output      string
	Elapsed     float64
	ImportPath  string
	FailedBuild string
}

func plainDecode(b *testing.B, r io.Reader) int {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		var ev plainEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}

func reportStream(b *testing.B, r io.Reader, opts ...projectopstest.Option) int {
	srv, err := projectopstest.NewServer(append([]projectopstest.Option{projectopstest.WithRateLimit(0, 0)}, opts...)...)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.NewClient()
	if err != nil {
		b.Fatal(err)
	}
	rep, err := ingest.NewReporter(c.Ingest, ingest.ReporterOptions{Run: ingest.RunParams{SuiteName: "bench", ExternalRunID: "bench"},
		SpoolDir: b.TempDir(), Strict: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	st, err := ingest.ReadGoTest(context.Background(), r, rep, ingest.GoTestOptions{})
	if err != nil {
		b.Fatal(err)
	}
	out, err := rep.Close(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if out.Run.Summary.Total != st.Passed+st.Failed {
		b.Fatalf("stored %d rows, read %d results", out.Run.Summary.Total, st.Passed+st.Failed)
	}
	return st.Events
}
