package ingest_test

import (
	"errors"
	"fmt"
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
func cannedRoute(t *testing.T, f *fixture, suffix string, status int, body string) (*projectops.Client, *atomic.Int32) {
	var n atomic.Int32
	rt := roundTrip(func(req *http.Request) (*http.Response, error) {
		if !strings.HasSuffix(req.URL.Path, suffix) {
			return f.srv.Transport().RoundTrip(req)
		}
		n.Add(1)
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	})
	return f.client(t, option.WithTransport(rt)), &n
}

func reportOne(t *testing.T, c *projectops.Client, projectID string) error {
	_, err := c.Ingest.Report(t.Context(), projectID, ingest.ReportParams{
		RunParams: ingest.RunParams{SuiteName: "s", ExternalRunID: "review-1"},
		Results:   []ingest.Result{{CaseTitle: "c", Passed: true}}})
	return err
}

// A backend echoing a replay config on the message's first line: its
// credentials are redacted, as the service's reporter redacts them.
func TestLegacyTextRedactsReplayCredentials(t *testing.T) {
	t.Parallel()
	f := setup(t)
	body := `{"ok":false,"error":"Invalid serverReplayConfigs[0]: {\"serverId\":\"s1\",\"url\":\"https://mcp.example/mcp\",\"accessToken\":\"at-live-0123456789abcdef\",\"refreshToken\":\"rt-live-0123456789abcdef\",\"clientSecret\":\"cs-live-0123456789abcdef\"}"}`
	for _, status := range []int{http.StatusBadRequest, http.StatusOK} {
		c, _ := cannedRoute(t, f, "/eval-ingest/report", status, body)
		err := reportOne(t, c, f.ws.ProjectID)
		if err == nil {
			t.Fatalf("status %d: no error", status)
		}
		var e *projectops.Error
		errors.As(err, &e)
		for _, secret := range []string{"at-live-", "rt-live-", "cs-live-"} {
			if strings.Contains(err.Error(), secret) || e != nil && strings.Contains(e.Message, secret) {
				t.Errorf("status %d: error text leaks %s…: %v", status, secret, err)
			}
		}
	}
}

// The gateway passes the backend's canonical {code, message} errors
// through; the service's reporter reads `error ?? message` whatever else
// the body holds, so a caseId refusal in an enveloped 500 is incompatible
// and never retried.
func TestEnvelopedCaseIDRefusal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c, n := cannedRoute(t, f, "/eval-ingest/report", http.StatusInternalServerError,
		`{"code":"INTERNAL_ERROR","message":"ArgumentValidationError: Object contains extra field `+"`caseId`"+` that is not in the validator."}`)
	err := reportOne(t, c, f.ws.ProjectID)
	if !errors.Is(err, ingest.ErrIncompatibleBackend) || n.Load() != 1 {
		t.Errorf("err = %v (ErrIncompatibleBackend %v), %d attempts; want it, 1 attempt", err, errors.Is(err, ingest.ErrIncompatibleBackend), n.Load())
	}
}

// The caseId refusal is found on any line of the message (one headed by
// a request-id line, as a backend client writes it), and that line is the
// one shown.
func TestCaseIDRefusalAfterFirstLine(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c, n := cannedRoute(t, f, "/eval-ingest/report", http.StatusInternalServerError,
		`{"ok":false,"error":"[Request ID: 5c1e0f3a] Server Error\nArgumentValidationError: Object contains extra field `+"`caseId`"+` that is not in the validator.\n\nObject: {results: [...]}"}`)
	err := reportOne(t, c, f.ws.ProjectID)
	if !errors.Is(err, ingest.ErrIncompatibleBackend) || n.Load() != 1 {
		t.Errorf("err = %v, %d attempts; want ErrIncompatibleBackend after 1 attempt", err, n.Load())
	}
}

// A 2xx {ok:false} caseId refusal is named incompatible too.
func TestOKFalseCaseIDRefusal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c, _ := cannedRoute(t, f, "/eval-ingest/report", http.StatusOK,
		`{"ok":false,"error":"ArgumentValidationError: Object contains extra field `+"`caseId`"+` that is not in the validator."}`)
	err := reportOne(t, c, f.ws.ProjectID)
	if !errors.Is(err, ingest.ErrIncompatibleBackend) {
		t.Errorf("err = %v; want ErrIncompatibleBackend", err)
	}
}

