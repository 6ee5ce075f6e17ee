package transport

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/option"
)

// hostBody is a host detail as the service sends it (424 bytes).
const hostBody = `{"id":"hst_1","name":"bench","config":{"hostContext":{"displayMode":"inline","locale":"en-US","platform":"web","timeZone":"UTC"},"hostStyle":"claude","mcpProfile":{"capabilities":{"elicitation":true,"prompts":true,"resources":true,"sampling":false,"tools":true},"mcpApps":{"displayModes":["inline","fullscreen"],"supported":true},"openaiCompat":false},"modelId":"anthropic/claude-sonnet-4.5","serverIds":[],"theme":"light"}}`

// BenchmarkDoFixedCost is the SDK's own cost for one GET: a RoundTripper
// that answers a canned 200 at once, so only the transport (and
// net/http.Client) is measured.
//
//	go test -run '^$' -bench DoFixedCost -benchtime 2s -count 5 ./internal/transport
func BenchmarkDoFixedCost(b *testing.B) {
	body := []byte(hostBody)
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			ContentLength: int64(len(body)), Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
	})
	tr := New(Config{BaseURL: testBase, APIKey: testKey, HTTPClient: &http.Client{Transport: rt}, UserAgent: "projectops-go/bench"})
	type host struct {
		ID     string          `json:"id"`
		Name   string          `json:"name"`
		Config json.RawMessage `json:"config"`
	}
	b.ReportAllocs()
	for b.Loop() {
		var h host
		if err := tr.Do(b.Context(), &Request{Method: http.MethodGet, Route: "/projects/{p}/hosts/{h}", Params: []string{"prj_1", "hst_1"}}, &h); err != nil || h.ID != "hst_1" {
			b.Fatal(err)
		}
	}
}

// BenchmarkDoCallHeader is one successful GET with WithResponseInto,
// without and with a credential header of the call's own: the second
// builds no redactor (see TestCallHeaderBuildsNoRedactorOnSuccess).
//
//	go test -run '^$' -bench DoCallHeader ./internal/transport
func BenchmarkDoCallHeader(b *testing.B) {
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return jsonAnswer(r, http.StatusOK, `{}`, http.Header{RequestIDHeader: {"req_abcdefgh"}}), nil
	})
	tr := New(Config{BaseURL: testBase, APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
	for _, tc := range []struct {
		name string
		opts []option.RequestOption
	}{
		{"noHeader", nil},
		{"callHeader", []option.RequestOption{option.WithHeader("X-Trace-Token", "trace-0123456789")}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var meta option.Response
				ctx := WithOptions(b.Context(), append(tc.opts[:len(tc.opts):len(tc.opts)], option.WithResponseInto(&meta)))
				if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x", Class: Read}, &struct{}{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
