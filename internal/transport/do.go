package transport

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/cenkalti/backoff/v4"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Do sends req, retrying as its class allows, and decodes a 2xx JSON body
// into out (when out is non-nil). Failures are *shared.Error for error
// responses and client-side validation, the context's error when ctx ends
// (wrapped with the method and path: errors.Is still matches
// context.Canceled and context.DeadlineExceeded), or a wrapped network
// error.
func (t *Transport) Do(ctx context.Context, req *Request, out any) error {
	refs := holdBody(req.Release)
	defer refs.drop()
	if t.configured() == nil { // a zero Client or service, or a &Transport{}: a typed error, not a panic
		return apierr.Invalid("client", "unconfigured client: build it with projectops.NewClient or a package's NewService")
	}
	target, err := joinPath(t.base, req.Route, req.Params)
	if err != nil {
		return err
	}
	// What errors and logs show: a caller who pasted the key as an id
	// (the CLI's ENV_ID, say) must not see it echoed there.
	path := t.Redact(target[len(t.base):])
	call, err := callConfig(ctx)
	if err != nil {
		return err
	}
	shownID := shownRequestID(ctx)
	if timeout := cmp.Or(call.Timeout, t.timeout); timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	// What text the call shows is cleaned of: built only if it is needed.
	cs := callScrub{t: t, req: req, call: call.Header}
	maxRetries := t.maxRetries
	if call.MaxRetries != nil {
		maxRetries = *call.MaxRetries
	}
	if !req.Public && t.key == nil {
		return &shared.Error{Code: shared.CodeUnauthorized, Method: req.Method, Path: path,
			Message: "no API key configured: set PROJECTOPS_API_KEY or use option.WithAPIKey"}
	}
	if req.URL != "" {
		target = req.URL
	}
	if len(req.Query) > 0 {
		target += "?" + req.Query.Encode()
	}
	cs.target = target
	body := req.RawBody
	if body == nil && req.Body != nil {
		if req.Wire != nil {
			body, err = wire.Encode(req.Body, req.Wire)
		} else {
			body, err = json.Marshal(req.Body)
		}
		if err != nil {
			return bodyEncodeError(req.Method, path, err)
		}
	}
	var idemKey string
	switch {
	case call.IdempotencyKey != "":
		idemKey = call.IdempotencyKey
	case req.IdempotencyKey:
		idemKey = newIdempotencyKey()
	}
	// A key makes a write safe to repeat only where the service reads it
	// (req.IdempotencyKey); elsewhere it travels, and changes nothing.
	dedup := idemKey != "" && req.IdempotencyKey

	if err := ctx.Err(); err != nil {
		// Not every RoundTripper checks (httpmock, in-process doubles).
		return ctxError(req, path, err)
	}
	var bo backoff.BackOff // created on the first retry only
	for attempt := 0; ; attempt++ {
		if err := t.wait(ctx); err != nil {
			if ctx.Err() != nil {
				return ctxError(req, path, ctx.Err())
			}
			return fmt.Errorf("projectops: %s %s: %w", req.Method, path, err)
		}
		var start time.Time
		if t.log.Enabled(ctx, slog.LevelDebug) {
			start = time.Now() // only logs use it, and it is not free
		}
		resp, err := t.attempt(ctx, req, target, body, refs, idemKey, attempt, &call)
		if call.Response != nil {
			clean := cs.clean
			if err != nil || !success(resp.StatusCode) {
				// An error's metadata is error text; a success's headers
				// are the service's, which a header value must not rewrite.
				clean = cs.shown
			}
			recordResponse(call.Response, resp, attempt, clean)
		}
		if shownID != nil {
			*shownID = ""
			if err == nil {
				*shownID = cs.shown(resp.Header.Get(RequestIDHeader))
			}
		}
		if err != nil && req.OnNetError != nil {
			req.OnNetError(err)
		}
		if req.OnAttempt != nil {
			st := 0
			if err == nil {
				st = resp.StatusCode
			}
			req.OnAttempt(st)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctxError(req, path, ctx.Err())
			}
			err = t.causeError(req, path, &cs, unwrapURLError(err))
			t.logAttempt(ctx, req, 0, attempt, start, err)
			if attempt >= maxRetries || !retryableNetErr(req.Class, dedup, err) {
				return err
			}
			if werr := t.backoff(ctx, req, attempt, &bo, err); werr != nil {
				return werr
			}
			continue
		}
		t.logAttempt(ctx, req, resp.StatusCode, attempt, start, nil)
		if success(resp.StatusCode) {
			err := t.decodeSuccess(resp, out, req, path, &cs, call.Response)
			// A body cut short (the connection reset mid-response) is a
			// network error: a read is retried, a write that may have run
			// is not.
			re, cut := errors.AsType[*bodyReadError](err)
			if !cut || ctx.Err() != nil || attempt >= maxRetries || !retryableNetErr(req.Class, dedup, re.err) {
				return err
			}
			if werr := t.backoff(ctx, req, attempt, &bo, err); werr != nil {
				return werr
			}
			continue
		}
		if isRedirect(resp.StatusCode) {
			return redirectError(resp, req.Method, path, cs.shown)
		}
		apiErr, hasRA, cut := t.decodeError(resp, req, path, &cs)
		if cut != nil && ctx.Err() != nil {
			// The call's own end cut the error body short: what is left
			// of it says nothing, the context's error says why.
			return ctxError(req, path, ctx.Err())
		}
		if attempt >= maxRetries || !retryableStatus(req.Class, dedup, apiErr) ||
			req.Legacy && apierr.RejectsCaseID(apiErr) {
			return apiErr
		}
		if bo == nil {
			bo = t.newBackOff()
		}
		// Drawn whether used or not, so the n-th retry's backoff is the
		// n-th step of the schedule after a Retry-After wait too.
		wait := bo.NextBackOff()
		if hasRA {
			// Never earlier than Retry-After; never longer than allowed
			// without telling the caller.
			if apiErr.RetryAfter > t.maxRA {
				return apiErr
			}
			wait = apiErr.RetryAfter
		}
		if werr := t.retryWait(ctx, req, attempt, wait, hasRA, apiErr); werr != nil {
			return werr
		}
	}
}

