package projectopstest

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"math/bits"
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

// keyLengths is the set of the lengths of the double's keys' parts after
// "sk_" (a length past 255 counts as 255), for Server.shownPath to tell
// without the server's lock whether a path segment can be a key pasted
// without its prefix. Keys are never removed (a revoked one is still
// masked), so the set only grows. Safe for concurrent use.
type keyLengths struct{ bits [4]atomic.Uint64 }

// add records a key body's length.
func (kl *keyLengths) add(n int) {
	n = min(n, 255)
	kl.bits[n/64].Or(1 << (n % 64))
}

// each calls f with every recorded length.
func (kl *keyLengths) each(f func(n int)) {
	for w := range kl.bits {
		for m := kl.bits[w].Load(); m != 0; m &= m - 1 {
			f(w*64 + bits.TrailingZeros64(m))
		}
	}
}

// has reports whether some key's body may be n bytes long.
func (kl *keyLengths) has(n int) bool {
	n = min(n, 255)
	return kl.bits[n/64].Load()&(1<<(n%64)) != 0
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
