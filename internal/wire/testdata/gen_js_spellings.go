//go:build ignore

// gen_js_spellings writes js_spellings.json: secrets as Node's encoders
// spell them (encodeURIComponent, encodeURI, URLSearchParams,
// JSON.stringify), one layer and two, the second over the first or over
// one of Go's encoders, for TestSecretScrubberJSSpellings, which needs no
// Node. Run from internal/wire with Node 20 on the PATH:
//
//	go run testdata/gen_js_spellings.go
package main

import (
	"encoding/json"
	"log"
	"net/url"
	"os"
	"os/exec"
	"strings"
)

// secrets have varied punctuation: the characters JavaScript's and Go's
// encoders write differently ('@', '~', '!', '*', an apostrophe, '(',
// ')', '<', '>', '&', ' ', '+', '/', ...), quotes, backslashes, percent
// signs, control and non-ASCII characters. Those of 8 bytes or more are
// taken out under two layers; the shorter ones under one.
var secrets = []string{
	"pass(word@x", "~abcdefgh", `p&ss"word1`, `a<b"cdefg`,
	"AT/secret+value==xyz9", "my secret value", "user@example.com:pw",
	"it's*ok!(yes)~", "<script>&amp;</script>", `back\slash\value`,
	"pct%25done%", "q?a=1&b=2#frag", "semi;colon,comma:$", "[brackets]{braces}|pipe",
	"caret^back`tick", "tab\tnew\nline", "ünïcødé-sécret", "euro€-price-99",
	"emoji😀-token-1", "line\u2028sep-1234", "'single' \"double\"", "a+b=c&d=e f",
	"~!*'()-_.~!*'()", "sk-live_51H8x9!@#$%^&*()", "ghp_ABCdef123456~x", "p@ss w0rd!",
	"/path/to/secret?", `{"k":"v<>&"}`, "=====base64+/==", "xoxb-1234-5678-abcd",
	"k(9)", "a@b!", "~7304", "x<y&", "é/€!",
}

// script applies the JavaScript encoders to each line's secret and to its
// Go spellings.
const script = `
import readline from 'node:readline';
const rl = readline.createInterface({ input: process.stdin });
const js = (s) => JSON.stringify(s).slice(1, -1);
const usp = (s) => new URLSearchParams({ a: s }).toString().slice(2);
const enc = { encodeURIComponent, encodeURI, URLSearchParams: usp, 'JSON.stringify': js };
const out = [];
rl.on('line', (line) => {
  const { secret, go } = JSON.parse(line);
  const sp = {};
  for (const [n1, f1] of Object.entries(enc)) {
    const one = f1(secret);
    sp[n1] = one;
    for (const [n2, f2] of Object.entries(enc)) sp[n2 + '(' + n1 + ')'] = f2(one);
    for (const [n0, g] of Object.entries(go)) sp[n1 + '(' + n0 + ')'] = f1(g);
  }
  out.push({ secret, spellings: sp });
});
rl.on('close', () => process.stdout.write(JSON.stringify(out, null, 1) + '\n'));
`

func main() {
	cmd := exec.Command("node", "--input-type=module", "-e", script)
	in, err := cmd.StdinPipe()
	if err != nil {
		log.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	go func() {
		enc := json.NewEncoder(in)
		for _, s := range secrets {
			b, _ := json.Marshal(s)
			j := string(b[1 : len(b)-1])
			goForms := map[string]string{
				"QueryEscape":  url.QueryEscape(s),
				"PathEscape":   url.PathEscape(s),
				"json.Marshal": j,
				`json\/`:       strings.ReplaceAll(j, "/", `\/`),
			}
			if err := enc.Encode(map[string]any{"secret": s, "go": goForms}); err != nil {
				log.Fatal(err)
			}
		}
		in.Close()
	}()
	out, err := cmd.Output()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("testdata/js_spellings.json", out, 0o644); err != nil {
		log.Fatal(err)
	}
}