// ctxError is the error of a call its context ended: the context's error
// under the call's method and path, as a network failure's reads, so a log
// line says which call was cut short; errors.Is still finds
// context.Canceled or context.DeadlineExceeded.
func ctxError(req *Request, path string, err error) error {
	return fmt.Errorf("projectops: %s %s: %w", req.Method, path, err)
}

// wait paces an attempt through the client-side limiter. Its failure ends
// the call: retrying cannot help when the context ends (or would end) before
// a token is available.
func (t *Transport) wait(ctx context.Context) error {
	if t.limiter == nil {
		return nil
	}
	if err := t.limiter.Wait(ctx); err != nil {
		// rate reports a wait that would outlast the deadline in plain
		// text; keep it recognisable as a deadline.
		return fmt.Errorf("client-side rate limit: %w (%v)", context.DeadlineExceeded, err)
	}
	return nil
}

// attempt performs one HTTP exchange with a fresh body reader (the rewind).
func (t *Transport) attempt(ctx context.Context, req *Request, target string, body []byte, refs *bodyRefs, idemKey string, n int, call *option.Config) (*http.Response, error) {
	hr, err := t.build(ctx, req, target, body, refs, idemKey, n, call)
	if err != nil {
		return nil, err
	}
	return t.send(hr)
}

