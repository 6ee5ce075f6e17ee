package mcpops

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A refresh needs one field of an authorization server's metadata, the
// token endpoint, so the double reads the document itself: go-sdk's
// auth.GetAuthServerMetadata and oauthex.GetAuthServerMeta (v1.8.0) refuse
// metadata without PKCE methods, the in-process http://inprocess.invalid
// issuer and a differing issuer field, none of which matters to a refresh
// at an issuer the caller named. Their redirect and scheme rules do
// matter, and the double keeps them (oauthorigin.go).

// maxMetadataBytes bounds one metadata document (go-sdk reads 1 MiB too).
const maxMetadataBytes = 1 << 20

// metadataTimeout bounds one metadata request, within the refresh's own
// bound: the caller names the server, which may never answer.
const metadataTimeout = 10 * time.Second

// metadataURLs returns where RFC 8414 and OpenID Connect Discovery put an
// issuer's metadata, in the order the MCP specification tries them, or nil
// for an issuer that is not an absolute https URL (http only on loopback
// or the in-process host: secureURL).
func metadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil || !secureURL(u) {
		return nil
	}
	u.RawQuery, u.Fragment, u.RawPath = "", "", ""
	path := strings.Trim(u.Path, "/")
	at := func(p string) string {
		v := *u
		v.Path = p
		return v.String()
	}
	if path == "" {
		return []string{at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")}
	}
	return []string{at("/.well-known/oauth-authorization-server/" + path),
		at("/.well-known/openid-configuration/" + path), at("/" + path + "/.well-known/openid-configuration")}
}

// tokenEndpoint returns the token endpoint issuer's metadata names. No
// answer (a network failure, a timeout, 5xx, 408 or 429) is
// errRefreshUnavailable, tried again later; anything else that yields no
// endpoint (every place 4xx, a redirect not followed, a document that is
// not JSON, too large, or names no token endpoint secureURL accepts) is
// errGrantFailed. c must follow redirects only within the issuer's origin
// (originBound).
func tokenEndpoint(ctx context.Context, c *http.Client, issuer string) (string, error) {
	for _, mu := range metadataURLs(issuer) {
		doc, status, err := fetchMetadata(ctx, c, mu)
		switch {
		case err != nil:
			return "", err
		case status >= 500, status == http.StatusTooManyRequests, status == http.StatusRequestTimeout:
			return "", errRefreshUnavailable
		case status >= 400: // not published here: the next place
			continue
		case status < 200 || status >= 300: // a redirect originBound did not follow, too
			return "", errGrantFailed
		}
		var meta struct {
			TokenEndpoint string `json:"token_endpoint"`
		}
		if json.Unmarshal(doc, &meta) != nil {
			return "", errGrantFailed
		}
		if u, err := url.Parse(meta.TokenEndpoint); err != nil || !secureURL(u) {
			return "", errGrantFailed
		}
		return meta.TokenEndpoint, nil
	}
	return "", errGrantFailed
}

// fetchMetadata GETs one metadata URL, returning the body of a 2xx answer
// and the status. A request that got no answer is errRefreshUnavailable; a
// body over maxMetadataBytes is errGrantFailed.
func fetchMetadata(ctx context.Context, c *http.Client, u string) ([]byte, int, error) {
	ctx, cancel := context.WithTimeout(ctx, metadataTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, errGrantFailed
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, 0, errRefreshUnavailable
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return nil, resp.StatusCode, nil
	}
	doc, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes+1))
	switch {
	case err != nil:
		return nil, 0, errRefreshUnavailable // cut off mid-answer
	case len(doc) > maxMetadataBytes:
		return nil, 0, errGrantFailed
	}
	return doc, resp.StatusCode, nil
}
