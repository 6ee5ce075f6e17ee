package projectopstest

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/relay"
)

// TunnelTokenTTL is how long a grant's connect token is accepted for new
// relay connections, on the server's clock. An established session is not
// cut when its token expires.
const TunnelTokenTTL = time.Hour

// Relay paths, served outside /api/v1 like the real relay edge: the agent
// endpoint (the grants' relayWsUrl) and the public tunnel URLs.
const (
	relayAgentPath  = "/tunnels/agent"
	relayPublicPath = "/tunnels/"
	// relayScopePrefix starts the path every public URL has after its
	// slug, as the service's public URLs have it after their host; the
	// escaped server id ends it (see tunnelScope).
	relayScopePrefix = "/api/mcp/adapter-http/"
)

// tunnelScope is the path a tunnel relays, after the slug: its server's
// adapter path, as the service's edge scopes a tunnel to one server.
func tunnelScope(serverID string) string { return relayScopePrefix + url.PathEscape(serverID) }

// tunnelState indexes the tunnels; guarded by Server.mu. Its maps are made
// on first use so the zero value is ready.
type tunnelState struct {
	byServer map[string]*tunnelRec
	bySlug   map[string]*tunnelRec
	byToken  map[[32]byte]*tunnelRec
	// shown holds the secret each server record's url carries (a closed
	// tunnel's stays there), so that Server.shownPath masks one pasted
	// anywhere in a path without knowing its slug.
	shown map[string]*tunnelRec
}

// tunnelSecretLen is the length of a tunnel's secret (randomToken("")).
const tunnelSecretLen = 43

// tunnelRec is a server's tunnel. The secret and the connect token are
// checked against hashes; the plaintext URL lives on the server record
// because the specification says so, and shownSecret, its secret, is kept
// only to mask it wherever a path shows it.
type tunnelRec struct {
	serverID, projectID, slug string
	scope                     string // tunnelScope(serverID)
	version                   int
	secretHash                [32]byte
	tokenHash                 [32]byte
	tokenExpiry               time.Time
	revoked                   bool
	shownSecret               string         // the secret the server record's url carries
	session                   *relay.Session // live host connection, nil when none
}

func (ts *tunnelState) init() {
	if ts.byServer == nil {
		ts.byServer = map[string]*tunnelRec{}
		ts.bySlug = map[string]*tunnelRec{}
		ts.byToken = map[[32]byte]*tunnelRec{}
		ts.shown = map[string]*tunnelRec{}
	}
}

// newSlug returns an unused public name.
func (ts *tunnelState) newSlug() string {
	for {
		var b [5]byte
		_, _ = rand.Read(b[:])
		slug := "t" + hex.EncodeToString(b[:])
		if ts.bySlug[slug] == nil {
			return slug
		}
	}
}

// rotate mints a new secret and connect token for t, revoking the previous
// ones, and returns the plaintexts and the session to disconnect.
func (ts *tunnelState) rotate(t *tunnelRec, now time.Time) (secret, token string, old *relay.Session) {
	old = ts.revoke(t)
	secret, token = randomToken(""), randomToken("ct_")
	t.version++
	t.revoked = false
	t.secretHash, t.tokenHash = sha256.Sum256([]byte(secret)), sha256.Sum256([]byte(token))
	t.tokenExpiry = now.Add(TunnelTokenTTL)
	ts.byToken[t.tokenHash] = t
	if ts.shown[t.shownSecret] == t { // the record's url is about to show the new one
		delete(ts.shown, t.shownSecret)
	}
	t.shownSecret, ts.shown[secret] = secret, t
	return secret, token, old
}

// revoke makes t's secret and token worthless; the caller disconnects the
// returned session once the lock is released.
func (ts *tunnelState) revoke(t *tunnelRec) *relay.Session {
	if ts.byToken[t.tokenHash] == t {
		delete(ts.byToken, t.tokenHash)
	}
	t.revoked = true
	t.secretHash, t.tokenHash = [32]byte{}, [32]byte{}
	old := t.session
	t.session = nil
	return old
}

// secretOK compares a presented ?k= secret in constant time.
func (t *tunnelRec) secretOK(k string) bool {
	if t.revoked || k == "" {
		return false
	}
	h := sha256.Sum256([]byte(k))
	return subtle.ConstantTimeCompare(h[:], t.secretHash[:]) == 1
}

func randomToken(prefix string) string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// urlKey is u as compared for sameness: scheme and host in lower case, a
// tunnel's ?k= secret and a userinfo password dropped (a printed URL shows
// them redacted, so a URL copied from a log matches too). Text that does
// not parse is itself.
func urlKey(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.Scheme, p.Host = strings.ToLower(p.Scheme), strings.ToLower(p.Host)
	if p.User != nil { // a printed URL shows the password redacted
		p.User = url.User(p.User.Username())
	}
	_, p.RawQuery = tunnelQuery(p.RawQuery) // the rest as written, as a printed URL shows it
	return p.String()
}