// build makes one attempt's request with a fresh body reader. With refs
// (the caller wants body back, Request.Release) every reader of body it
// makes, GetBody's copies too, holds a reference until it is closed. The
// call's headers (call) go after the client's, replacing those it names.
func (t *Transport) build(ctx context.Context, req *Request, target string, body []byte, refs *bodyRefs, idemKey string, n int, call *option.Config) (*http.Request, error) {
	if len(body) == 0 {
		refs = nil // net/http sends http.NoBody: nothing reads the buffer
	}
	var rd io.Reader
	switch {
	case refs != nil:
		// Do holds its own reference while it builds attempts, so this
		// cannot find the buffer released; the check keeps it honest.
		rr, err := refs.reader(body)
		if err != nil {
			return nil, err
		}
		rd = rr
	case body != nil:
		rd = bytes.NewReader(body)
	}
	hr, err := t.newRequest(ctx, req.Method, target, rd)
	if err != nil {
		if rr, ok := rd.(*refReader); ok {
			_ = rr.Close() // never handed to net/http
		}
		return nil, err
	}
	if refs != nil {
		// NewRequest knows the length of a *bytes.Reader only.
		hr.ContentLength = int64(len(body))
	}
	if body != nil {
		// GetBody lets net/http send the request again on its own: HTTP/2
		// re-sends one whose stream a peer reset with PROTOCOL_ERROR after
		// the whole request went out. A write that may not run twice gets
		// none; a re-send the peer proves safe (REFUSED_STREAM, a graceful
		// GOAWAY) then comes back as an error NotSent recognises, and the
		// retry rules send it again.
		hr.GetBody = nil
		switch {
		case !replayable(req):
		case refs != nil:
			hr.GetBody = func() (io.ReadCloser, error) {
				rr, err := refs.reader(body)
				if err != nil {
					return nil, err // not a typed nil in the interface
				}
				return rr, nil
			}
		default:
			hr.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		}
		hr.Header["Content-Type"] = jsonContentType
		if req.ContentType != "" {
			hr.Header["Content-Type"] = []string{req.ContentType}
		}
	}
	for k, v := range t.header { // before the SDK's own: option refuses those keys anyway
		if len(call.ReplaceHeader) == 0 || !replaced(call.ReplaceHeader, k) {
			hr.Header[k] = v
		}
	}
	for k, v := range call.Header {
		// Shared as the client's are when the name has no value yet;
		// else a copy, so appending never writes into the client's slice.
		if old := hr.Header[k]; len(old) > 0 {
			v = append(old[:len(old):len(old)], v...)
		}
		hr.Header[k] = v
	}
	hr.Header["Accept"] = jsonContentType
	if !req.Public {
		hr.Header["Authorization"] = t.authHeader()
	}
	if t.ua != "" {
		hr.Header["User-Agent"] = t.uaHeader
	}
	if idemKey != "" {
		v := []string{idemKey}
		hr.Header[PrefixedIdempotencyHeader] = v
		// net/http re-sends a request carrying Idempotency-Key when a
		// reused connection fails after sending it.
		if replayable(req) {
			hr.Header[IdempotencyHeader] = v
		}
	}
	if n > 0 {
		hr.Header[RetryCountHeader] = []string{strconv.Itoa(n)}
	}
	return hr, nil
}

var jsonContentType = []string{"application/json"}

// replaced reports whether a call's WithHeader or WithHeaderDel names the
// client's header k (option.Config.ReplaceHeader), names compared
// canonicalized: an option of the caller's own may store either spelling.
func replaced(names []string, k string) bool {
	k = http.CanonicalHeaderKey(k)
	for _, n := range names {
		if http.CanonicalHeaderKey(n) == k {
			return true
		}
	}
	return false
}

// success reports a 2xx status, whose answer Do decodes into the result.
func success(status int) bool { return status >= 200 && status < 300 }

// replayable reports whether net/http may send req again on its own, behind
// the retry rules' back: only a request that may run twice, a read or an
// idempotent write, or one the service deduplicates by its key.
func replayable(req *Request) bool {
	return req.IdempotencyKey || req.Class != Write && req.Class != Upload
}

// decodeOptions decode a body with encoding/json's semantics (v1 options)
// except its first pass over the whole body to validate it: a syntax error
// then leaves out partly filled, which nobody sees, as a failed decode
// returns an error and drops the value. The pass was a tenth of an
// in-process call.
var decodeOptions = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv1.ReportErrorsWithLegacySemantics(false))

// decodeJSON decodes b into out (a pointer) with decodeOptions; every
// success body goes through it, whatever its framing. A failure is decoded
// again, into a fresh value, by encoding/json itself, so the error is
// usually encoding/json's *SyntaxError or *UnmarshalTypeError (a type
// error names the Go field, not a JSON pointer): the types a caller can
// name with errors.As. A custom UnmarshalJSON's error comes as it is, and
// a body encoding/json accepts (a member name matching two fields only
// case-insensitively) keeps the first decoder's error, as docs/sdk.md
// says. The cost falls on failures only.
func decodeJSON(b []byte, out any) error {
	err := jsonv2.Unmarshal(b, out, decodeOptions)
	if err == nil {
		return nil
	}
	if t := reflect.TypeOf(out); t != nil && t.Kind() == reflect.Pointer {
		if lerr := json.Unmarshal(b, reflect.New(t.Elem()).Interface()); lerr != nil {
			return lerr
		}
	}
	return err
}

