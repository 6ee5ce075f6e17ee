package main

import (
	"bytes"
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
