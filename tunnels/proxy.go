package tunnels

import (
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/wire"
)

// PublicPath is the path relayed requests carry when they arrive at the
// grant's URL: the handler given to Serve sees "/mcp" (plus any sub-path
// the caller appended).
const PublicPath = "/mcp"

// ProxyTo returns a handler that forwards relayed requests to a local
// server at target (for example http://127.0.0.1:3000/mcp): PublicPath maps
// to target's path, a sub-path of it to the same sub-path of target's, and
// the query is kept. The request's headers reach the local server as they
// arrived, as the service's agent forwards them, but for Host, the
// hop-by-hop ones (Connection, Upgrade, Transfer-Encoding…) and those a
// caller could use to pass for a trusted proxy: X-Forwarded-For and
// X-Forwarded-Host go on as the edge gave them (it sets both: the caller's
// address, the public host; served outside Serve, they are the caller's
// own); Forwarded, which the edge does not set, is
// dropped; X-Forwarded-Proto is set to the scheme of the tunnel's public
// URL when Serve relayed the request (it knows the grant), and dropped
// otherwise, never the caller's. Nothing else is added: no Accept-Encoding
// (a compressed response is relayed as it is, not decompressed); target's
// userinfo, if any, is sent as Basic auth to a request without an
// Authorization header. Only that path is exposed: any
// other path answers 404, and a path with a "." or ".." segment (also as
// "..;x"), a backslash or a control byte answers 400, however it was
// encoded, so nothing outside target's path is reachable through the
// tunnel. The sub-path is forwarded as the caller escaped it (a%2Fb stays
// a%2Fb), a raw byte a URL may not hold (UTF-8 "é", '{') escaped. A
// doubly encoded path is forwarded only when decoding it again (and again,
// up to three times) shows none of those and no new '/' (100%25off is;
// a%252Fb and %252e%252e answer 400, as does a path still encoded after
// three decodings): a local server that decodes twice would otherwise
// route it to a path the tunnel never checked. Responses are
// flushed as they arrive, so SSE and MCP's streamable HTTP work. An
// unreachable target answers 502 with the service's agent's JSON body,
// {"error": "Local target unreachable: <reason>"}, the reason short: a
// network error's text with the outgoing URL and target (and their
// queries) taken out, or a fixed reason for any other error (a
// transport's of WithProxyTransport may name anything). A local server whose response body fails
// midway (it crashed or dropped the connection) cuts the public caller's
// response short too: the handler panics with http.ErrAbortHandler, which
// Serve (like net/http's server) turns into a body cut short. A local
// server that answers 101 Switching Protocols gives the caller 502 (the
// tunnel cannot switch protocols), with the same JSON body shape,
// {"error": "..."}, and its connection is closed. Nothing is
// logged through the log package; ProxyTo's diagnostics go to slog's
// default logger at debug level (OnUnanswered hands the local server's
// silence to a function of yours).
func ProxyTo(target *url.URL, opts ...ProxyOption) (http.Handler, error) {
	if target == nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		return nil, apierr.Invalid("target", "tunnels: ProxyTo needs an absolute http or https URL")
	}
	var o proxyOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	t := *target
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			rest := pr.In.URL.Path[len(PublicPath):] // checked by exposedOnly
			out := pr.Out.URL
			out.Scheme, out.Host = t.Scheme, t.Host
			// A transport never sends a URL's userinfo (http.Client does):
			// it becomes Basic auth here, unless the caller sent its own.
			if t.User != nil && pr.Out.Header.Get("Authorization") == "" {
				pw, _ := t.User.Password()
				pr.Out.SetBasicAuth(t.User.Username(), pw)
			}
			// Rewrite drops Forwarded and X-Forwarded-*: the edge's are
			// put back, the caller's own claims are not.
			setForwarded(pr)
			out.Path = strings.TrimSuffix(t.Path, "/") + rest
			rawRest, ok := escapedRest(pr.In.URL)
			if !ok {
				// The separating '/' was escaped (/mcp%2Fx): the rest is
				// escaped afresh, target's own escapes kept all the same.
				rawRest = (&url.URL{Path: rest}).EscapedPath()
			}
			out.RawPath = strings.TrimSuffix(t.EscapedPath(), "/") + rawRest
			if rest == "" {
				// PublicPath itself: target's path as given, its trailing slash too
				out.Path, out.RawPath = t.Path, t.EscapedPath()
			}
			if out.Path == "" {
				out.Path, out.RawPath = "/", ""
			}
			// The caller's escapes stay as sent (a%2Fb is one segment, not
			// two): EscapedPath uses RawPath when it is a valid spelling
			// of Path, and escapes Path itself otherwise.
			out.RawQuery = mergeQuery(t.RawQuery, pr.In.URL.RawQuery)
			pr.Out.Host = t.Host
		},
		// Watches the response body: ReverseProxy aborts a response whose
		// body fails only under net/http's server (http.ServerContextKey),
		// and otherwise ends it as if it were complete.
		Transport:     watchBody{base: o.transport},
		FlushInterval: -1, // flush after every write: streaming responses
		// Its own diagnostics (a body copy that failed) too.
		ErrorLog: log.New(debugLog{}, "", 0),
		// The default handler logs through the log package, beside the
		// caller's slog, with the outgoing URL (and so its query) in it.
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if ue, ok := errors.AsType[*url.Error](err); ok {
				err = ue.Err
			}
			if callerGone(r.Context()) {
				// The local server was not at fault, and nobody reads
				// the answer.
				w.WriteHeader(http.StatusBadGateway)
				return
			}
			if errors.Is(err, errSwitchedProtocols) {
				// The local server did answer: OnUnanswered is not told.
				slog.DebugContext(r.Context(), "tunnels: "+err.Error())
				writeBadGateway(w, "Local target switched protocols, which the tunnel cannot relay")
				return
			}
			slog.DebugContext(r.Context(), "tunnels: local server did not answer", "error", withoutURLs(err.Error(), r.URL, &t))
			if o.onUnanswered != nil {
				o.onUnanswered(r, err)
			}
			writeUnreachable(w, unreachableReason(err, r.URL, &t))
		},
	}
	return exposedOnly(abortCutShort(rp)), nil
}