// decodeError is a success response that would not decode; one that is not
// JSON at all (an HTML page) names its type, the usual sign of a base URL
// that is not the API's. The type is a header's value, which a gateway may
// fill with anything: it is cleaned of the request's secrets first.
func decodeError(req *Request, path string, resp *http.Response, err error, clean func(string) string) error {
	if e := notJSON(req, path, resp, err, clean); e != nil {
		return e
	}
	return fmt.Errorf("projectops: %s %s: decoding response: %w", req.Method, path, err)
}

// notJSON is decodeError's message for a response whose declared type is
// not JSON, or nil when it is JSON or undeclared.
func notJSON(req *Request, path string, resp *http.Response, err error, clean func(string) string) error {
	ct := resp.Header.Get("Content-Type")
	if !declaredNotJSON(ct) {
		return nil
	}
	shown := clean(ct)
	return fmt.Errorf("projectops: %s %s: decoding response: it is %q, not JSON (is the base URL the API's, ending in /api/v1?): %w",
		req.Method, path, shown[:min(len(shown), 64)], err)
}

// declaredNotJSON reports whether a Content-Type is given and is not JSON.
// A JSON type with a malformed parameter is still JSON: ParseMediaType
// returns the type with its error.
func declaredNotJSON(ct string) bool {
	if ct == "" {
		return false
	}
	mt, _, _ := mime.ParseMediaType(ct)
	return mt != "application/json" && mt != "text/json" && !strings.HasSuffix(mt, "+json")
}

// errEmptyBody is the cause of an empty success body that declares a type
// other than JSON (a captive portal's or a gateway's 200 text/html): an
// empty JSON or undeclared body leaves the result as it is, but one that
// says it is a page is not the API's answer.
var errEmptyBody = errors.New("the body is empty")

// blankBody is the outcome of an empty success body decoded into out.
func (t *Transport) blankBody(req *Request, path string, cs *callScrub, resp *http.Response) error {
	if !declaredNotJSON(resp.Header.Get("Content-Type")) {
		return nil // the usual empty answer: no cleaner built for it
	}
	return notJSON(req, path, resp, errEmptyBody, cs.shown)
}

func (t *Transport) decodeSuccess(resp *http.Response, out any, req *Request, path string, cs *callScrub, keep *option.Response) error {
	limit := t.maxBody
	defer drainClose(resp.Body)
	if (out == nil && keep == nil) || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if resp.ContentLength > limit {
		return &shared.ResponseTooLargeError{Method: req.Method, Path: path, Limit: limit, ContentLength: resp.ContentLength}
	}
	// Read whole, decoded in one pass (decodeJSON) whatever the framing,
	// so a body that does not decode gives the same error either way.
	var buf []byte
	var err error
	if n := resp.ContentLength; n > 0 {
		buf, err = readSized(resp.Body, n, limit) // within the cap: checked above
	} else {
		buf, err = io.ReadAll(&cappedReader{r: resp.Body, left: limit}) // chunked or unknown
	}
	switch {
	case errors.Is(err, errOverCap):
		return &shared.ResponseTooLargeError{Method: req.Method, Path: path, Limit: limit, ContentLength: -1}
	case err != nil:
		return t.readFailure(req, path, cs, err)
	}
	if keep != nil {
		keep.Body = buf // the caller wants the body itself (WithResponseInto)
		if out == nil {
			return nil
		}
	}
	if blank(buf) {
		return t.blankBody(req, path, cs, resp) // an empty JSON body leaves out as it is
	}
	if err := decodeJSON(buf, out); err != nil {
		return decodeError(req, path, resp, err, cs.shown)
	}
	return nil
}

// bodyReadError is a success response whose body could not be read to its
// end (the connection failed mid-response): a network error, which Do may
// retry, unlike a body that is not the JSON expected.
type bodyReadError struct {
	msg error // what the caller sees
	err error // the read's own error
}

func (e *bodyReadError) Error() string { return e.msg.Error() }
func (e *bodyReadError) Unwrap() error { return e.msg }

