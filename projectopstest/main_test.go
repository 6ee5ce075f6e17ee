package projectopstest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// target is one way of reaching a server: in process or over loopback.
type target struct {
	name   string
	client *http.Client
	base   string
}

// targets returns the in-process and loopback targets of srv.
func targets(t *testing.T, srv *projectopstest.Server) []target {
	t.Helper()
	base, err := srv.Start()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return []target{
		{name: "inprocess", client: srv.Client(), base: projectopstest.InProcessURL},
		{name: "loopback", client: &http.Client{Transport: tr}, base: base},
	}
}

// inproc is the in-process target of srv.
func inproc(srv *projectopstest.Server) target {
	return target{name: "inprocess", client: srv.Client(), base: projectopstest.InProcessURL}
}

// result is a decoded response.
type result struct {
	status int
	header http.Header
	body   []byte
}

// call sends one request; body may be nil, a string (sent raw) or a value
// encoded as JSON.
func (tg target) call(t *testing.T, method, path, key string, body any) result {
	t.Helper()
	rd, err := requestBody(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, tg.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := tg.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return result{status: resp.StatusCode, header: resp.Header, body: b}
}

// requestBody is the reader for a call's body: nil, a string sent raw,
// or any other value encoded as JSON.
func requestBody(body any) (io.Reader, error) {
	switch b := body.(type) {
	case nil:
		return nil, nil
	case string:
		return strings.NewReader(b), nil
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		return bytes.NewReader(enc), nil
	}
}

// decode unmarshals the body into v, failing on a non-2xx status.
func (r result) decode(t *testing.T, v any) {
	t.Helper()
	if r.status/100 != 2 {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// wantError asserts an error envelope with the status paired to code.
func (r result) wantError(t *testing.T, code shared.Code) apierr.Body {
	t.Helper()
	var b apierr.Body
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatalf("error body %q is not an envelope: %v", r.body, err)
	}
	if b.Code != code {
		t.Fatalf("code = %s (status %d, message %q), want %s", b.Code, r.status, b.Message, code)
	}
	if want := code.Status(); want != 0 && r.status != want {
		t.Fatalf("status = %d, want %d for %s", r.status, want, code)
	}
	if b.Message == "" {
		t.Errorf("error %s has an empty message", code)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	return b
}

// wantField asserts a VALIDATION_ERROR naming field.
func (r result) wantField(t *testing.T, field string) {
	t.Helper()
	b := r.wantError(t, shared.CodeValidation)
	if got, _ := b.Details["field"].(string); got != field {
		t.Fatalf("details.field = %q, want %q (body %s)", got, field, r.body)
	}
}

// must fails the test on err and returns v.
func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func newFakeClock() *projectopstest.Clock {
	return projectopstest.NewClock(time.Date(2026, 7, 9, 12, 0, 0, 0, time.UTC))
}

func readAll(resp *http.Response) ([]byte, error) { return io.ReadAll(resp.Body) }
