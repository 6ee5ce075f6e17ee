package projectopstest

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"slices"
	"strings"
	"sync/atomic"
)

// keyPrefix starts every API key, as on the real service.
const keyPrefix = "sk_"

// newKeySecret returns a fresh random key: "sk_" plus 32 random bytes in
// base64url.
func newKeySecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return keyPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// hashKey is the only form in which a key is stored. A key of ordinary
// length is hashed from a copy on the stack: []byte(secret) would be an
// allocation per request past 32 bytes.
func hashKey(secret string) [32]byte { return hashKeyParts("", secret) }

// hashKeyParts is hashKey(prefix + rest) without building that string.
func hashKeyParts(prefix, rest string) [32]byte {
	var buf [128]byte
	if len(prefix)+len(rest) <= len(buf) {
		n := copy(buf[:], prefix)
		n += copy(buf[n:], rest)
		return sha256.Sum256(buf[:n])
	}
	return sha256.Sum256([]byte(prefix + rest))
}

// findKey returns the key whose hash matches secret. Call with Server.mu
// held.
func (st *state) findKey(secret string) *apiKeyRec { return st.findKeyHash(hashKey(secret)) }

// findKeyHash returns the key whose hash is h. Every stored hash is
// compared in constant time, and the loop never stops early, so the answer
// time does not depend on which key (if any) matched. Call with Server.mu
// held.
func (st *state) findKeyHash(h [32]byte) *apiKeyRec {
	var found *apiKeyRec
	for _, k := range st.keys {
		if subtle.ConstantTimeCompare(h[:], k.hash[:]) == 1 {
			found = k
		}
	}
	return found
}

// keyLengths indexes the double's keys' parts after "sk_" for
// Server.shownPath: their lengths, longest first, and their first bytes,
// so that a path is looked at for keys only at those lengths and only
// where it could start one (an id holding "sk_" is passed over without a
// hash), and not at all (nor under the server's lock) while there is no
// key. Keys are never removed (a revoked one is still masked), so the
// index only grows. Written under Server.mu, read without it.
type keyLengths struct{ idx atomic.Pointer[keyIndex] }

// keyIndex is one state of keyLengths, never changed once stored.
type keyIndex struct {
	lens  []int           // the bodies' lengths, longest first
	heads map[string]bool // the bodies' first headLen bytes
	// headLen is the shortest body's length, at most maxHead; firsts are
	// the bodies' first maxHead bytes, from which heads is rebuilt when a
	// shorter key comes.
	headLen int
	firsts  []string
}

// maxHead is how many of a key's first bytes keyIndex holds.
const maxHead = 4

// add records a key's body. Call with Server.mu held.
func (kl *keyLengths) add(body string) {
	ix := keyIndex{headLen: maxHead}
	if old := kl.idx.Load(); old != nil {
		ix.lens, ix.firsts, ix.headLen = slices.Clone(old.lens), slices.Clone(old.firsts), old.headLen
	}
	if !slices.Contains(ix.lens, len(body)) {
		ix.lens = append(ix.lens, len(body))
		slices.SortFunc(ix.lens, func(a, b int) int { return b - a })
	}
	ix.firsts = append(ix.firsts, body[:min(maxHead, len(body))])
	ix.headLen = min(ix.headLen, len(body))
	ix.heads = make(map[string]bool, len(ix.firsts))
	for _, f := range ix.firsts {
		ix.heads[f[:ix.headLen]] = true
	}
	kl.idx.Store(&ix)
}

// index returns the current index, nil while there is no key.
func (kl *keyLengths) index() *keyIndex { return kl.idx.Load() }

// mayStart reports whether a key's body could start at body.
func (ix *keyIndex) mayStart(body string) bool {
	return len(body) >= ix.headLen && ix.heads[body[:ix.headLen]]
}

// bearer extracts the token of an "Authorization: Bearer <token>" header
// as the service's gateway reads it: the scheme exactly so ("bearer" is
// refused), the token all that follows the one space (the header's own
// surrounding white space aside, which a server trims).
func bearer(header string) (string, bool) {
	token, ok := strings.CutPrefix(strings.Trim(header, " \t"), "Bearer ")
	return token, ok && token != ""
}

// bearerAnyCase is bearer with the scheme in any case (RFC 9110 §11.1),
// for the relay's agent endpoint: the relay is not the API's gateway, and
// what it reads is not documented.
func bearerAnyCase(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.Trim(header, " \t"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