// decodeError reads a capped error body into *shared.Error. hasRA reports
// whether a usable Retry-After header was present. The raw body is
// cleaned of the key and a minted URL (cs.raw), staying JSON; the decoded
// text a caller reads of every secret of the call (cs.shown), the
// credential headers' values among them, which never run alone on the raw
// JSON (a value with a quote in it would break it); the code, the reason
// and the details' keys of the request's own secrets only (cs.clean).
func (t *Transport) decodeError(resp *http.Response, req *Request, path string, cs *callScrub) (*shared.Error, bool, error) {
	defer drainClose(resp.Body)
	raw, rerr := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
	// A gateway may reflect the key into the envelope's message or details,
	// which end up in error text.
	raw = []byte(cs.raw(string(raw)))
	var e *shared.Error
	b, enveloped := apierr.DecodeBody(raw)
	if !enveloped && req.Legacy && rerr == nil {
		e = legacyError(resp.StatusCode, raw, cs)
	}
	switch {
	case enveloped:
		e = apierr.FromBody(resp.StatusCode, b)
		apierr.AddBilling(e, raw)
		if cs.hasHeaders() {
			// The text first, with every value at once; the names then
			// (clean on text already shown takes out nothing more). The
			// billing gate key was copied from the body before either, so
			// it is cleaned here too, as the legacy form's is.
			apierr.RedactText(e, cs.shown)
			if e.Billing != nil {
				e.Billing.GateKey = cs.shown(e.Billing.GateKey)
			}
		}
		apierr.Redact(e, cs.clean)
	case e != nil: // the legacy form's text, redacted whole before a line was kept
	default:
		// The media type is a header's token, which a gateway may fill
		// with anything: it is cleaned with the message below.
		ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if ct == "" {
			ct = "no content type"
		}
		// The body is not echoed: a proxy page could reflect request headers.
		what := "non-envelope error body"
		if rerr != nil {
			what = "error body cut short: " + rerr.Error()
		}
		// The code its status implies, as the official client gives one
		// (a bare 429 is still RATE_LIMITED, which pollers wait out; the
		// reference declares a run cancel's 409 with no body).
		e = &shared.Error{StatusCode: resp.StatusCode, Code: apierr.StatusCode(resp.StatusCode),
			Message: cs.shown(fmt.Sprintf("%s (%s, %s, %d bytes)", http.StatusText(resp.StatusCode), what, ct, len(raw)))}
	}
	e.Method, e.Path = req.Method, path
	// An echo of anything, the key or a secret of the request too: cleaned
	// as the message is (and as WithResponseInto's RequestID is).
	e.RequestID = cs.shown(resp.Header.Get(RequestIDHeader))
	ra, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	e.RetryAfter = ra
	return e, ok, rerr
}

// legacyError is an error body in the ingest routes' legacy form
// (apierr.LegacyScrubbed), or nil. A billing refusal is told, and its
// JSON read, from text cleaned of the call's own secrets alone: a
// credential header's value is any text (quotes too), and a match of it
// could hide the code or break the JSON. Every string read from its
// payload is then cleaned of every value (a header value in its gate key,
// its message before a line of it is cut), as is any other text before a
// line of it is kept.
func legacyError(status int, raw []byte, cs *callScrub) *shared.Error {
	e, _ := apierr.LegacyScrubbed(status, raw, cs.clean, cs.shown)
	return e
}

// drainClose reads a little of what is left so the connection can be reused.
// A plain loop: io.CopyN would allocate a LimitReader on every call, and the
// body is usually at EOF already.
func drainClose(rc io.ReadCloser) {
	bp := drainBufs.Get().(*[512]byte)
	for range 8 {
		if _, err := rc.Read(bp[:]); err != nil {
			break
		}
	}
	drainBufs.Put(bp)
	_ = rc.Close()
}

var drainBufs = sync.Pool{New: func() any { return new([512]byte) }}

