package projectopstest_test

import (
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// zeros is a lazy body of n zero bytes that counts what was read of it.
type zeros struct {
	left int64
	read *atomic.Int64
}

func (z *zeros) Read(p []byte) (int, error) {
	if z.left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), z.left))
	clear(p[:n])
	z.left -= int64(n)
	z.read.Add(int64(n))
	return n, nil
}

// rssBytes is the process's resident set size (Linux), 0 when unknown.
func rssBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// TestUploadChecksTokenFirst: the unauthenticated upload route refuses a
// made-up token before it reads the body, so twenty parallel 32 MiB
// uploads cost the server no memory (it used to read each one whole).
// Not parallel: it measures the process's allocations.
func TestUploadChecksTokenFirst(t *testing.T) {
	srv := projectopstest.NewTestServer(t, noLimit)
	for _, tg := range targets(t, srv) {
		t.Run(tg.name, func(t *testing.T) {
			var read atomic.Int64
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			rss0 := rssBytes()
			var wg sync.WaitGroup
			for i := range 20 {
				wg.Go(func() {
					req, err := http.NewRequestWithContext(t.Context(), http.MethodPost,
						tg.base+"/eval-ingest-uploads/made-up-"+strconv.Itoa(i), &zeros{left: ingest.MaxArtifactBytes, read: &read})
					if err != nil {
						t.Error(err)
						return
					}
					req.ContentLength = ingest.MaxArtifactBytes
					resp, err := tg.client.Do(req)
					if err != nil {
						return // the server may close the connection while the client still writes
					}
					defer resp.Body.Close()
					if resp.StatusCode != http.StatusNotFound {
						t.Errorf("made-up token: %d", resp.StatusCode)
					}
				})
			}
			wg.Wait()
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("allocated %d MiB; heap in use %d -> %d MiB; RSS %d -> %d MiB; body bytes taken from clients %d MiB",
				alloc>>20, before.HeapInuse>>20, after.HeapInuse>>20, rss0>>20, rssBytes()>>20, read.Load()>>20)
			if alloc > 64<<20 {
				t.Errorf("twenty refused uploads allocated %d MiB", alloc>>20)
			}
			if tg.name == "inprocess" && read.Load() > 0 {
				t.Errorf("the server read %d bytes of refused bodies", read.Load())
			}
		})
	}
}
