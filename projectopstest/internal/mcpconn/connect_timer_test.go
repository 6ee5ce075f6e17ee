package mcpconn

import (
	"context"
	"sort"
	"testing"
	"time"
)

// A connect that finishes just as its timer expires is one outcome or the
// other: a Conn that Dial returns is never cut afterwards by the timer's
// callback (cancelled, its exchanges aborted, a stdio peer killed), which
// Stop could not stop once started. Timeouts straddle the median connect
// time for two seconds; the fault showed about once in 30 dials.
func TestConnectTimerNeverCutsAReturnedConn(t *testing.T) {
	d := testDialer()
	// Measure how long an in-process connect takes.
	var ds []time.Duration
	for i := 0; i < 50; i++ {
		st := time.Now()
		c, err := d.Dial(context.Background(), inproc())
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, time.Since(st))
		c.Close()
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	med := ds[len(ds)/2]
	t.Logf("median dial %v", med)
	bad, ok, to := 0, 0, 0
	deadline := time.Now().Add(2 * time.Second)
	for i := 0; time.Now().Before(deadline) && bad == 0; i++ {
		d.ConnectTimeout = med/2 + time.Duration(i%64)*med/64
		c, err := d.Dial(context.Background(), inproc())
		if err != nil {
			to++
			continue
		}
		ok++
		time.Sleep(200 * time.Microsecond)
		if c.abort.Err() != nil {
			bad++
		}
		c.Close()
	}
	t.Logf("ok=%d timeouts=%d aborted-after-success=%d", ok, to, bad)
	if bad > 0 {
		t.Errorf("Dial returned a Conn that its own connect timer then aborted (%d times): the callback's cancel/abortNow/group kill hit a session handed to the caller", bad)
	}
}