// unwrapURLError is *url.Error's cause: its URL may carry query values,
// and its Op ("Get") repeats the method the error text names already.
func unwrapURLError(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// logRetry says, at debug level, that attempt+2 follows after wait and why
// (backoff or the server's Retry-After, with the value it asked for when
// asked is not negative: wait adds jitter to it), so -v shows where time
// goes.
func (t *Transport) logRetry(ctx context.Context, req *Request, attempt int, wait, asked time.Duration, why string) {
	if !t.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{slog.String("method", req.Method), slog.String("route", req.Route),
		slog.Int("next_attempt", attempt+2), slog.Duration("wait", wait), slog.String("after", why)}
	if asked >= 0 {
		attrs = append(attrs, slog.Duration("retry_after", asked))
	}
	t.log.LogAttrs(ctx, slog.LevelDebug, "projectops retry", attrs...)
}

func (t *Transport) logAttempt(ctx context.Context, req *Request, status, attempt int, start time.Time, err error) {
	if !t.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", req.Method),
		slog.String("route", req.Route),
		slog.Int("status", status),
		slog.Int("attempt", attempt+1),
	}
	if !start.IsZero() { // zero when the level was raised during the call
		attrs = append(attrs, slog.Duration("duration", time.Since(start)))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	t.log.LogAttrs(ctx, slog.LevelDebug, "projectops request", attrs...)
}

// backoff waits out the next backoff interval before a retry after a
// network failure (last); *bo is made on first use. It returns the error
// to end the call with when ctx ends first.
func (t *Transport) backoff(ctx context.Context, req *Request, attempt int, bo *backoff.BackOff, last error) error {
	if *bo == nil {
		*bo = t.newBackOff()
	}
	return t.retryWait(ctx, req, attempt, (*bo).NextBackOff(), false, last)
}

// retryWait waits d before a retry (attempt+2, after the server's
// Retry-After when ra, else after backoff) that follows last, or returns
// the error the call ends with: ctx's error when ctx has ended or ends
// during the wait, and at once when ctx's deadline comes before the wait
// would end, with the error the wait would have given at the deadline. A
// Retry-After wait gets its jitter on top, within what the deadline
// leaves.
func (t *Transport) retryWait(ctx context.Context, req *Request, attempt int, d time.Duration, ra bool, last error) error {
	if err := ctx.Err(); err != nil {
		// Ended already (a cancel is not a deadline): say so as ctx does.
		return waitCut(err, last)
	}
	left := time.Duration(math.MaxInt64)
	if dl, ok := ctx.Deadline(); ok {
		// One reading of the clock decides both whether d fits and how
		// much jitter may follow it.
		if left = time.Until(dl); d > 0 && left < d {
			return waitCut(context.DeadlineExceeded, last)
		}
	}
	asked, why := time.Duration(-1), "backoff" // no Retry-After
	if ra {
		asked, d, why = d, raJitter(d, t.maxRA, left), "Retry-After"
	}
	t.logRetry(ctx, req, attempt, d, asked, why)
	if serr := t.sleep(ctx, d); serr != nil {
		return waitCut(serr, last)
	}
	return nil
}

// raJitter is the wait for a Retry-After of ra: ra plus a random part of
// up to a quarter of it. The service's per-key limiter gives every caller
// it refuses within one window the same whole-second value, and callers
// that all come back at that instant are refused together again, so the
// specification asks for jitter on 429 (section 8). The added part never
// takes the wait past maxRA, nor past half of what the deadline leaves
// after ra (left), so the retry keeps time to run.
func raJitter(ra, maxRA, left time.Duration) time.Duration {
	if left <= ra {
		return ra
	}
	if limit := min(ra+ra/4, maxRA, ra+(left-ra)/2); limit > ra {
		return ra + mrand.N(limit-ra)
	}
	return ra
}

// waitCut is the error of a call whose wait before a retry was cut short
// (its context ended): both errors match errors.Is and errors.As, on one
// line (errors.Join would print two).
func waitCut(ctxErr, last error) error {
	return fmt.Errorf("%w while waiting to retry after: %w", ctxErr, last)
}

// bodyEncodeError is a body that does not encode as JSON (a NaN, a
// malformed raw value): a client-side VALIDATION_ERROR, as other pre-send
// mistakes are. The encoder's message may quote the body (an invalid
// number literal, a marshaler's own error text), and bodies carry
// secrets, so it names only the Go type that failed.
func bodyEncodeError(method, path string, err error) *shared.Error {
	return &shared.Error{Code: shared.CodeValidation, Method: method, Path: path,
		Message: "the request body does not encode as JSON" + apierr.EncodeFailure(err),
		Details: map[string]any{"field": "body"}}
}
