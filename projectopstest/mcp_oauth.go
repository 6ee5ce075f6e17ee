package projectopstest

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"
)

// tokenKey scopes imported tokens: a user's grant for one server of one
// project.
type tokenKey struct{ userID, projectID, serverID string }

// tokenRec is an imported grant. src refreshes the access token with the
// refresh token when it expires (golang.org/x/oauth2, against the saved
// server's token endpoint). Token values live only inside src: nothing
// formats a tokenRec.
type tokenRec struct {
	src oauth2.TokenSource
	// failed is set when a refresh failed: the grant no longer works and
	// calls answer OAUTH_REQUIRED until new tokens are imported.
	failed atomic.Bool
}

// Token implements oauth2.TokenSource, remembering a failed refresh.
func (t *tokenRec) Token() (*oauth2.Token, error) {
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
// call connects with the new token.
func (m *mcpState) storeTokens(k tokenKey, tok *oauth2.Token, cfg *oauth2.Config) {
	ctx := context.WithValue(m.ctx, oauth2.HTTPClient, m.http)
	var src oauth2.TokenSource
	if cfg != nil && tok.RefreshToken != "" {
		src = cfg.TokenSource(ctx, tok) // refreshes when expired
	} else {
		src = oauth2.StaticTokenSource(tok)
		if !tok.Expiry.IsZero() {
			src = &expiringSource{tok: tok}
		}
	}
	rec := &tokenRec{src: oauth2.ReuseTokenSource(tok, src)}
	m.mu.Lock()
	m.tokens[k] = rec
	m.mu.Unlock()
	key := poolKey(k.userID, k.serverID)
	m.pool.Drop(func(pk string) bool { return pk == key })
}

// grant returns the imported grant for k, or nil.
func (m *mcpState) grant(k tokenKey) *tokenRec {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tokens[k]
}

// expiringSource serves a token that cannot be refreshed until it expires.
type expiringSource struct{ tok *oauth2.Token }

func (e *expiringSource) Token() (*oauth2.Token, error) {
	if !e.tok.Valid() {
		return nil, errGrantFailed
	}
	return e.tok, nil
}

// bearerClient is the HTTP client of an OAuth server's MCP connection: it
// sends the grant's (refreshed) access token as the bearer.
func (m *mcpState) bearerClient(rec *tokenRec) *http.Client {
	return &http.Client{Transport: &oauth2.Transport{Source: rec, Base: m.http.Transport}, Timeout: m.http.Timeout}
}

// tokenExpiry converts expires_in seconds from the double's clock.
func tokenExpiry(now time.Time, expiresIn float64) time.Time {
	if expiresIn <= 0 {
		return time.Time{}
	}
	return now.Add(time.Duration(expiresIn * float64(time.Second)))
}

// timeNow is the real clock, which golang.org/x/oauth2 judges expiry by.
var timeNow = time.Now
