package edge

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// postClose serves h behind BodyDeadline, posts body to it and reports
// whether the answer closes the connection.
func postClose(t *testing.T, h http.HandlerFunc, body string) bool {
	t.Helper()
	ts := httptest.NewServer(BodyDeadline(h, time.Hour))
	t.Cleanup(ts.Close)
	resp, err := ts.Client().Post(ts.URL, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.Close
}

func TestBodyDeadlineClosesOnlyAfterUnreadBody(t *testing.T) {
	for _, tc := range []struct {
		name      string
		h         http.HandlerFunc
		wantClose bool
	}{
		{"read", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.ReadAll(r.Body)
			w.WriteHeader(http.StatusBadRequest)
		}, false},
		{"unread", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
		}, true},
		{"unread, nothing written", func(http.ResponseWriter, *http.Request) {}, true},
		{"unread, body written", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "{}")
		}, true},
		{"unread, flushed", func(w http.ResponseWriter, r *http.Request) {
			_ = http.NewResponseController(w).Flush()
		}, true},
		// A full-duplex handler reads the body as it answers: net/http
		// leaves it alone, and so does the wrapper.
		{"full duplex", func(w http.ResponseWriter, r *http.Request) {
			_ = http.NewResponseController(w).EnableFullDuplex()
			_, _ = io.WriteString(w, "{}")
			_ = http.NewResponseController(w).Flush()
			_, _ = io.ReadAll(r.Body)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := postClose(t, tc.h, "{}"); got != tc.wantClose {
				t.Errorf("Connection: close = %v, want %v", got, tc.wantClose)
			}
		})
	}
}

// The handler sees its own copy of the request: net/http's post-handler
// logic finds the body it made on the request it holds.
func TestBodyDeadlineLeavesRequestBody(t *testing.T) {
	var outer, inner io.ReadCloser
	h := BodyDeadline(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { inner = r.Body }), time.Hour)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := r.Body
		h.ServeHTTP(w, r)
		outer = r.Body
		if outer != body {
			t.Errorf("the server's request body was replaced with %T", outer)
		}
	}))
	t.Cleanup(ts.Close)
	resp, err := ts.Client().Post(ts.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, ok := inner.(*deadlineBody); !ok {
		t.Errorf("handler's body is %T, want the deadline wrapper", inner)
	}
}
