package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// interruptedEvalRun runs the CLI with args(url of a service that never
// answers), interrupting it once the request arrived. It returns the exit
// code, stderr and the idempotency keys of the requests that arrived.
func interruptedEvalRun(t *testing.T, args func(url string) []string) (int, string, []string) {
	t.Helper()
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	t.Setenv("PROJECTOPS_BASE_URL", "")
	arrived := make(chan string, 8)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			IdempotencyKey string `json:"idempotencyKey"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		_, _ = io.Copy(io.Discard, r.Body)
		arrived <- body.IdempotencyKey
		<-r.Context().Done()
	}))
	defer hang.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var keys []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case k := <-arrived:
			keys = append(keys, k)
			cancel()
		case <-ctx.Done():
		}
	}()
	var o, e bytes.Buffer
	code := run(ctx, args(hang.URL+"/api/v1"), &o, &e)
	cancel()
	<-done
	return code, e.String(), keys
}

// The re-send command is printed exactly: a key, suite id or server id
// holding "sk_" is not masked as key-shaped, which would send another key
// and start a second run.
func TestResendCommandIsNotMaskedAsKeyShaped(t *testing.T) {
	var base string
	_, out, _ := interruptedEvalRun(t, func(u string) []string {
		base = u
		return []string{"--base-url", u, "eval", "run", "--suite", "evs_task_smoke1", "--server", "srv_disk_12345678",
			"--idempotency-key", "nightly-task_20261128"}
	})
	want := "projectops eval run --base-url " + base + " --project prj_demo --suite evs_task_smoke1 --server srv_disk_12345678 --idempotency-key nightly-task_20261128 "
	if !strings.Contains(out, want) {
		t.Errorf("stderr does not hold the command %q: %q", want, out)
	}
}

// The API key's value is never printed: a command that holds it (in any
// spelling), or a key-shaped word, is dropped, and the output says so.
func TestResendCommandHoldingTheAPIKeyIsDropped(t *testing.T) {
	for _, v := range []string{projectopstest.DemoOwnerKey, "x/" + strings.Replace(projectopstest.DemoOwnerKey, "_", "%5F", 1), "_sk_live_OTHERKEY1234567890"} {
		_, out, keys := interruptedEvalRun(t, func(u string) []string {
			return []string{"--base-url", u, "eval", "run", "--suite", "evs_smoke", "--server", v}
		})
		if len(keys) != 1 {
			t.Fatalf("%d requests arrived, want 1: %q", len(keys), out)
		}
		if strings.Contains(out, projectopstest.DemoOwnerKey) || strings.Contains(out, v) ||
			!strings.Contains(out, "is not printed: it holds the API key or a key-shaped word") {
			t.Errorf("--server %q: stderr prints the key or does not say the command was dropped: %q", v, out)
		}
	}
}

// The base URL, given as --base-url or in PROJECTOPS_BASE_URL, is in the
// re-send command (sent elsewhere, the key would start another run) and
// in the cancel command after it.
func TestResendCommandKeepsBaseURL(t *testing.T) {
	var base string
	_, out, _ := interruptedEvalRun(t, func(u string) []string {
		base = u
		return []string{"--base-url", u, "eval", "run", "--suite", "evs_smoke"}
	})
	if !strings.Contains(out, "interrupted before") || !strings.Contains(out, "eval run --base-url "+base+" ") ||
		!strings.Contains(out, "with the same PROJECTOPS_API_KEY;") ||
		!strings.Contains(out, "cancel the run with: projectops eval cancel --base-url "+base+" --project prj_demo RUN_ID)") {
		t.Errorf("the re-send command lost --base-url %s or says it needs PROJECTOPS_BASE_URL: %q", base, out)
	}
	_, out, _ = interruptedEvalRun(t, func(u string) []string {
		base = u
		t.Setenv("PROJECTOPS_BASE_URL", u)
		return []string{"eval", "run", "--suite", "evs_smoke"}
	})
	if !strings.Contains(out, "eval run --base-url "+base+" ") || !strings.Contains(out, "with the same PROJECTOPS_API_KEY;") ||
		!strings.Contains(out, "cancel the run with: projectops eval cancel --base-url "+base+" --project prj_demo RUN_ID)") {
		t.Errorf("the re-send command lost $PROJECTOPS_BASE_URL %s: %q", base, out)
	}
}

// The hosted service is named by no --base-url: the re-send command says
// it assumes PROJECTOPS_BASE_URL unset, which would send it elsewhere.
func TestResendCommandHostedService(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_BASE_URL", "")
	c, err := (&app{}).client()
	if err != nil {
		t.Fatal(err)
	}
	out := resendText(commandBaseURL(c), "prj_demo", evalRunFlags{suite: "evs_smoke"}, "k1")
	if !strings.Contains(out, "projectops eval run --project prj_demo --suite evs_smoke --idempotency-key k1 (with the same PROJECTOPS_API_KEY and no PROJECTOPS_BASE_URL;") {
		t.Errorf("resendText for the hosted service: %q", out)
	}
}

// A control character in --idempotency-key is refused before any request:
// the key could be neither typed nor printed as a word that sends it again.
func TestIdempotencyKeyControlCharRefused(t *testing.T) {
	for _, k := range []string{"a\tb", "a\nb", "a\x1bb", "a\u0085b", "a\xffb"} {
		code, out, keys := interruptedEvalRun(t, func(u string) []string {
			return []string{"--base-url", u, "eval", "run", "--suite", "evs_smoke", "--idempotency-key", k}
		})
		if code != exitError || len(keys) != 0 || !strings.Contains(out, "--idempotency-key holds a control character") {
			t.Errorf("key %q: exit %d, %d requests, stderr %q; want it refused", k, code, len(keys), out)
		}
	}
}

// Another value with a control character is printed $'...'-quoted, which
// bash and zsh turn back into it; inside single quotes the CLI's escape
// (\t) would be sent as a backslash and a t.
func TestResendCommandControlCharServer(t *testing.T) {
	_, out, _ := interruptedEvalRun(t, func(u string) []string {
		return []string{"--base-url", u, "eval", "run", "--suite", "evs_smoke", "--server", "a\tb"}
	})
	if !strings.Contains(out, `--server $'a\x09b' `) || !strings.Contains(out, "in bash or zsh") {
		t.Errorf("server a<TAB>b not printed as $'a\\x09b' for bash or zsh: %q", out)
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"evs_smoke":    "evs_smoke",
		"":             "''",
		"a b":          "'a b'",
		"it's":         `'it'\''s'`,
		"a\tb":         `$'a\x09b'`,
		"it's\n\\":     `$'it\'s\x0a\\'`,
		"\u0085":       `$'\xc2\x85'`,
		"a\xffb":       `$'a\xffb'`,
		"\x1b[31mred":  `$'\x1b[31mred'`,
		"naïve ümlaut": "'naïve ümlaut'",
		"-r1":          "-r1", // commandLine puts a "--" before it
		"a=b":          "a=b",
		"=ls":          "'=ls'", // zsh: ls's path
		"~root":        "'~root'",
		"#x":           "'#x'",
		"a#x":          "'a#x'",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// With --file -, the re-send command says the same input must be piped
// to it again.
func TestResendCommandStdinFile(t *testing.T) {
	old := stdin
	stdin = strings.NewReader(`{"suiteId":"evs_smoke"}`)
	t.Cleanup(func() { stdin = old })
	_, out, _ := interruptedEvalRun(t, func(u string) []string {
		return []string{"--base-url", u, "eval", "run", "--file", "-"}
	})
	if !strings.Contains(out, "--file - ") || !strings.Contains(out, "with the same input piped to it") {
		t.Errorf("the re-send command of --file - does not say to pipe the input again: %q", out)
	}
}

// The key the CLI makes when none is given is the one it sends and the
// one the re-send command carries.
func TestResendCommandCarriesTheGeneratedKey(t *testing.T) {
	_, out, keys := interruptedEvalRun(t, func(u string) []string {
		return []string{"--base-url", u, "eval", "run", "--suite", "evs_smoke"}
	})
	if len(keys) != 1 || !strings.HasPrefix(keys[0], "projectops-cli-") {
		t.Fatalf("keys sent %q, want one the CLI made", keys)
	}
	if !strings.Contains(out, "--idempotency-key "+keys[0]+" ") {
		t.Errorf("the re-send command does not carry the key sent, %s: %q", keys[0], out)
	}
}

// A file's idempotencyKey that differs from --idempotency-key is refused
// before any request: either one would start a run the other cannot find.
func TestIdempotencyKeyConflictsWithFile(t *testing.T) {
	old := stdin
	stdin = strings.NewReader(`{"suiteId":"evs_smoke","idempotencyKey":"from-file"}`)
	t.Cleanup(func() { stdin = old })
	code, out, keys := interruptedEvalRun(t, func(u string) []string {
		return []string{"--base-url", u, "eval", "run", "--file", "-", "--idempotency-key", "from-flag"}
	})
	if code != exitError || len(keys) != 0 || !strings.Contains(out, "--idempotency-key and the file's idempotencyKey differ") {
		t.Errorf("exit %d, %d requests, stderr %q; want the conflict refused", code, len(keys), out)
	}
}
