package mcpops

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// TokenKey scopes imported tokens: a user's grant for one server of one
// project.
type TokenKey struct{ UserID, ProjectID, ServerID string }

// grant is an imported grant. src refreshes the access token with the
// refresh token when it expires (golang.org/x/oauth2, against the saved
// server's token endpoint). Token values live only inside src: nothing
// formats a grant.
type grant struct {
	src oauth2.TokenSource
	// failed is set when a refresh failed: the grant no longer works and
	// calls answer OAUTH_REQUIRED until new tokens are imported.
	failed atomic.Bool
}

// Token implements oauth2.TokenSource, remembering a refused refresh. A
// refresh that could not reach an answer (the endpoint down, slow or
// failing with 5xx) leaves the grant as it was, refreshed again once
// RefreshRetryDelay has passed.
func (t *grant) Token() (*oauth2.Token, error) {
	if t.failed.Load() { // one refused refresh is enough: no retry per request
		return nil, errGrantFailed
	}
	tok, err := t.src.Token()
	switch {
	case err == errRefreshUnavailable:
		return nil, err
	case err != nil:
		t.failed.Store(true)
		return nil, errGrantFailed
	}
	return tok, nil
}

// errGrantFailed and errRefreshUnavailable replace oauth2's errors, whose
// text may quote the token endpoint's response.
var (
	errGrantFailed        = &grantError{"oauth grant could not be refreshed"}
	errRefreshUnavailable = &grantError{"oauth token endpoint unavailable"}
)

type grantError struct{ msg string }

func (e *grantError) Error() string { return e.msg }

// RefreshRetryDelay is how long, on the double's clock, a grant whose
// refresh got no answer waits before the next attempt: one attempt per
// call, not one per HTTP request of it (a stalled endpoint held each call
// for several timeouts).
const RefreshRetryDelay = 5 * time.Second

// refused reports whether a refresh error is the token endpoint refusing
// the grant (a 4xx answer: invalid_grant and the like, or a redirect
// originBound did not follow, which the next attempt would meet again), as
// opposed to no answer or a server failure (network, timeout, 429, 5xx).
func refused(err error) bool {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return false
	}
	code := 0
	if re.Response != nil {
		code = re.Response.StatusCode
	}
	switch {
	case code >= 500, code == http.StatusTooManyRequests, code == http.StatusRequestTimeout,
		re.ErrorCode == "temporarily_unavailable", re.ErrorCode == "server_error": // RFC 6749's transient codes
		return false
	case re.ErrorCode != "": // an OAuth error answer (invalid_grant), even with 200
		return true
	}
	return code >= 300
}

// storeTokens saves an imported grant, replacing any earlier one for the
// same key, and drops the user's kept session on that server so the next
// call connects with the new token. tok's expiry is on the double's clock.
// A cfg without a token URL refreshes at the one issuer's metadata names.
func (m *Layer) storeTokens(k TokenKey, tok *oauth2.Token, cfg *oauth2.Config, issuer string) {
	// Metadata and token requests follow no redirect out of their origin:
	// the refresh token and client secret stay where the import sent them.
	hc := originBound(m.http)
	src := &clockSource{now: m.cfg.Now, ctx: context.WithValue(m.ctx, oauth2.HTTPClient, hc), timeout: m.cfg.Timeout, tok: tok,
		http: hc}
	if tok.RefreshToken != "" {
		src.cfg, src.issuer = cfg, issuer
	}
	rec := &grant{src: src}
	m.mu.Lock()
	m.tokens[k] = rec
	m.mu.Unlock()
	key := poolKey(k.UserID, k.ServerID)
	m.pool.Drop(func(pk string) bool { return pk == key })
}

// grant returns the imported grant for k, or nil.
func (m *Layer) grant(k TokenKey) *grant {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tokens[k]
}

// expiryDelta is how long before its expiry a token counts as expired
// (oauth2's margin).
const expiryDelta = 10 * time.Second

// clockSource serves an imported grant's access token while it is valid on
// the double's clock (WithClock), and when it has expired refreshes it
// through cfg (golang.org/x/oauth2, against the saved server's token
// endpoint) if it can: a test that advances the clock sees its token
// expire, as every other expiry in the double does. Refreshes are one at a
// time; concurrent calls wait for the same one.
type clockSource struct {
	now     func() time.Time
	ctx     context.Context // carries the double's HTTP client for refreshes
	timeout time.Duration   // bounds a refresh, as connecting and each MCP operation
	cfg     *oauth2.Config  // nil: the token cannot be refreshed
	// issuer is the authorization server whose metadata (RFC 8414) names
	// the token endpoint, when cfg has none: the import's
	// authorizationServerUrl, the service's refresh fallback.
	issuer string
	http   *http.Client // for the metadata

	mu      sync.Mutex
	tok     *oauth2.Token // its Expiry on the double's clock
	retryAt time.Time     // no refresh before it: the endpoint failed to answer
	gen     int           // counts the access tokens served: one refresh per rejected token
	// replaced holds the newest values refreshes replaced, up to
	// maxReplaced, for scrubbing a late failure that quotes one.
	replaced []string
}

