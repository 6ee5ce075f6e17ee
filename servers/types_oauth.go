package servers

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/projectops/projectops-go/internal/wire"

	"github.com/projectops/projectops-go/shared"
)

// ImportTokensParams stores OAuth tokens obtained outside the service for a
// server. They are scoped to the caller's user, project and server; later
// calls inject the access token and refresh it server-side. Printing the
// params with any fmt verb never shows a token or client secret.
type ImportTokensParams struct {
	// ServerURL is the MCP server URL the tokens were obtained for.
	ServerURL string `json:"serverUrl"`
	// OAuthResourceURL is the OAuth protected-resource URL, when it
	// differs from ServerURL.
	OAuthResourceURL string `json:"oauthResourceUrl,omitempty"`
	// AuthorizationServerURL is the OAuth authorization server the caller
	// discovered for the server: the service refreshes the tokens there
	// when it cannot discover one itself (a server it cannot reach, such
	// as one on localhost). A URL, not a secret: it prints and logs
	// without its query, as the other URLs.
	AuthorizationServerURL string `json:"authorizationServerUrl,omitempty"`
	// ClientInformation is the OAuth client the tokens were issued to;
	// without it the service cannot refresh them.
	ClientInformation *ClientInformation `json:"clientInformation,omitempty"`
	Tokens            Tokens             `json:"tokens"`
}

// ClientInformation identifies an OAuth client. ClientSecret never prints.
type ClientInformation struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret,omitempty"`
}

// Tokens is an OAuth token response (snake_case field names, as OAuth
// servers send them). No token ever prints.
type Tokens struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token,omitempty"`
	// ExpiresIn is the access token's lifetime in seconds; 0 means unknown,
	// and a negative one imports a token that expired already (ExpiresAt in
	// the past: the next call refreshes it, or needs a new grant).
	ExpiresIn float64 `json:"expires_in,omitempty"`
	TokenType string  `json:"token_type,omitempty"`
	Scope     string  `json:"scope,omitempty"`
	IDToken   string  `json:"id_token,omitempty"`
}

// ImportTokensResult confirms a token import.
type ImportTokensResult struct {
	// Imported is always true.
	Imported bool `json:"imported"`
	// ExpiresAt is when the stored access token expires, nil when unknown.
	ExpiresAt *shared.Millis `json:"expiresAt"`
}

// secrets are the params' secrets (tokens, client secret, URL passwords
// and tunnel ?k= secrets), which an error answer's text is cleaned of.
func (p ImportTokensParams) secrets() []string {
	secrets := []string{p.Tokens.AccessToken, p.Tokens.RefreshToken, p.Tokens.IDToken}
	secrets = append(secrets, wire.URLSecrets(p.ServerURL)...)
	secrets = append(secrets, wire.URLSecrets(p.OAuthResourceURL)...)
	secrets = append(secrets, wire.URLSecrets(p.AuthorizationServerURL)...) // a password or ?k= in it, not the URL
	if p.ClientInformation != nil {
		secrets = append(secrets, p.ClientInformation.ClientSecret)
	}
	return secrets
}

// withoutQuery drops a URL's query, which may carry a tunnel secret, and
// redacts a userinfo password (as MarshalJSON does).
func withoutQuery(u string) string {
	u = wire.RedactSecretQuery(u)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		return u[:i] + "?[REDACTED]"
	}
	return u
}

func redact(set bool) string {
	if set {
		return "[REDACTED]"
	}
	return `""`
}

// Format prints the tokens' shape, never their values.
func (t Tokens) Format(f fmt.State, _ rune) {
	_, _ = fmt.Fprintf(f, "Tokens{AccessToken:%s RefreshToken:%s IDToken:%s ExpiresIn:%v TokenType:%q Scope:%q}",
		redact(t.AccessToken != ""), redact(t.RefreshToken != ""), redact(t.IDToken != ""), t.ExpiresIn, t.TokenType, t.Scope)
}

// Format prints the client id, never the secret.
func (c ClientInformation) Format(f fmt.State, _ rune) {
	_, _ = fmt.Fprintf(f, "ClientInformation{ClientID:%q ClientSecret:%s}", c.ClientID, redact(c.ClientSecret != ""))
}

