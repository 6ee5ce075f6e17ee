package ingest

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

var diffNames = []string{"Authorization", "authorization", "Proxy-Authorization", "Cookie", "cookie", "Set-Cookie", "X-Api-Key", "x-api-key", "X-API-KEY"}

var diffPieces = []string{
	"N: S", "N=S", "N:S", "N: Bearer S", "N: Basic S", "map[N:[S x]]", `http.Header{"N":[]string{"S"}}`,
	`{"N":"S"}`, `{"N":["S","x"]}`, `"N": "S"`, `'N': 'S'`, `{"name":"N","value":"S"}`, `[{"name":"N","value":"S"}]`,
	"<pre>N: S</pre>", "<p>N: S<br>more</p>", "<b>N</b>: S", "<tr><th>N</th><td>S</td></tr>", "<dt>N</dt><dd>S</dd>",
	`{"h":"N: x"} S`, `{"N":"x"} S`, `{"a":"b"} N: S`, `N: {"a":"S"}`, `N: ["S`, `N: "S`, `N: []string{S`, `N: [x] S`,
	`N: "x" S`, `{"h":["N: x", "S"]}`, `N: x\"} S`, `{"m":"N: a\nS"}`,
}

var diffGlue = []string{"", " ", "\n", "\r\n", "\"", "'", "[", "]", "{", "}", ",", ":", "<br>", "<", ">", " x ", "\\", "\t", `\n`, "}}", "]]"}

func genDiffText(r *rand.Rand, secrets *[]string) string {
	var b strings.Builder
	for n := 1 + r.Intn(5); n > 0; n-- {
		b.WriteString(diffGlue[r.Intn(len(diffGlue))])
		sec := fmt.Sprintf("QV%06dXJ", r.Intn(1000000))
		*secrets = append(*secrets, sec)
		p := diffPieces[r.Intn(len(diffPieces))]
		p = strings.ReplaceAll(p, "N", diffNames[r.Intn(len(diffNames))])
		p = strings.ReplaceAll(p, "S", sec)
		b.WriteString(p)
		b.WriteString(diffGlue[r.Intn(len(diffGlue))])
	}
	return b.String()
}

// Compared with the redactor at 7757a9c (redact_old_test.go), the
// redactor never keeps a secret the old one removed, in random texts of
// header lines, JSON, HTML and the glue between them, alone in a string,
// as widget HTML and as JSON.
func TestRedactDifferentialOldNew(t *testing.T) { t.Parallel(); testDiff(t, false) }

// The same, leaving out strings that hold a JSON document: a failure here
// is not the document pass's.
func TestRedactDifferentialNoEmbedded(t *testing.T) { t.Parallel(); testDiff(t, true) }

func testDiff(t *testing.T, skipEmbedded bool) {
	r := rand.New(rand.NewSource(1))
	fails := 0
	n := 100000
	if testing.Short() || raceOn { // plain go test runs the whole loop
		n = 10000
	}
	for iter := 0; iter < n && fails < 8; iter++ {
		var secrets []string
		text := genDiffText(r, &secrets)
		enc, _ := json.Marshal(text)
		docs := []string{`{"error":` + string(enc) + `}`, `{"widgetHtml":` + string(enc) + `}`}
		if json.Valid([]byte(text)) {
			docs = append(docs, `{"trace":`+text+`}`)
		}
		if k, e := strings.IndexAny(text, "{["), strings.LastIndexAny(text, "}]"); skipEmbedded && k >= 0 && e > k && json.Valid([]byte(text[k:e+1])) {
			docs = docs[2:]
		}
		for _, doc := range docs {
			oldOut := string(oldRedactHeaders([]byte(doc)))
			newOut := string(redactHeaders([]byte(doc), false))
			if !json.Valid([]byte(newOut)) {
				t.Errorf("invalid JSON out of valid in:\n in  %s\n out %s", doc, newOut)
				fails++
			}
			for _, s := range secrets {
				if strings.Contains(doc, s) && !strings.Contains(oldOut, s) && strings.Contains(newOut, s) {
					t.Errorf("secret %s kept by new, removed by old:\n in  %s\n old %s\n new %s", s, doc, oldOut, newOut)
					fails++
					break
				}
			}
		}
	}
}

// A JSON document inside a string is redacted on its own as well, and
// that must not keep what the text pass removed: it once ran first, and
// the text pass then saw "Name: [REDACTED]" (a bracketed value, which
// ends at its ']') where the redactor at 7757a9c saw a bare value running
// to the end of the line, keeping text after the value's JSON string on
// that line (a folded header's continuation, escaped as \r\n inside the
// embedded JSON; text after the document).
func TestRedactEmbeddedJSONKeepsTextRedaction(t *testing.T) {
	for _, tc := range []struct{ text, secret string }{
		// obs-fold: the credentials are on the continuation line.
		{`upstream echoed {"headers":"Authorization: Basic\r\n dXNlcjpodW50ZXIy"}`, "dXNlcjpodW50ZXIy"},
		{`{"Cookie":"a=1; Authorization: z"} sessiontoken=Qz81xv0a2`, "sessiontoken=Qz81xv0a2"},
		{`{"h":"Proxy-Authorization: Basic"} cHJveHk6cGFzc3dvcmQ=`, "cHJveHk6cGFzc3dvcmQ="},
	} {
		doc, _ := json.Marshal(map[string]string{"error": tc.text})
		old := string(oldRedactHeaders(doc))
		if strings.Contains(old, tc.secret) {
			t.Fatalf("the old redactor kept it too: %s", old)
		}
		if got := string(redactor{}.apply(doc)); strings.Contains(got, tc.secret) {
			t.Errorf("%q survives (the redactor at 7757a9c removed it):\n in  %s\n old %s\n new %s", tc.secret, doc, old, got)
		}
	}
}