// generation identifies the access token Token serves now.
func (c *clockSource) generation() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// reject marks the access token of generation gen expired, for the next
// Token to refresh, and reports whether a refresh can replace it. A token
// already replaced (a concurrent call's refresh) is left alone.
func (c *clockSource) reject(gen int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cfg == nil || c.tok.RefreshToken == "" {
		return false
	}
	if c.gen == gen {
		c.tok.Expiry = c.now().Add(-expiryDelta - time.Second)
	}
	return true
}

// secrets returns the grant's token values, the ones its refreshes
// replaced included (a call that sent one may fail after another call
// refreshed it), and the client secret its refreshes use: what a failing
// server's message must not show.
func (c *clockSource) secrets() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]string{c.tok.AccessToken, c.tok.RefreshToken}, c.replaced...)
	if c.cfg != nil {
		out = append(out, c.cfg.ClientSecret)
	}
	return out
}

// maxReplaced bounds the replaced token values a grant keeps for scrubbing:
// a call outlives a refresh or two, not dozens.
const maxReplaced = 8

// Token implements oauth2.TokenSource. The token it returns has no expiry:
// oauth2 would judge one on the real clock.
func (c *clockSource) Token() (*oauth2.Token, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if exp := c.tok.Expiry; !exp.IsZero() && !c.now().Before(exp.Add(-expiryDelta)) {
		if c.cfg == nil {
			return nil, errGrantFailed
		}
		if c.now().Before(c.retryAt) { // the endpoint just failed: not again per request
			return nil, errRefreshUnavailable
		}
		// oauth2 asks its source without the request's context, so the
		// MCP timeout bounds a stalled token endpoint (which held every
		// call on the grant, waiting on c.mu, with no limit at all).
		ctx, cancel := c.ctx, context.CancelFunc(func() {})
		if c.timeout > 0 {
			ctx, cancel = context.WithTimeout(c.ctx, c.timeout)
		}
		err := c.discover(ctx)
		var fresh *oauth2.Token
		if err == nil {
			fresh, err = c.cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: c.tok.RefreshToken}).Token()
		}
		cancel()
		switch {
		case err == errGrantFailed:
			return nil, err
		case err != nil && refused(err):
			return nil, errGrantFailed
		case err != nil:
			c.retryAt = c.now().Add(RefreshRetryDelay)
			return nil, errRefreshUnavailable
		}
		if !fresh.Expiry.IsZero() { // oauth2 set it on the real clock
			fresh.Expiry = c.now().Add(time.Until(fresh.Expiry))
		}
		if fresh.RefreshToken == "" { // the endpoint kept the refresh token
			fresh.RefreshToken = c.tok.RefreshToken
		}
		c.replaced = append(c.replaced, c.tok.AccessToken)
		if fresh.RefreshToken != c.tok.RefreshToken {
			c.replaced = append(c.replaced, c.tok.RefreshToken)
		}
		if n := len(c.replaced); n > maxReplaced {
			c.replaced = append(c.replaced[:0], c.replaced[n-maxReplaced:]...)
		}
		c.tok = fresh
		c.gen++
	}
	t := *c.tok
	t.Expiry = time.Time{}
	return &t, nil
}

// discover sets cfg's token endpoint from the issuer's metadata (RFC 8414,
// tried at the places the MCP specification names) when cfg has none, and
// keeps it: later refreshes fetch no metadata. Metadata that got no answer
// is the endpoint unavailable (tried again later); anything else that
// names no token endpoint fails the grant. Call with c.mu held.
func (c *clockSource) discover(ctx context.Context) error {
	if c.cfg.Endpoint.TokenURL != "" {
		return nil
	}
	if c.issuer == "" {
		return errGrantFailed
	}
	tokenURL, err := tokenEndpoint(ctx, c.http, c.issuer)
	if err != nil {
		return err
	}
	c.cfg.Endpoint.TokenURL = tokenURL
	return nil
}

// bearerClient is the HTTP client of an OAuth server's MCP connection: it
// sends the grant's (refreshed) access token as the bearer, and when the
// server answers 401 to a token the double still thought valid (revoked or
// rotated upstream), refreshes it and sends the request once more, as the
// service does: "401s from the server trigger a server-side refresh".
func (m *Layer) bearerClient(rec *grant) *http.Client {
	return &http.Client{Transport: &refreshOn401{grant: rec, base: &oauth2.Transport{Source: rec, Base: m.http.Transport}},
		Timeout: m.http.Timeout}
}