// An upload whose answer was lost is not sent again: the URL works once,
// and the first attempt may have used it up (the caller mints another).
func TestUploadNotRetriedAfterLostAnswer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var uploads atomic.Int32
	lost := errors.New("read: connection reset by peer")
	rt := roundTrip(func(req *http.Request) (*http.Response, error) {
		if !strings.Contains(req.URL.Path, "eval-ingest-uploads") {
			return f.srv.Transport().RoundTrip(req)
		}
		resp, err := f.srv.Transport().RoundTrip(req)
		if uploads.Add(1) == 1 && err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			return nil, lost // stored, and the answer lost
		}
		return resp, err
	})
	c := f.client(t, option.WithTransport(rt))
	u, err := c.Ingest.UploadURL(t.Context(), f.ws.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Ingest.UploadArtifact(t.Context(), u.UploadURL, "text/html", strings.NewReader("<p>x</p>"))
	if !errors.Is(err, lost) || uploads.Load() != 1 {
		t.Errorf("upload after a lost answer: %v after %d attempts; want the network error after 1", err, uploads.Load())
	}
}

// The text is redacted whole before it is cut to a line of 512 bytes: a
// token the cut would leave shorter than a rule's minimum goes too.
func TestLegacyTextRedactedBeforeCut(t *testing.T) {
	t.Parallel()
	f := setup(t)
	msg := strings.Repeat("a", 512-len(" Bearer ")-7) + ` Bearer SECRETTOKENVALUE0123`
	c, _ := cannedRoute(t, f, "/eval-ingest/runs/start", http.StatusBadRequest, `{"ok":false,"error":"`+msg+`"}`)
	_, err := c.Ingest.StartRun(t.Context(), f.ws.ProjectID, ingest.RunParams{SuiteName: "s", ExternalRunID: "x"})
	if err == nil || strings.Contains(err.Error(), "SECRETT") {
		t.Errorf("error keeps the token's first characters: …%s", err.Error()[max(0, len(err.Error())-40):])
	}
}

// An enveloped error's details (what callers read through errors.As) are
// redacted with the reporter's rules too.
func TestErrorDetailsRedacted(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c, _ := cannedRoute(t, f, "/eval-ingest/runs/start", http.StatusBadRequest,
		`{"code":"VALIDATION_ERROR","message":"bad replay config","details":{"value":"Authorization: Bearer abcdefgh12345678","url":"https://t.example/mcp?k=tunnelsecret123"}}`)
	_, err := c.Ingest.StartRun(t.Context(), f.ws.ProjectID, ingest.RunParams{SuiteName: "s", ExternalRunID: "x"})
	var e *projectops.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v", err)
	}
	for k, v := range e.Details {
		if s, _ := v.(string); strings.Contains(s, "abcdefgh1234") || strings.Contains(s, "tunnelsecret") {
			t.Errorf("Details[%q] = %q", k, s)
		}
	}
}

// An ok:false answer with a code keeps its message when its details are
// not an object, as an error status's envelope does; the details are kept
// under "value", the key scrubbed from them.
func TestNotOKWithMalformedDetails(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := answering(t, &calls, nil, http.StatusOK,
		`{"ok":false,"code":"VALIDATION_ERROR","message":"bad suite","details":["suiteName","\u0073k_test_legacy123"]}`)
	_, err := c.Ingest.StartRun(t.Context(), ingest.DefaultProject, ingest.RunParams{SuiteName: "s", ExternalRunID: "e"})
	e, ok := errors.AsType[*projectops.Error](err)
	if !ok || !errors.Is(err, ingest.ErrNotOK) || !errors.Is(err, projectops.ErrValidation) {
		t.Fatalf("err = %v, want ErrNotOK matching ErrValidation", err)
	}
	if e.Message != "bad suite" {
		t.Errorf("Message = %q, want the answer's", e.Message)
	}
	v, _ := e.Details["value"].([]any)
	if len(v) != 2 || v[0] != "suiteName" {
		t.Errorf("Details = %v, want the array under value", e.Details)
	}
	if out := fmt.Sprintf("%v %#v", err, e); strings.Contains(out, "legacy123") {
		t.Errorf("the key shows: %s", out)
	}
}
