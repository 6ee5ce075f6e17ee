package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// firstWrite signals once when the command first writes (serve's banner).
type firstWrite struct {
	once sync.Once
	ch   chan struct{}
}

func (f *firstWrite) Write(p []byte) (int, error) {
	f.once.Do(func() { close(f.ch) })
	return len(p), nil
}

// docs/double.md, seed file format: "unknown fields are errors", and an
// evalSuites entry's authoring is "checked and applied as POST eval-suites
// does". POST eval-suites refuses a toolCalledWith assertion whose args are
// a plain object ({"a": 1}) with 400 VALIDATION_ERROR ("needs args:
// {"args": {...}}"); "serve --seed" accepts the same suite, silently
// dropping "a", so the seeded suite's assertion matches any call of add.
// serve must refuse the seed (exit 2) instead of starting.
func TestServeSeedRefusesFlatToolCalledWithArgs(t *testing.T) {
	seed := `{
 "organizations": [{"id": "org_l", "name": "L"}],
 "users": [{"id": "usr_l", "organizationId": "org_l", "role": "owner"}],
 "projects": [{"id": "prj_l", "organizationId": "org_l", "name": "P"}],
 "apiKeys": [{"userId": "usr_l", "secret": "sk_local_seed_key_0001"}],
 "servers": [{"id": "srv_l", "projectId": "prj_l", "name": "l", "url": "http://127.0.0.1:1/mcp"}],
 "evalSuites": [{"id": "evs_l", "projectId": "prj_l", "name": "s", "serverIds": ["srv_l"], "model": "openai/gpt-4o-mini",
   "tests": [{"title": "t", "steps": [{"id": "p", "kind": "prompt", "prompt": "hi"},
     {"id": "a", "kind": "assert", "assertion": {"type": "toolCalledWith", "toolName": "add", "args": {"a": 1}}}]}]}]
}`
	file := filepath.Join(t.TempDir(), "seed.json")
	if err := os.WriteFile(file, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &firstWrite{ch: make(chan struct{})}
	stderr := &lockedBuffer{}
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--seed", file}, out, stderr) }()
	select {
	case c := <-code:
		if c != 2 || !strings.Contains(stderr.String(), "args") {
			t.Errorf("exit %d, stderr %q; want 2 naming the assertion's args", c, stderr.String())
		}
	case <-out.ch:
		cancel()
		<-code
		t.Errorf("serve started with a seed whose toolCalledWith args {\"a\":1} POST eval-suites refuses (the expected arguments were dropped)")
	}
}