// escapedRest is the sub-path after PublicPath (which exposedOnly found
// u.Path to start with) as the caller escaped it; false when its '/' is
// escaped itself (%2F: Serve's requests never are), and the rest is then
// escaped afresh.
func escapedRest(u *url.URL) (string, bool) {
	esc := spelledPath(u) // a valid spelling of Path: each %XX one byte of it
	i := 0
	for range len(PublicPath) {
		if i < len(esc) && esc[i] == '%' {
			i += 2
		}
		i++
	}
	if i > len(esc) || i < len(esc) && esc[i] != '/' {
		return "", false
	}
	return esc[i:], true
}

// spelledPath is u's path as the caller spelled it (RawPath), with only
// the bytes a valid spelling may not hold raw (a raw UTF-8 "é", a space,
// '{'…) escaped: the caller's own escapes stay, so a%2Fb is one segment.
// EscapedPath would escape the decoded path afresh once RawPath holds such
// a byte, as a request the service's edge relays as written may. A RawPath
// that does not spell Path (a handler changed one of them) gives way to
// EscapedPath.
func spelledPath(u *url.URL) string {
	raw := u.RawPath
	if raw == "" {
		return u.EscapedPath()
	}
	if p, err := url.PathUnescape(raw); err != nil || p != u.Path {
		return u.EscapedPath()
	}
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '%' || pathByte(c) {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(raw)+16), raw[:i]...)
		}
		b = append(b, '%', hex[c>>4], hex[c&0xf])
	}
	if b == nil {
		return raw
	}
	return string(b)
}

// pathByte reports a byte url.URL.EscapedPath keeps raw in a path:
// unreserved, sub-delims, ':', '@', '/' and the brackets it leaves alone.
func pathByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/[]", c) >= 0
}

// callerGone reports whether ctx ended because the caller went away: Serve
// ended the stream (the caller gone, the session done), or net/http's
// server cancelled the request; a deadline of the user's middleware is not
// the caller leaving, and the local server's silence is then reported.
func callerGone(ctx context.Context) bool {
	cause := context.Cause(ctx)
	return errors.Is(cause, errStreamEnded) || cause == context.Canceled
}

// A ProxyOption configures ProxyTo.
type ProxyOption func(*proxyOptions)

type proxyOptions struct {
	onUnanswered func(*http.Request, error)
	transport    http.RoundTripper
}

// WithProxyTransport sends the requests to the local server through rt
// instead of ProxyTo's own transport (http.DefaultTransport's settings,
// without compression, shared by every ProxyTo handler), whose keep-alive
// connections to the local server outlive Serve until their idle timeout
// (nothing else closes them): a program that checks for
// goroutine leaks, or runs many tunnels, passes a transport of its own
// and closes its idle connections once Serve has returned. Give an
// *http.Transport DisableCompression: otherwise it adds "Accept-Encoding:
// gzip" to a request that had none and decompresses the answer, which
// ProxyTo cannot undo.
func WithProxyTransport(rt http.RoundTripper) ProxyOption {
	return func(o *proxyOptions) { o.transport = rt }
}

// OnUnanswered calls f, on the request's goroutine, for each relayed
// request the local server did not answer (it refused the connection,
// timed out or dropped it before a response head): the caller gets 502.
// A request whose caller went away first is not counted, nor one the
// local server answered with 101 Switching Protocols (also a 502). f is called from
// as many goroutines as requests are in flight, and must not block.
func OnUnanswered(f func(r *http.Request, err error)) ProxyOption {
	return func(o *proxyOptions) { o.onUnanswered = f }
}

