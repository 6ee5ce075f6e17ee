package projectopstest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"testing"
)

// The concurrency tests drive the double from many goroutines at once and
// assert that the API's rules hold exactly, as the service's transactional
// store keeps them. The double passes them by serializing state under
// Server.mu; they are here to keep it that way.

// reply is one answer read on a goroutine other than the test's: it
// carries the transport error instead of failing the test, since t.Fatal
// must be called from the test goroutine only.
type reply struct {
	result
	err error
}

// send is call for racing goroutines: it uses no *testing.T and sets the
// headers in hdr besides the key's.
func (tg target) send(method, path, key string, body any, hdr map[string]string) reply {
	rd, err := requestBody(body)
	if err != nil {
		return reply{err: err}
	}
	req, err := http.NewRequestWithContext(context.Background(), method, tg.base+path, rd)
	if err != nil {
		return reply{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := tg.client.Do(req)
	if err != nil {
		return reply{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{result: result{status: resp.StatusCode, header: resp.Header, body: b}, err: err}
}

// object is the reply's body as a JSON object; nil when it is not one, so
// that an assertion on a field fails rather than the decoding.
func (r reply) object() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.body, &m)
	return m
}

// field is the string field name of the reply's body, "" if absent.
func (r reply) field(name string) string {
	s, _ := r.object()[name].(string)
	return s
}

// reason is the error envelope's details.reason, "" if absent.
func (r reply) reason() string {
	d, _ := r.object()["details"].(map[string]any)
	s, _ := d["reason"].(string)
	return s
}

// String shows the reply briefly for a failure message.
func (r reply) String() string {
	if r.err != nil {
		return r.err.Error()
	}
	return fmt.Sprintf("%d %.120s", r.status, r.body)
}

// fanOut runs f(i) for i in [0,n) on n goroutines released together by one
// barrier, so that their requests race, and returns the replies in index
// order.
func fanOut(n int, f func(i int) reply) []reply {
	out := make([]reply, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = f(i)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// jitter yields the processor n times: it shifts where a racing goroutine
// lands relative to another from round to round without a sleep, so that
// a test's rounds see both orders.
func jitter(n int) {
	for range n {
		runtime.Gosched()
	}
}

// listPage is a listing's items, as untyped objects.
type listPage struct {
	Items []map[string]any `json:"items"`
}

// oneTestRun is an eval-run create body: a new suite named suite with one
// prompt test against serverID.
func oneTestRun(serverID, suite string) map[string]any {
	return map[string]any{"suiteName": suite, "serverIds": []string{serverID}, "tests": []any{map[string]any{
		"title": "t", "model": "openai/gpt-4o-mini",
		"steps": []any{map[string]any{"id": "p", "kind": "prompt", "prompt": "Use the echo tool with message=x"}}}}}
}

// admittedRuns is the run ids of the creates in rs answered 202; every
// other answer must be the concurrency cap's 429 (RATE_LIMITED with
// reason CONCURRENT_RUN_LIMIT), reported under label otherwise.
func admittedRuns(t *testing.T, label string, rs []reply) []string {
	t.Helper()
	var admitted []string
	for i, r := range rs {
		switch {
		case r.status == 202:
			admitted = append(admitted, r.field("runId"))
		case r.status == 429 && r.reason() == "CONCURRENT_RUN_LIMIT" && r.field("code") == "RATE_LIMITED":
		default:
			t.Errorf("%screate %d: %v", label, i, r)
		}
	}
	return admitted
}
