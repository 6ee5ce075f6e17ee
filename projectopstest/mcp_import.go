package projectopstest

import (
	"math"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"golang.org/x/oauth2"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// importTokens stores a grant for the caller on this server. It is a write
// (project guests are denied) and idempotent: importing again replaces the
// grant. Token values appear in no response, log or error.
func importTokens(c *call, sc *serverCall, p *servers.ImportTokensParams) (servers.ImportTokensResult, *edge.Error) {
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
	case sc.transport != servers.TransportStdio && !sameServerURL(p.ServerURL, sc.url):
		herr = edge.NewError(shared.CodeValidation, "serverUrl is not this server's URL",
			map[string]any{"field": "serverUrl", "serverId": sc.serverID})
	}
	if herr != nil {
		return servers.ImportTokensResult{}, herr
	}
	tok := &oauth2.Token{AccessToken: p.Tokens.AccessToken, RefreshToken: p.Tokens.RefreshToken, TokenType: p.Tokens.TokenType}
	// oauth2 judges expiry on the real clock; the response reports it on
	// the double's clock, like every other timestamp.
	tok.Expiry = tokenExpiry(timeNow(), p.Tokens.ExpiresIn)
	var cfg *oauth2.Config
	if p.ClientInformation != nil && sc.tokenURL != "" {
		cfg = &oauth2.Config{ClientID: p.ClientInformation.ClientID, ClientSecret: p.ClientInformation.ClientSecret,
			Endpoint: oauth2.Endpoint{TokenURL: sc.tokenURL}}
	}
	c.s.mcp.storeTokens(tokenKey{c.a.userID, sc.projectID, sc.serverID}, tok, cfg)
	res := servers.ImportTokensResult{Imported: true}
	if at := tokenExpiry(c.s.now(), p.Tokens.ExpiresIn); !at.IsZero() {
		ms := wire.MillisOf(at)
		res.ExpiresAt = &ms
	}
	return res, nil
}

// sameServerURL reports whether a caller's serverUrl names the saved URL,
// ignoring trailing slashes and a tunnel's ?k= secret (a printed URL shows
// it redacted, so a URL copied from a log must match too).
func sameServerURL(given, saved string) bool {
	norm := func(u string) string { return strings.TrimRight(redactTunnelSecret(u), "/") }
	return norm(given) == norm(saved)
}
