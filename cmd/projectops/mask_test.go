package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/wire"
)

// What report prints of the tests' output has the CLI's API key masked,
// in any of the places a test prints it (the stored results are redacted
// by the reporter); the summary and the exit status are unchanged.
func TestReportMasksTheAPIKeyInTestOutput(t *testing.T) {
	srv := reportEnv(t)
	key := srv.Default().APIKey
	in := `{"Action":"run","Package":"example.com/p","Test":"TestA"}
{"Action":"output","Package":"example.com/p","Test":"TestA","Output":"    a_test.go:5: sent Authorization: Bearer ` + key + `\n"}
{"Action":"output","Package":"example.com/p","Test":"TestA","Output":"    a_test.go:6: plain ` + key + ` again\n"}
{"Action":"fail","Package":"example.com/p","Test":"TestA","Elapsed":0.01}
{"Action":"fail","Package":"example.com/p","Elapsed":0.01}
`
	code, out, errOut := runReportCLI(t, in, "report", "--external-run-id", "mask-1")
	if code != 1 || strings.Contains(out+errOut, key) || !strings.Contains(out, "plain [REDACTED] again") {
		t.Errorf("exit %d; stdout %q; stderr %q", code, out, errOut)
	}
}

// A key split across writes is masked whole; a last line without its
// newline is written by Flush.
func TestMaskWriterSplitKey(t *testing.T) {
	var b bytes.Buffer
	m := &maskWriter{w: &b, secret: []byte("sk_secret_123")}
	for _, p := range []string{"a sk_sec", "ret_123 b\nc sk_secret", "_123"} {
		if _, err := m.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "a [REDACTED] b\nc [REDACTED]" {
		t.Errorf("got %q", got)
	}
}

// What report echoes of failing tests' output (stdout, or stderr under
// --json) is redacted as what it sends and spools: a tunnel URL's ?k=
// secret (also behind &amp;), a credential header's value and URL
// credentials, not only the CLI's own key.
func TestReportEchoRedactedAsSent(t *testing.T) {
	srv := reportEnv(t)
	key := srv.Default().APIKey
	lines := []string{"apikey " + key, "tunnel http://h/tunnels/t1/api/mcp/adapter-http/srv_1?k=TUNNELSECRET0123456789",
		"X-Api-Key: apikeyvalue0123456789", "proxy http://bob:PASSWORDSECRET99@proxy.local/",
		`<a href="http://h/tunnels/t1/api/mcp/adapter-http/srv_1?a=1&amp;k=TUNNELSECRETAMP777">x</a>`}
	in := `{"Action":"run","Package":"example.com/p","Test":"TestA"}` + "\n"
	for _, l := range lines {
		b, _ := json.Marshal(l + "\n")
		in += `{"Action":"output","Package":"example.com/p","Test":"TestA","Output":` + string(b) + "}\n"
	}
	in += `{"Action":"fail","Package":"example.com/p","Test":"TestA","Elapsed":0.01}
{"Action":"fail","Package":"example.com/p","Elapsed":0.01}
`
	for i, args := range [][]string{{"report"}, {"report", "--json"}} {
		args = append(args, "--external-run-id", fmt.Sprintf("echo-%d", i))
		code, out, errOut := runReportCLI(t, in, args...)
		if code != 1 {
			t.Fatalf("%v: exit %d; stderr %q", args, code, errOut)
		}
		for _, s := range []string{key, "TUNNELSECRET0123456789", "apikeyvalue0123456789", "PASSWORDSECRET99", "TUNNELSECRETAMP777"} {
			if strings.Contains(out+errOut, s) {
				t.Errorf("%v: %q echoed:\nstdout %s\nstderr %s", args, s, out, errOut)
			}
		}
		// Redacted where it stands: the rest of each line is kept.
		for _, want := range []string{"X-Api-Key: [REDACTED]", "srv_1?k=[REDACTED]", "proxy http://[REDACTED]@proxy.local/", "&amp;k=[REDACTED]"} {
			if !strings.Contains(out+errOut, want) {
				t.Errorf("%v: %q not echoed:\nstdout %s\nstderr %s", args, want, out, errOut)
			}
		}
	}
}

// A line longer than maskedLineMax without a newline is written in
// pieces; a secret across the point it would be cut at (maskedTailKept
// bytes before its end) is still redacted whole: the key by value, and a
// ?k= secret whose part before the cut is too short for the rule to
// match. Redacting each piece alone wrote it whole, in clear.
func TestMaskWriterLongLineCutKeepsSecretWhole(t *testing.T) {
	var nilSvc *ingest.Service
	key := "sk_reviewkey_0123456789"
	tunnel := "https://relay.test/api/mcp/adapter-http/srv?k=TUNNELSECRET0123456789"
	for _, secret := range []string{key, "TUNNELSECRET0123456789"} {
		for before := 1; before < len(secret); before += 5 {
			var b bytes.Buffer
			m := &maskWriter{w: &b, redact: nilSvc.RedactText, secret: []byte(key)}
			text := key
			if secret != key {
				text = tunnel
			}
			// The first cut point tried is at len-maskedTailKept: put the
			// secret across it, before of its bytes before it.
			total := maskedLineMax + 4096
			at := total - maskedTailKept - before - 1 - (len(text) - len(secret))
			line := strings.Repeat("x", at) + " " + text + " " + strings.Repeat("y", total-at-len(text)-2)
			if _, err := m.Write([]byte(line)); err != nil {
				t.Fatal(err)
			}
			if err := m.Flush(); err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(line, secret, "[REDACTED]", 1)
			if got := b.String(); got != want {
				t.Errorf("a %d-byte line with %q across the cut, %d bytes before it: secret echoed %v, %d bytes echoed of %d",
					len(line), secret, before, strings.Contains(got, secret), len(got), len(want))
			}
		}
	}
}

// A line of any length without secrets is echoed as written, in pieces
// and a byte at a time, with what is held back bounded; a header's value
// that runs past the cut (to the end of its line) is not echoed at all,
// and the next line is.
func TestMaskWriterLongLines(t *testing.T) {
	var nilSvc *ingest.Service
	plain := strings.Repeat("word, ", 100<<10) + "end\nnext line\n"
	cookie := "Cookie: " + strings.Repeat("c00kieValue", 20<<10) + "\nnext line\n"
	for name, in := range map[string]string{"plain": plain, "cookie": cookie} {
		for _, step := range []int{len(in), 4096, 1} {
			var b bytes.Buffer
			m := &maskWriter{w: &b, redact: nilSvc.RedactText}
			held := 0
			for i := 0; i < len(in); i += step {
				if _, err := m.Write([]byte(in[i:min(i+step, len(in))])); err != nil {
					t.Fatal(err)
				}
				held = max(held, len(m.buf))
			}
			if err := m.Flush(); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			if held > maskedLineMax+step {
				t.Errorf("%s, %d-byte writes: %d bytes held", name, step, held)
			}
			switch {
			case name == "plain" && got != in:
				t.Errorf("plain, %d-byte writes: %d bytes echoed of %d", step, len(got), len(in))
			case name == "cookie" && (strings.Contains(got, "c00kieValue") || !strings.HasSuffix(got, "\nnext line\n")):
				t.Errorf("cookie, %d-byte writes: echoed %.60q...%q", step, got, got[max(0, len(got)-40):])
			}
		}
	}
}

// A ?k=-looking value that runs across the cut and has more bytes that
// end a token (minified code's punctuation) than the points cut tries
// close to the end: cut tries points further back, before the value
// begins, and the rest of the line is echoed as whole-line redaction
// gives it. It was dropped, with no marker (found in review).
func TestMaskWriterLongLineQueryValueAcrossCutKeepsRestOfLine(t *testing.T) {
	var nilSvc *ingest.Service
	total := maskedLineMax + 4096
	for _, sep := range []string{"?k=", "&k=", "&amp;k="} {
		run := sep + strings.Repeat("a.b(c),", 40) // 280 bytes, 160 of them punctuation
		at := total - maskedTailKept - len(run)/2
		line := strings.Repeat("x", at) + " " + run + " " + strings.Repeat("important output ", 3000) + "END\n"
		var b bytes.Buffer
		m := &maskWriter{w: &b, redact: nilSvc.RedactText}
		for i := 0; i < len(line); i += 4096 {
			if _, err := m.Write([]byte(line[i:min(i+4096, len(line))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Flush(); err != nil {
			t.Fatal(err)
		}
		want := nilSvc.RedactText(line)
		if want == line {
			t.Fatalf("%s: the run is not redacted: the test tests nothing", sep)
		}
		if got := b.String(); got != want {
			t.Errorf("%s: echoed %d bytes, whole-line redaction gives %d; END echoed: %v", sep, len(got), len(want), strings.Contains(got, "END"))
		}
	}
}

// When no cut point works (a header's value runs to the end of its line)
// the rest of the line is dropped, and a marker saying how many bytes
// were dropped ends it, at its newline or at Flush; the next line is
// echoed. Nothing was written in its place.
func TestMaskWriterDroppedRestOfLineIsMarked(t *testing.T) {
	var nilSvc *ingest.Service
	const step = 4096
	value := strings.Repeat("c00kieValue", 20<<10)
	consumed := (maskedLineMax/step + 1) * step // written when the line is cut
	for _, tail := range []string{"\nnext line\n", ""} {
		in := "Cookie: " + value + tail
		var b bytes.Buffer
		m := &maskWriter{w: &b, redact: nilSvc.RedactText}
		for i := 0; i < len(in); i += step {
			if _, err := m.Write([]byte(in[i:min(i+step, len(in))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Flush(); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("Cookie: [REDACTED][… line truncated by projectops: %d bytes]%s", len("Cookie: "+value)-consumed, tail)
		if got := b.String(); got != want {
			t.Errorf("tail %q: echoed %.80q...%q, want %q", tail, got, got[max(0, len(got)-60):], want)
		}
	}
}

// A ';k=' secret is one only in a query, whose '?' the rule looks for up
// to wire.MaxQueryBack bytes before the ';'. Written after a long line is
// cut, it is redacted as in the whole line when its query began up to
// that far back: the tail kept holds the rule's look back. With 1 KiB
// kept, a query begun 2 KiB back had its ';k=' secret echoed in clear
// (found in review).
func TestMaskWriterSemicolonSecretAfterCutKeepsItsQuery(t *testing.T) {
	var nilSvc *ingest.Service
	const secret = "S3cr3tTunnelValue"
	const query = "?state="
	for _, back := range []int{2000, maskedCutStep + 1, wire.MaxQueryBack} { // from the '?' to the ';'
		head := strings.Repeat("x", maskedLineMax) + " https://relay.example/t" + query + strings.Repeat("v", back-len(query))
		tail := ";k=" + secret + "\n"
		if got := nilSvc.RedactText(head + tail); strings.Contains(got, secret) {
			t.Fatalf("%d bytes back: whole-line redaction keeps the secret: the test tests nothing", back)
		}
		var b bytes.Buffer
		m := &maskWriter{w: &b, redact: nilSvc.RedactText}
		for _, p := range []string{head, tail} {
			if _, err := m.Write([]byte(p)); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Flush(); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != nilSvc.RedactText(head+tail) {
			t.Errorf("query begun %d bytes before ';k=': secret echoed %v: ...%q", back, strings.Contains(got, secret), got[max(0, len(got)-80):])
		}
	}
}