// bodyFailure records that a local response body failed while it was
// being relayed.
type bodyFailure struct{ failed atomic.Bool }

type bodyFailureKey struct{}

// abortCutShort panics with http.ErrAbortHandler when the local response
// body failed: next (a ReverseProxy) returned as if it were complete.
func abortCutShort(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bf := new(bodyFailure)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bodyFailureKey{}, bf)))
		// A stream the tunnel ended (the caller gone) has nothing left to
		// abort: panicking then would reach the user's middleware on every
		// ordinary disconnect. A context the middleware ended (a deadline)
		// still aborts: the caller is there, and must see the cut.
		if bf.failed.Load() && !errors.Is(context.Cause(r.Context()), errStreamEnded) {
			panic(http.ErrAbortHandler)
		}
	})
}

// errSwitchedProtocols is a local server's 101 Switching Protocols: a
// relayed request cannot switch protocols (the protocol has no way to
// carry the switched connection).
var errSwitchedProtocols = errors.New("the local server answered 101 Switching Protocols, which the tunnel cannot relay")

// watchBody is base (nil: defaultProxyTransport) with the response body
// watched for a read error other than io.EOF. A 101's connection is
// closed at once and the 101 reported as errSwitchedProtocols:
// ReverseProxy, which cannot hijack the tunnel's ResponseWriter, would
// leave it open.
type watchBody struct{ base http.RoundTripper }

func (w watchBody) RoundTrip(r *http.Request) (*http.Response, error) {
	base := w.base
	if base == nil {
		base = defaultProxyTransport()
	}
	resp, err := base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		_ = resp.Body.Close()
		return nil, errSwitchedProtocols
	}
	if bf, ok := r.Context().Value(bodyFailureKey{}).(*bodyFailure); ok {
		resp.Body = &watchedBody{ReadCloser: resp.Body, bf: bf}
	}
	return resp, nil
}

type watchedBody struct {
	io.ReadCloser
	bf *bodyFailure
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		b.bf.failed.Store(true)
	}
	return n, err
}

// debugLog writes ReverseProxy's log lines to slog's default logger at
// debug level, as ProxyTo's ErrorHandler does.
type debugLog struct{}

func (debugLog) Write(p []byte) (int, error) {
	slog.Debug("tunnels: " + strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// exposedOnly refuses what lies outside PublicPath before next sees it. The
// checks run on the decoded path, so %2e%2e and %2f are caught too: the
// local server may decode and clean them itself.
func exposedOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p != PublicPath && !strings.HasPrefix(p, PublicPath+"/") {
			http.Error(w, "tunnels: only "+PublicPath+" is exposed", http.StatusNotFound)
			return
		}
		if strings.ContainsRune(p, '\\') || hasDotSegment(p) || stillEncoded(p) || hasControl(p) {
			http.Error(w, "tunnels: the path is not forwarded: it has a dot segment, a backslash or a control byte, or would have one (or a new '/') if decoded again", http.StatusBadRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hasDotSegment reports a "." or ".." segment, also with ";parameters"
// after it: servlet containers read "..;x" as "..".
func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		seg, _, _ = strings.Cut(seg, ";")
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// stillEncoded reports a decoded path that, decoded once more (as a server
// that decodes twice would, leniently: valid escapes only), shows what the
// other checks refuse: a dot segment, a new slash, a backslash, a control
// byte, or yet more encoding (%252e%252e is ".."), up to maxDecodes passes;
// a path still encoded after that many is refused too, rather than
// decoded once per level (quadratic in its length). A literal percent
// sign that decodes to nothing of the kind ("100%25abc") is forwarded.
func stillEncoded(p string) bool {
	for range maxDecodes {
		if !hasEscape(p) {
			return false
		}
		q := lenientUnescape(p)
		if hasDotSegment(q) || strings.Count(q, "/") != strings.Count(p, "/") ||
			strings.ContainsRune(q, '\\') || hasControl(q) {
			return true
		}
		p = q
	}
	return hasEscape(p)
}

// hasControl reports a NUL or other control byte, which no MCP path has
// and some servers truncate at.
func hasControl(p string) bool {
	return strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

func mergeQuery(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "&" + b
}

// maxDecodes is how many times hasSecret and stillEncoded decode a string
// before reading what is still encoded as suspect: three levels of %25
// nesting are more than any ordinary URL carries.
const maxDecodes = 3

// hasEscape reports a valid %XX escape in p, which lenientUnescape would
// decode.
func hasEscape(p string) bool {
	for {
		i := strings.IndexByte(p, '%')
		if i < 0 {
			return false
		}
		if wire.PercentByte(p, i) >= 0 {
			return true
		}
		p = p[i+1:]
	}
}

// lenientUnescape decodes the valid %XX escapes of p and keeps the rest as
// it is, as a lenient server would.
func lenientUnescape(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		if c := wire.PercentByte(p, i); c >= 0 {
			b.WriteByte(byte(c))
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