type refreshOn401 struct {
	grant *grant
	base  http.RoundTripper
}

func (t *refreshOn401) RoundTrip(r *http.Request) (*http.Response, error) {
	src, _ := t.grant.src.(*clockSource)
	gen := 0
	if src != nil {
		gen = src.generation()
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusUnauthorized || src == nil ||
		(r.Body != nil && r.Body != http.NoBody && r.GetBody == nil) || !src.reject(gen) {
		return resp, err
	}
	// Refused before it ran: the same request goes again with a fresh token.
	r2 := r.Clone(r.Context())
	if r.GetBody != nil {
		body, gerr := r.GetBody()
		if gerr != nil {
			return resp, err
		}
		r2.Body = body
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return t.base.RoundTrip(r2)
}

// maxTokenLife bounds an expiry's distance so it fits a time.Duration: a
// provider may report a lifetime of decades ("never expires").
const maxTokenLife = 100 * 365 * 24 * time.Hour

// TokenExpiry converts expires_in seconds from now.
func TokenExpiry(now time.Time, expiresIn float64) time.Time {
	if expiresIn <= 0 {
		return time.Time{}
	}
	return now.Add(time.Duration(min(expiresIn, maxTokenLife.Seconds()) * float64(time.Second)))
}

// ImportTokens stores a grant for the caller on this server. It is a
// write (project guests are denied) and idempotent: importing again
// replaces the grant. Token values appear in no response, log or error.
// sameURL reports whether the caller's serverUrl names the saved one.
func ImportTokens(sc *Call, p *servers.ImportTokensParams, sameURL func(given, saved string) bool) (servers.ImportTokensResult, *edge.Error) {
	var herr *edge.Error
	switch {
	case strings.TrimSpace(p.ServerURL) == "":
		herr = edge.Validation("serverUrl", "serverUrl is required")
	case p.Tokens.AccessToken == "":
		herr = edge.Validation("tokens.access_token", "tokens.access_token is required")
	case math.IsInf(p.Tokens.ExpiresIn, 0) || math.IsNaN(p.Tokens.ExpiresIn):
		herr = edge.Validation("tokens.expires_in", "tokens.expires_in must be a number of seconds")
	case p.ClientInformation != nil && p.ClientInformation.ClientID == "":
		herr = edge.Validation("clientInformation.clientId", "clientInformation.clientId is required")
	case sc.Transport != servers.TransportStdio && !sameURL(p.ServerURL, sc.URL):
		herr = edge.NewError(shared.CodeValidation, "serverUrl is not this server's URL",
			map[string]any{"field": "serverUrl", "serverId": sc.ServerID})
	}
	if herr != nil {
		return servers.ImportTokensResult{}, herr
	}
	tok := &oauth2.Token{AccessToken: p.Tokens.AccessToken, RefreshToken: p.Tokens.RefreshToken, TokenType: p.Tokens.TokenType}
	tok.Expiry = TokenExpiry(sc.l.cfg.Now(), p.Tokens.ExpiresIn) // the double's clock, as every expiry
	if p.Tokens.ExpiresIn < 0 {
		// The reference's number has no minimum: a token that expired
		// already, as the service's now + expires_in makes it.
		tok.Expiry = sc.l.cfg.Now().Add(time.Duration(max(p.Tokens.ExpiresIn, -maxTokenLife.Seconds()) * float64(time.Second)))
	}
	// The saved server's token endpoint refreshes the grant; without one,
	// the authorization server the caller names (authorizationServerUrl)
	// does, as the service falls back to it for a server it cannot
	// discover one from. It is a URL, not a secret: kept, never logged.
	var cfg *oauth2.Config
	issuer := ""
	if p.ClientInformation != nil && (sc.TokenURL != "" || p.AuthorizationServerURL != "") {
		secret := p.ClientInformation.ClientSecret
		// The saved server's secret (hasClientSecret, never returned) goes
		// only to the saved server's own token endpoint: an endpoint the
		// caller's authorizationServerUrl names gets the import's own
		// credentials, none for a public client.
		if secret == "" && sc.TokenURL != "" && sc.SavedClientSecret != nil {
			secret = sc.SavedClientSecret()
		}
		cfg = &oauth2.Config{ClientID: p.ClientInformation.ClientID, ClientSecret: secret,
			Endpoint: oauth2.Endpoint{TokenURL: sc.TokenURL}}
		if sc.TokenURL == "" {
			issuer = p.AuthorizationServerURL
		}
	}
	sc.l.storeTokens(TokenKey{sc.UserID, sc.ProjectID, sc.ServerID}, tok, cfg, issuer)
	res := servers.ImportTokensResult{Imported: true}
	if !tok.Expiry.IsZero() {
		ms := wire.MillisOf(tok.Expiry)
		res.ExpiresAt = &ms
	}
	return res, nil
}
