package ingest

import (
	"strings"
	"testing"
)

// cutSecretBody is the part of every planted secret that must not
// survive: no letter of Redacted, the filler or the marker is in it, so
// none of its 6-byte pieces can be found in the output by chance.
const cutSecretBody = "QWYUIOPSFGHJKLZXVBNMQWYUIOPSFGHJ"

// cutSecrets are secrets in the spellings the rules know them by: by
// what precedes them, by what follows (the '@' of URL credentials), by
// their name in a pair, and a run secret by its value.
var cutSecrets = []string{
	"key sk_live_" + cutSecretBody,
	"Authorization: Bearer " + cutSecretBody,
	"X-Api-Key: " + cutSecretBody,
	"https://user:" + cutSecretBody + "@host/p",
	"https://t.example/x?k=" + cutSecretBody,
	`{"name":"Authorization","value":"` + cutSecretBody + `"}`,
	"token VALUE" + cutSecretBody + " end",
}

var cutRedactorForTest = redactor{}.withValues("VALUE" + cutSecretBody)

// plantedText is n bytes of filler with secret (one of cutSecrets) on a
// line of its own starting at at.
func plantedText(n, at int, secret string) string {
	const filler = "lorem ipsum dolor sit amet\n"
	s := strings.Repeat(filler, n/len(filler)+1)[:n]
	at = min(max(at, 0), n-len(secret)-2)
	return s[:at] + "\n" + secret + "\n" + s[at+len(secret)+2:]
}

// checkCut fails t when out, a cut of a text holding a planted secret,
// holds any 6 bytes of its body once the recorder has redacted it (a text
// too short to cut is left to the recorder), half a Redacted, or more
// than the cut keeps.
func checkCut(t *testing.T, what, out string, keep int) {
	t.Helper()
	sent := string(cutRedactorForTest.text(out))
	for i := 0; i+6 <= len(cutSecretBody); i++ {
		if j := strings.Index(sent, cutSecretBody[i:i+6]); j >= 0 {
			t.Fatalf("%s: the secret survives the cut: …%q…", what, sent[max(0, j-60):min(len(sent), j+40)])
		}
	}
	if n := strings.Count(out, Redacted); strings.Count(out, "[RED") != n || strings.Count(out, "CTED]") != n {
		t.Fatalf("%s: half a %s: %q", what, Redacted, out)
	}
	if len(out) > keep+len("\n"+marker(1<<30)+"\n") {
		t.Fatalf("%s: %d bytes, more than %d kept", what, len(out), keep)
	}
}

// cutEveryWay cuts s to headKeep and tailKeep as each reader does: whole
// (the chunk encoder, Jest), streamed through boundedOutput (go test) in
// pieces of piece bytes, and, when the keeps are JUnit's, headTail.
func cutEveryWay(t *testing.T, s string, headKeep, tailKeep, piece int) {
	t.Helper()
	rd := cutRedactorForTest
	keep := headKeep + tailKeep
	checkCut(t, "cutText", rd.cutText(s, "", len(s), headKeep, tailKeep, ""), keep)
	var o boundedOutput
	var h headTail
	for i := 0; i < len(s); i += piece {
		o.write([]byte(s[i:min(i+piece, len(s))]), headKeep, tailKeep)
		h.add([]byte(s[i:min(i+piece, len(s))]))
	}
	checkCut(t, "boundedOutput", o.text(rd), keep)
	if headKeep == maxFailureText/2 && tailKeep == maxFailureText/2 {
		checkCut(t, "headTail", h.text(rd, maxFailureText), keep)
	}
}

// A secret planted at every offset around each edge of a cut, and of the
// windows read beyond it, never survives the cut, in a text short enough
// to be redacted whole and in one read as head and tail windows.
//
// Under the race detector, where this single-goroutine loop costs minutes
// (the redactor's regexps, not the cut) and can find no race, each text
// takes every stride-th offset only (cutRaceStrides), in a phase that
// moves with the secret and the edge so that the pairs together still
// meet every offset modulo the stride around every kind of edge.
func TestCutRedactsSecretAtEveryOffset(t *testing.T) {
	t.Parallel()
	const hk, tk = maxFailureText / 2, maxFailureText / 2
	for k, n := range []int{hk + tk + cutMargin, hk + tk + 3*cutMargin} {
		stride := 1
		if raceOn {
			stride = cutRaceStrides[k]
		}
		edges := []int{hk, n - tk, hk + cutMargin, n - tk - cutMargin}
		for i, secret := range cutSecrets {
			for j, e := range edges {
				phase := (i*len(edges) + j) % stride
				for at := e - len(secret) - 4 + phase; at <= e+4; at += stride {
					cutEveryWay(t, plantedText(n, at, secret), hk, tk, 1000)
				}
			}
		}
	}
}

// cutRaceStrides thin TestCutRedactsSecretAtEveryOffset's shorter and
// longer text under the race detector: about 55 s of CPU to 12.
var cutRaceStrides = [2]int{3, 8}

// Text dense with secrets is shorter redacted, by more than the margin:
// the head and tail kept then reach into the margin, and what the window
// cut at its inner edge must still not be kept.
func TestCutRedactsDenseSecrets(t *testing.T) {
	t.Parallel()
	const hk, tk = maxFailureText / 2, maxFailureText / 2
	for _, secret := range []string{cutSecrets[0], "token VALUE" + cutSecretBody} {
		line := secret + "\n"
		for shift := range len(line) {
			s := strings.Repeat("x", shift) + "\n" + strings.Repeat(line, 3*(hk+tk+2*cutMargin)/len(line)) + strings.Repeat("y", shift)
			cutEveryWay(t, s, hk, tk, 1000)
		}
	}
}

// FuzzCutRedacts is TestCutRedactsSecretAtEveryOffset at any length,
// offset, keep and write size.
func FuzzCutRedacts(f *testing.F) {
	f.Add(uint8(0), uint16(4090), uint16(20000), uint16(4096), uint16(4096), uint16(1000))
	f.Add(uint8(1), uint16(15900), uint16(20000), uint16(4096), uint16(4096), uint16(7))
	f.Add(uint8(3), uint16(100), uint16(300), uint16(50), uint16(70), uint16(1))
	// A secret across the start of the kept tail.
	f.Add(uint8(0), uint16(15880), uint16(20000), uint16(4096), uint16(4096), uint16(1000))
	f.Fuzz(func(t *testing.T, kind uint8, at, n, headKeep, tailKeep, piece uint16) {
		secret := cutSecrets[int(kind)%len(cutSecrets)]
		if int(n) < len(secret)+2 || piece == 0 {
			return
		}
		cutEveryWay(t, plantedText(int(n), int(at), secret), int(headKeep), int(tailKeep), int(piece))
	})
}
