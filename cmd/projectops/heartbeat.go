package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// heartbeatEvery is how often a long wait says it is alive when stderr is
// not a terminal (a CI log), where no live line can be redrawn.
var heartbeatEvery = 5 * time.Second

// heartbeat prints line() on w every heartbeatEvery until stop is called,
// so a CI log shows life during a long wait; stop waits for the goroutine.
// On a terminal it does nothing: the live line does the job.
func heartbeat(w io.Writer, line func() string) (stop func()) {
	if isTerminal(w) {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		start := time.Now()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				fmt.Fprintf(w, "%s (%s)\n", line(), now.Sub(start).Round(time.Second))
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}