// Format prints the params without tokens or client secret.
func (p ImportTokensParams) Format(f fmt.State, _ rune) {
	_, _ = fmt.Fprintf(f, "ImportTokensParams{ServerURL:%q OAuthResourceURL:%q AuthorizationServerURL:%q ClientInformation:",
		withoutQuery(p.ServerURL), withoutQuery(p.OAuthResourceURL), withoutQuery(p.AuthorizationServerURL))
	if p.ClientInformation == nil {
		_, _ = io.WriteString(f, "nil")
	} else {
		p.ClientInformation.Format(f, 'v')
	}
	_, _ = io.WriteString(f, " Tokens:")
	p.Tokens.Format(f, 'v')
	_, _ = io.WriteString(f, "}")
}

// MarshalJSON writes the tokens' shape with their values redacted:
// encoding/json anywhere (slog's JSON handler on a nested value, a log
// line) never shows them. ImportTokens sends them in clear.
func (t Tokens) MarshalJSON() ([]byte, error) {
	r := tokensPlain(t)
	r.AccessToken, r.RefreshToken, r.IDToken = redactValue(t.AccessToken), redactValue(t.RefreshToken), redactValue(t.IDToken)
	return json.Marshal(r)
}

// MarshalJSON writes the client id with the secret redacted (see Tokens).
func (c ClientInformation) MarshalJSON() ([]byte, error) {
	r := clientPlain(c)
	r.ClientSecret = redactValue(c.ClientSecret)
	return json.Marshal(r)
}

func redactValue(s string) string {
	if s == "" {
		return ""
	}
	return "[REDACTED]"
}

// MarshalJSON writes the params with the tokens and client secret
// redacted and a tunnel URL's ?k= secret hidden (see Tokens).
func (p ImportTokensParams) MarshalJSON() ([]byte, error) {
	r := paramsPlain(p)
	r.ServerURL, r.OAuthResourceURL = wire.RedactSecretQuery(p.ServerURL), wire.RedactSecretQuery(p.OAuthResourceURL)
	r.AuthorizationServerURL = wire.RedactSecretQuery(p.AuthorizationServerURL)
	return json.Marshal(r)
}

// tokensPlain, clientPlain and paramsPlain are the types without their
// methods: the wire form, which request bodies use.
type (
	tokensPlain Tokens
	clientPlain ClientInformation
	paramsPlain ImportTokensParams
)

// wireJSON sends tokens, client secrets and URLs in clear in request
// bodies.
var wireJSON = jsonv2.JoinMarshalers(
	wire.Clear(func(t Tokens) tokensPlain { return tokensPlain(t) }),
	wire.Clear(func(c ClientInformation) clientPlain { return clientPlain(c) }),
	wire.Clear(func(p ImportTokensParams) paramsPlain { return paramsPlain(p) }))

// LogValue keeps the tokens out of slog output: without it slog's JSON
// handler encodes Tokens with encoding/json, bypassing Format.
func (t Tokens) LogValue() slog.Value {
	return slog.GroupValue(slog.String("access_token", redactValue(t.AccessToken)),
		slog.String("refresh_token", redactValue(t.RefreshToken)), slog.String("id_token", redactValue(t.IDToken)),
		slog.Float64("expires_in", t.ExpiresIn), slog.String("token_type", t.TokenType), slog.String("scope", t.Scope))
}

// LogValue shows the client id, never the secret.
func (c ClientInformation) LogValue() slog.Value {
	return slog.GroupValue(slog.String("clientId", c.ClientID), slog.String("clientSecret", redactValue(c.ClientSecret)))
}

// LogValue logs the params without tokens, client secret or URL queries.
func (p ImportTokensParams) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("serverUrl", withoutQuery(p.ServerURL)),
		slog.String("oauthResourceUrl", withoutQuery(p.OAuthResourceURL)),
		slog.String("authorizationServerUrl", withoutQuery(p.AuthorizationServerURL))}
	if p.ClientInformation != nil {
		attrs = append(attrs, slog.Any("clientInformation", p.ClientInformation.LogValue()))
	}
	return slog.GroupValue(append(attrs, slog.Any("tokens", p.Tokens.LogValue()))...)
}
