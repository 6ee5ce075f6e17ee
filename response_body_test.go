package projectops_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// WithResponseInto keeps the success body as sent: fields the typed
// result does not model are read from it; it is read under the response
// cap, and an error response leaves it nil.
func TestResponseBody(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const body = `{"id":"u1","name":"Ann","x-new":{"a":1}}`
	s.handle(http.MethodGet, "/me", fixed(200, body))
	c := s.client()
	var meta option.Response
	me, err := c.Catalog.Me(t.Context(), option.WithResponseInto(&meta))
	if err != nil || me.ID != "u1" || me.Name != "Ann" {
		t.Fatalf("Me = %+v, %v", me, err)
	}
	if string(meta.Body) != body {
		t.Errorf("Body = %s, want %s", []byte(meta.Body), body)
	}
	var extra struct {
		New struct{ A int } `json:"x-new"`
	}
	if err := json.Unmarshal(meta.Body, &extra); err != nil || extra.New.A != 1 {
		t.Errorf("decoding Body: %+v, %v", extra, err)
	}

	big := newServer(t)
	big.handle(http.MethodGet, "/me", fixed(200, `{"id":"u1","name":"`+strings.Repeat("n", 2000)+`"}`))
	_, err = big.client(option.WithMaxResponseBytes(1024)).Catalog.Me(t.Context(), option.WithResponseInto(&meta))
	if _, ok := errors.AsType[*projectops.ResponseTooLargeError](err); !ok {
		t.Errorf("over the cap with WithResponseInto: %v, want ResponseTooLargeError", err)
	}

	gone := newServer(t)
	gone.handle(http.MethodGet, "/me", fixed(404, `{"code":"NOT_FOUND","message":"no"}`))
	meta = option.Response{Body: option.Body("stale")}
	if _, err := gone.client().Catalog.Me(t.Context(), option.WithResponseInto(&meta)); !errors.Is(err, projectops.ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if meta.Body != nil || meta.StatusCode != 404 {
		t.Errorf("after an error response: Body %q, status %d", []byte(meta.Body), meta.StatusCode)
	}
}

// A body may hold a secret the call returned (a tunnel's connect token):
// a Response prints, logs and encodes the body's size, never its bytes.
func TestResponseBodyNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "tok_live_SECRET42"
	meta := option.Response{StatusCode: 201, Body: option.Body(`{"connectToken":"` + secret + `"}`)}
	var out []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
		out = append(out, fmt.Sprintf(verb, meta), fmt.Sprintf(verb, meta.Body), fmt.Sprintf(verb, &meta))
	}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("call", "resp", meta, "body", meta.Body)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("call", "resp", meta, "body", meta.Body)
	js, err := json.Marshal(meta)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, logs.String(), string(js))
	hexed := hex.EncodeToString([]byte(secret))
	for _, s := range out {
		if strings.Contains(s, secret) || strings.Contains(strings.ToLower(s), hexed) || strings.Contains(s, "116 111 107") {
			t.Errorf("the body's secret is printed: %s", s)
		}
	}
	if got := fmt.Sprint(meta.Body); got != "option.Body(36 bytes)" {
		t.Errorf("Body prints as %q", got)
	}
}

// A success body without a length is held to the cap as a whole, not only
// its first JSON value (the rest went unread and unchecked), and data after
// the value is refused as it is in a body with a length, with the same
// error (encoding/json's).
func TestStreamedBodyCapAndTrailingData(t *testing.T) {
	t.Parallel()
	for tail, want := range map[string]string{
		strings.Repeat(" ", 4096): "over the 1024-byte limit",
		` {"id":"hst_2"}`:         "invalid character '{' after top-level value",
		"  \n":                    "",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"id":"hst_1","name":"x"}`))
			w.(http.Flusher).Flush() // chunked: no Content-Length
			_, _ = w.Write([]byte(tail))
		}))
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_stream_0001"),
			option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxResponseBytes(1024), option.WithMaxRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		h, err := c.Hosts.Get(t.Context(), "prj_1", "hst_1")
		srv.Close()
		switch {
		case want == "" && (err != nil || h.ID != "hst_1"):
			t.Errorf("%d bytes of space after the value: %+v, %v", len(tail), h, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("tail %.20q: err = %v, want %q", tail, err, want)
		}
	}
}
