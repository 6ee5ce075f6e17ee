package transport

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A raw body goes out byte for byte with its content type, to an absolute
// URL when one is given, without a bearer on a public call; OnAttempt sees
// every attempt's status, and errors name the route, never the URL.
func TestRawBodyAbsoluteURLAndOnAttempt(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var gotBody, gotCT, gotAuth, gotURL string
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		n := calls.Add(1)
		b, _ := io.ReadAll(r.Body)
		gotBody, gotCT, gotAuth, gotURL = string(b), r.Header.Get("Content-Type"), r.Header.Get("Authorization"), r.URL.String()
		if n == 1 {
			return &http.Response{StatusCode: 503, Body: io.NopCloser(strings.NewReader(`{"code":"INTERNAL_ERROR","message":"x"}`)), Header: http.Header{}}, nil
		}
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(`{"storageId":"st_1"}`)), Header: http.Header{}}, nil
	})
	tr, _ := newTestTransport(t, rt)
	var seen []int
	var out struct{ StorageID string }
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/upload", URL: "http://other.test/u/secret-token",
		RawBody: []byte("<xml/>"), ContentType: "application/xml", Public: true, Class: Idempotent,
		OnAttempt: func(s int) { seen = append(seen, s) }}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if gotBody != "<xml/>" || gotCT != "application/xml" || gotAuth != "" || gotURL != "http://other.test/u/secret-token" {
		t.Errorf("sent body %q ct %q auth %q url %q", gotBody, gotCT, gotAuth, gotURL)
	}
	if diff := cmp.Diff([]int{503, 200}, seen); diff != "" || out.StorageID != "st_1" {
		t.Errorf("attempts (-want +got):\n%s out=%+v", diff, out)
	}

	fail := roundTripFunc(func(r *http.Request) (*http.Response, error) { return nil, errors.New("boom") })
	tr2, _ := newTestTransport(t, fail, func(c *Config) { c.MaxRetries = 1 })
	seen = nil
	err = tr2.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/upload", URL: "http://other.test/u/secret-token",
		RawBody: []byte("x"), Public: true, Class: Idempotent, OnAttempt: func(s int) { seen = append(seen, s) }}, nil)
	if err == nil || strings.Contains(err.Error(), "secret-token") {
		t.Errorf("err = %v: want a failure that does not show the URL", err)
	}
	if diff := cmp.Diff([]int{0, 0}, seen); diff != "" {
		t.Errorf("network attempts (-want +got):\n%s", diff)
	}
}

// OnNetError sees each attempt's network error before OnAttempt(0), and
// NotSent tells a connection never made from an answer lost.
func TestOnNetErrorAndNotSent(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if calls.Add(1) == 1 {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
		}
		return nil, io.ErrUnexpectedEOF
	})
	tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 1 })
	var seen []string
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", RawBody: []byte("x"), Class: Idempotent,
		OnNetError: func(err error) { seen = append(seen, fmt.Sprint("notSent=", NotSent(err))) },
		OnAttempt:  func(s int) { seen = append(seen, fmt.Sprint("status=", s)) }}, nil)
	if err == nil {
		t.Fatal("no error")
	}
	if diff := cmp.Diff([]string{"notSent=true", "status=0", "notSent=false", "status=0"}, seen); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
}
