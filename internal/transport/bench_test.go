package transport

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
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

// errorBody is a validation error as a gateway may word it: a message
// and details quoting URLs with percent and JSON escapes, none holding a
// credential header's value (the common case, which redaction must keep
// cheap).
const errorBody = `{"code":"VALIDATION_ERROR","message":"bad callback https://app.example/cb?state=a%2Fb%3Dc&next=%2Fhome","details":{"field":"redirectUri","got":"https:\/\/app.example\/cb?state=a%2Fb","hints":["use an https URL","see \u0022docs\u0022"]}}`

// BenchmarkDoErrorHeader is one GET answered with a 400 envelope, without
// a credential header, with one of the client's and with one of the
// call's (whose redactor the error builds): what cleaning error text of
// credential header values costs.
//
//	go test -run '^$' -bench DoErrorHeader -benchmem ./internal/transport
func BenchmarkDoErrorHeader(b *testing.B) {
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return jsonAnswer(r, http.StatusBadRequest, errorBody, http.Header{RequestIDHeader: {"req_abcdefgh"}}), nil
	})
	for _, tc := range []struct {
		name   string
		client http.Header
		opts   []option.RequestOption
	}{
		{"noHeader", nil, nil},
		{"clientHeader", http.Header{"X-Proxy-Token": {"proxy/token+0123456789"}}, nil},
		{"callHeader", nil, []option.RequestOption{option.WithHeader("X-Trace-Token", "trace/token+0123456789")}},
	} {
		tr := New(Config{BaseURL: testBase, APIKey: testKey, HTTPClient: &http.Client{Transport: rt}, Header: tc.client})
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ctx := WithOptions(b.Context(), tc.opts)
				if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x", Class: Read}, &struct{}{}); err == nil {
					b.Fatal("no error")
				}
			}
		})
	}
}

// BenchmarkDoErrorKeyEchoes is one POST answered with a 400 envelope whose
// message (60 KiB, which a server controls) echoes the key thousands of
// times: what cleaning an error of many matches costs, paid per attempt.
func BenchmarkDoErrorKeyEchoes(b *testing.B) {
	msg := strings.Repeat(testKey+" ", (60<<10)/(len(testKey)+1))
	body := `{"code":"VALIDATION_ERROR","message":"` + msg + `"}`
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return jsonAnswer(r, http.StatusBadRequest, body, nil), nil
	})
	tr := New(Config{BaseURL: testBase, APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.Do(b.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write}, &struct{}{}); err == nil {
			b.Fatal("no error")
		}
	}
}

// BenchmarkDoErrorKeyEscapedEchoes is BenchmarkDoErrorKeyEchoes with the
// key echoed escaped (its first letter %73, as some encoders quote it):
// every echo is found by the any-spelling walk, not strings.Index.
func BenchmarkDoErrorKeyEscapedEchoes(b *testing.B) {
	spelt := "%73" + testKey[1:]
	msg := strings.Repeat(spelt+" ", (60<<10)/(len(spelt)+1))
	body := `{"code":"VALIDATION_ERROR","message":"` + msg + `"}`
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return jsonAnswer(r, http.StatusBadRequest, body, nil), nil
	})
	tr := New(Config{BaseURL: testBase, APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
	b.ReportAllocs()
	for b.Loop() {
		err := tr.Do(b.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write}, &struct{}{})
		if err == nil || strings.Contains(err.Error(), spelt) {
			b.Fatal("no error, or the key is shown")
		}
	}
}
