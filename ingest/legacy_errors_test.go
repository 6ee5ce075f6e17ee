package ingest_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
)

// convexBilling is the billing refusal as the service's own reporter is
// tested against it: HTTP 500 with the legacy {ok:false, error} envelope,
// whose text wraps the refusal's JSON in a backend exception.
const convexBilling = `{"ok":false,"error":"Uncaught ConvexError: {\"code\":\"billing_limit_reached\",\"message\":\"Limit \\\"maxEvalIterationsPerMonth\\\" reached on the team plan.\",\"limit\":\"maxEvalIterationsPerMonth\",\"gateKey\":\"maxEvalIterationsPerMonth\",\"plan\":\"team\",\"currentValue\":5001,\"allowedValue\":5000,\"resetsAt\":1793491200000,\"windowKind\":\"month\"}\n    at reserveEvalIterations (../../convex/lib/tierLimits.ts:333:12)"}`

// answering is a client whose every request gets status and body (the
// first answer from first, when set); calls counts the requests.
func answering(t *testing.T, calls *atomic.Int32, first func(n int32) (int, string), status int, body string) *projectops.Client {
	t.Helper()
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		n := calls.Add(1)
		st, b := status, body
		if first != nil {
			if fs, fb := first(n); fs != 0 {
				st, b = fs, fb
			}
		}
		return &http.Response{StatusCode: st, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(b)), Request: r}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_legacy123"), option.WithTransport(rt),
		option.WithBaseURL("https://api.example/api/v1"), option.WithRetryBackoff(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var oneResult = ingest.ReportParams{RunParams: ingest.RunParams{SuiteName: "s", ExternalRunID: "e"},
	Results: []ingest.Result{{CaseTitle: "c", Passed: true}}}

// A billing refusal inside a legacy error text is the billing refusal:
// never retried, its limit read from the JSON the text wraps.
func TestLegacyBillingRefusal(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := answering(t, &calls, nil, http.StatusInternalServerError, convexBilling)
	_, err := c.Ingest.Report(t.Context(), ingest.DefaultProject, oneResult)
	e, ok := errors.AsType[*projectops.Error](err)
	if !errors.Is(err, projectops.ErrBillingLimitReached) || !ok || calls.Load() != 1 {
		t.Fatalf("err = %v after %d calls; want ErrBillingLimitReached after 1", err, calls.Load())
	}
	if b := e.Billing; b == nil || b.GateKey != "maxEvalIterationsPerMonth" || b.CurrentValue != 5001 || b.AllowedValue != 5000 || b.ResetsAt != 1793491200000 {
		t.Errorf("Billing = %+v", e.Billing)
	}
	if strings.Contains(e.Error(), "tierLimits") || !strings.Contains(e.Message, "reached on the team plan") {
		t.Errorf("message %q: want the refusal's own message, no stack", e.Message)
	}
	// Answered 2xx {ok:false} the same way.
	calls.Store(0)
	c = answering(t, &calls, nil, http.StatusOK, convexBilling)
	_, err = c.Ingest.StartRun(t.Context(), ingest.DefaultProject, oneResult.RunParams)
	if !errors.Is(err, projectops.ErrBillingLimitReached) || !errors.Is(err, ingest.ErrNotOK) {
		t.Errorf("2xx: err = %v", err)
	}
}

// A legacy error's text is the message (its first line: what follows is
// often the request echoed), for an error status and for a 2xx ok:false,
// with secrets in it redacted.
func TestLegacyErrorText(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := answering(t, &calls, nil, http.StatusBadRequest,
		`{"ok":false,"error":"suiteName is required (key sk_test_legacy123, Authorization: Bearer abcdefgh12345678)\nObject: {accessToken: \"tok-secret-1\"}"}`)
	_, err := c.Ingest.StartRun(t.Context(), ingest.DefaultProject, oneResult.RunParams)
	if err == nil || !strings.Contains(err.Error(), "suiteName is required") {
		t.Fatalf("err = %v; want the legacy text", err)
	}
	for _, secret := range []string{"sk_test_legacy123", "abcdefgh12345678", "tok-secret-1", "Object:"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("err %q shows %q", err, secret)
		}
	}
	c = answering(t, &calls, nil, http.StatusOK, `{"ok":false,"error":"Run not found for this project"}`)
	_, err = c.Ingest.FinalizeRun(t.Context(), ingest.DefaultProject, ingest.FinalizeParams{RunID: "r", ExternalRunID: "e"})
	if !errors.Is(err, ingest.ErrNotOK) || !strings.Contains(err.Error(), "Run not found for this project") {
		t.Errorf("2xx ok:false: err = %v", err)
	}
}

// A backend that refuses caseId as a field it does not know is older than
// the SDK: not retried, named as such.
func TestIncompatibleBackendNotRetried(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := answering(t, &calls, nil, http.StatusInternalServerError,
		`{"ok":false,"error":"ArgumentValidationError: Object contains extra field `+"`caseId`"+` that is not in the validator.\n\nObject: {caseTitle: \"refund flow\"}"}`)
	p := oneResult
	p.Results = []ingest.Result{{CaseTitle: "refund flow", Passed: true, CaseID: "c_refund"}}
	_, err := c.Ingest.Report(t.Context(), ingest.DefaultProject, p)
	if !errors.Is(err, ingest.ErrIncompatibleBackend) || calls.Load() != 1 {
		t.Fatalf("err = %v after %d calls; want ErrIncompatibleBackend after 1", err, calls.Load())
	}
	// A refusal of another field that echoes caseId in its dump is not it.
	calls.Store(0)
	c = answering(t, &calls, nil, http.StatusInternalServerError,
		`{"ok":false,"error":"ArgumentValidationError: Object contains extra field `+"`colour`"+` that is not in the validator. Object: {caseId: \"c_refund\"}"}`)
	_, err = c.Ingest.Report(t.Context(), ingest.DefaultProject, p)
	if errors.Is(err, ingest.ErrIncompatibleBackend) || calls.Load() != 4 {
		t.Errorf("another field: err = %v after %d calls; want an ordinary 500, retried", err, calls.Load())
	}
}

// Minting an upload URL and the upload itself are retried on a 5xx, as the
// service's reporter retries them.
func TestUploadsRetriedOn5xx(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	fail := func(n int32) (int, string) {
		if n == 1 {
			return http.StatusServiceUnavailable, `{"code":"UPSTREAM_ERROR","message":"backend unavailable"}`
		}
		return 0, ""
	}
	c := answering(t, &calls, fail, http.StatusOK, `{"ok":true,"uploadUrl":"https://up.example/u/1"}`)
	if u, err := c.Ingest.UploadURL(t.Context(), ingest.DefaultProject); err != nil || u.UploadURL == "" || calls.Load() != 2 {
		t.Errorf("UploadURL: %+v, %v after %d calls", u, err, calls.Load())
	}
	calls.Store(0)
	c = answering(t, &calls, fail, http.StatusOK, `{"storageId":"kg123"}`)
	if up, err := c.Ingest.UploadArtifact(t.Context(), "https://up.example/u/1", "text/html; charset=utf-8", strings.NewReader("<p>w</p>")); err != nil || up.StorageID != "kg123" || calls.Load() != 2 {
		t.Errorf("UploadArtifact: %+v, %v after %d calls", up, err, calls.Load())
	}
}
