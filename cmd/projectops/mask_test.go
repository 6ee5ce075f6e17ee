package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
