package mcpops

import (
	"context"
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

// Token implements oauth2.TokenSource, remembering a failed refresh.
func (t *grant) Token() (*oauth2.Token, error) {
	tok, err := t.src.Token()
	if err != nil {
		t.failed.Store(true)
		return nil, errGrantFailed
	}
	return tok, nil
}

// errGrantFailed replaces oauth2's errors, whose text may quote the token
// endpoint's response.
var errGrantFailed = &grantError{}

type grantError struct{}

func (*grantError) Error() string { return "oauth grant could not be refreshed" }

// storeTokens saves an imported grant, replacing any earlier one for the
// same key, and drops the user's pooled session on that server so the next
// call connects with the new token. tok's expiry is on the double's clock.
func (m *Layer) storeTokens(k TokenKey, tok *oauth2.Token, cfg *oauth2.Config) {
	src := &clockSource{now: m.cfg.Now, ctx: context.WithValue(m.ctx, oauth2.HTTPClient, m.http), tok: tok}
	if tok.RefreshToken != "" {
		src.cfg = cfg
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
	now func() time.Time
	ctx context.Context // carries the double's HTTP client for refreshes
	cfg *oauth2.Config  // nil: the token cannot be refreshed

	mu  sync.Mutex
	tok *oauth2.Token // its Expiry on the double's clock
}

// Token implements oauth2.TokenSource. The token it returns has no expiry:
// oauth2 would judge one on the real clock.
func (c *clockSource) Token() (*oauth2.Token, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if exp := c.tok.Expiry; !exp.IsZero() && !c.now().Before(exp.Add(-expiryDelta)) {
		if c.cfg == nil {
			return nil, errGrantFailed
		}
		fresh, err := c.cfg.TokenSource(c.ctx, &oauth2.Token{RefreshToken: c.tok.RefreshToken}).Token()
		if err != nil {
			return nil, errGrantFailed
		}
		if !fresh.Expiry.IsZero() { // oauth2 set it on the real clock
			fresh.Expiry = c.now().Add(time.Until(fresh.Expiry))
		}
		c.tok = fresh
	}
	t := *c.tok
	t.Expiry = time.Time{}
	return &t, nil
}

// bearerClient is the HTTP client of an OAuth server's MCP connection: it
// sends the grant's (refreshed) access token as the bearer.
func (m *Layer) bearerClient(rec *grant) *http.Client {
	return &http.Client{Transport: &oauth2.Transport{Source: rec, Base: m.http.Transport}, Timeout: m.http.Timeout}
}

// TokenExpiry converts expires_in seconds from now.
func TokenExpiry(now time.Time, expiresIn float64) time.Time {
	if expiresIn <= 0 {
		return time.Time{}
	}
	return now.Add(time.Duration(expiresIn * float64(time.Second)))
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
	case p.Tokens.ExpiresIn < 0 || math.IsInf(p.Tokens.ExpiresIn, 0) || p.Tokens.ExpiresIn > 10*365*24*3600:
		herr = edge.Validation("tokens.expires_in", "tokens.expires_in must be a positive number of seconds")
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
	var cfg *oauth2.Config
	if p.ClientInformation != nil && sc.TokenURL != "" {
		cfg = &oauth2.Config{ClientID: p.ClientInformation.ClientID, ClientSecret: p.ClientInformation.ClientSecret,
			Endpoint: oauth2.Endpoint{TokenURL: sc.TokenURL}}
	}
	sc.l.storeTokens(TokenKey{sc.UserID, sc.ProjectID, sc.ServerID}, tok, cfg)
	res := servers.ImportTokensResult{Imported: true}
	if at := TokenExpiry(sc.l.cfg.Now(), p.Tokens.ExpiresIn); !at.IsZero() {
		ms := wire.MillisOf(at)
		res.ExpiresAt = &ms
	}
	return res, nil
}
