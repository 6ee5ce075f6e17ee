package projectopstest

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzShownPath: whatever surrounds a key-shaped segment (invalid UTF-8,
// runes whose lower case has another length), shownPath, and the server's
// (which adds its own keys and tunnels' secrets to the same steps), never
// panic and never show the key nor anything after a '#' (the server's
// neither a key escaped in a segment of its own), and a path with no
// "sk_" (any case, escapes decoded twice by the test's own decoder,
// testUnescape), no upload token and no '#' is shown unchanged.
func FuzzShownPath(f *testing.F) {
	for _, seed := range []struct{ before, after string }{
		{"/api/v1/x", "y"},
		{"/api/v1/x/" + strings.Repeat("\xff", 20), ""},
		{"/api/v1/x/İİİ", "y"},
		{"/api/v1/x/ẞẞ", ""},
		{"/api/v1/x/\u212a\u212a\u212a\u212a", "y"}, // the Kelvin sign
		{"\xc4", "\xff\xfe"},
		{"/task_runner/DISK_1/ſ", "risk_x"},
		{"/eval-ingest-uploads", "tok"},
		{"/tunnels/" + strings.Repeat("A", 50), "\\" + strings.Repeat("b", 43)},
	} {
		f.Add(seed.before, seed.after)
	}
	srv := NewTestServer(f)
	shows := map[string]func(string) string{"shownPath": shownPath, "Server.shownPath": srv.shownPath}
	const tail = "SEKRITSEKRITSEKRIT"
	f.Fuzz(func(t *testing.T, before, after string) {
		if strings.Contains(before+after, "SEKRIT") {
			t.Skip()
		}
		for name, show := range shows {
			for _, p := range []string{before + "/sk_" + tail + "/" + after, before + "/SK_" + tail, before + "=sK_" + tail + "/" + after} {
				if got := show(p); strings.Contains(got, "SEKRIT") {
					t.Errorf("%s(%q) = %q shows the key", name, p, got)
				}
			}
			if name == "Server.shownPath" { // escaped: a segment of its own
				for _, p := range []string{before + "/%73k_" + tail + "/" + after, before + `/\u0073K_` + tail, before + "/%2573k_" + tail} {
					if got := show(p); strings.Contains(got, "SEKRIT") {
						t.Errorf("%s(%q) = %q shows the key", name, p, got)
					}
				}
			}
			p := before + "/" + after
			if got := show(p + "#/" + tail); strings.Contains(got, "SEKRIT") || !strings.HasSuffix(got, fragmentMark) {
				t.Errorf("%s(%q) = %q shows what follows the '#'", name, p+"#/"+tail, got)
			}
			if !strings.Contains(strings.ToLower(testUnescape(testUnescape(p))), "sk_") && !strings.Contains(p, "eval-ingest-uploads") && !strings.Contains(p, "#") {
				if got := show(p); got != p {
					t.Errorf("%s(%q) = %q, want it unchanged", name, p, got)
				}
			}
		}
	})
}

// TestShownPathKeyBodies: a segment that is one of the double's keys
// without its prefix is masked, whatever the key's length (a seed's keys
// need not be random ones), and a segment of the same shape that is no key
// is shown.
func TestShownPathKeyBodies(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	long := "sk_" + strings.Repeat("L0ng-key_", 40)
	for _, secret := range []string{"sk_demo_owner_0000000000000000", long} {
		s.mu.Lock()
		_, err := s.st.addKey(APIKeySpec{UserID: ws.UserID, Secret: Secret(secret)})
		s.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
	}
	for p, want := range map[string]string{
		"/api/v1/x/demo_owner_0000000000000000/y":                   "/api/v1/x/REDACTED/y",
		"/api/v1/x/demo_owner_0000000000000001/y":                   "/api/v1/x/demo_owner_0000000000000001/y",
		"/api/v1/x/" + long[3:]:                                     "/api/v1/x/REDACTED",
		"/api/v1/x/" + long[4:] + "x":                               "/api/v1/x/" + long[4:] + "x",
		"/api/v1/x/" + strings.TrimPrefix(ws.APIKey, "sk_") + "/y/": "/api/v1/x/REDACTED/y/",
	} {
		if got := s.shownPath(p); got != want {
			t.Errorf("shownPath(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestShownPathOddSeparators: a backslash, as written or escaped once more
// (%5C, %5c: the decoded path holds it so), ends a segment as '/' does, for
// the double's keys pasted without "sk_" and for upload tokens; a '#' and
// all after it are shown as "#…".
func TestShownPathOddSeparators(t *testing.T) {
	s := NewTestServer(t)
	body := strings.TrimPrefix(s.Default().APIKey, "sk_")
	for p, want := range map[string]string{
		"/api/v1/x/" + body + `\y`:                        `/api/v1/x/REDACTED\y`,
		"/api/v1/x/" + body + "%5Cy":                      "/api/v1/x/REDACTED%5Cy",
		"/api/v1/x%5c" + body:                             "/api/v1/x%5cREDACTED",
		"/api/v1/x/" + body + "#y/" + body:                "/api/v1/x/REDACTED#…",
		`/api/v1/eval-ingest-uploads\\tok1\rest`:          `/api/v1/eval-ingest-uploads\\REDACTED\rest`,
		"/api/v1/eval-ingest-uploads%5ctok1%5Crest":       "/api/v1/eval-ingest-uploads%5cREDACTED%5Crest",
		"/api/v1/x/a%5":                                   "/api/v1/x/a%5",
		"/api/v1/eval-ingest-uploads/./tok1#/tok2":        "/api/v1/eval-ingest-uploads/./REDACTED#…",
		"/api/v1/projects/prj_1/servers/srv_1/validate#x": "/api/v1/projects/prj_1/servers/srv_1/validate#…",
	} {
		if got := s.shownPath(p); got != want {
			t.Errorf("shownPath(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestShownPathNoAllocation: shownPath, which runs for every request,
// allocates nothing for a path it leaves as it is: ids shaped like a key's
// random part (UUIDs) or holding "sk_" included.
func TestShownPathNoAllocation(t *testing.T) {
	s := NewTestServer(t)
	for _, p := range []string{
		"/api/v1/projects/prj_1/servers/srv_1/validate",
		"/api/v1/projects/prj_1/servers/0f8fad5b-d9cb-469f-a165-70867728950e/validate",
		"/api/v1/projects/prj_1/servers/0f8fad5bd9cb469fa16570867728950e0123456789a/validate",
		"/api/v1/projects/prj_1/servers/task_runner/validate",
		"/api/v1/projects/prj_1/servers/TASK_RUNNER/x-sk_short",
	} {
		if n := testing.AllocsPerRun(100, func() { _ = s.shownPath(p) }); n != 0 {
			t.Errorf("shownPath(%q): %v allocations", p, n)
		}
	}
}

// BenchmarkShownPath is the per-request cost of the path masking: an
// ordinary path, one holding a UUID-shaped id (36 base64url characters),
// one with a segment as long as a key's random part that is no key, and
// one with an id holding "sk_".
func BenchmarkShownPath(b *testing.B) {
	s := NewTestServer(b)
	for _, c := range []struct{ name, p string }{
		{"short", "/api/v1/projects/prj_1/servers/srv_1/validate"},
		{"uuid", "/api/v1/projects/prj_1/servers/0f8fad5b-d9cb-469f-a165-70867728950e/validate"},
		{"keylen", "/api/v1/projects/prj_1/servers/0f8fad5bd9cb469fa16570867728950e0123456789a/validate"},
		{"sk_id", "/api/v1/projects/prj_1/servers/task_runner/validate"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = s.shownPath(c.p)
			}
		})
	}
}

// A seed's keys need not be long or base64url ("sk_test_SECRET123",
// "sk_thekey.with.dots..."): the double knows its keys, and masks them
// pasted into a path with their prefix or without, whatever their shape.
func TestShortSeededKeyInPathMasked(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	for _, secret := range []string{"sk_test_SECRET123", "sk_thekey.with.dots.ABCDEFGHIJ"} {
		s.mu.Lock()
		_, err := s.st.addKey(APIKeySpec{UserID: ws.UserID, Secret: Secret(secret)})
		s.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/api/v1/projects/" + secret + "/servers", "/api/v1/x/" + strings.TrimPrefix(secret, "sk_")} {
			req := httptest.NewRequest("GET", p, nil)
			req.Header.Set("Authorization", "Bearer "+ws.APIKey)
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			body := strings.TrimPrefix(secret, "sk_")
			if strings.Contains(rec.Body.String(), body) {
				t.Errorf("GET %s -> %d body echoes the double's own key: %s", p, rec.Code, rec.Body.String())
			}
			if got := s.shownPath(p); strings.Contains(got, body) {
				t.Errorf("shownPath(%q) = %q shows the double's key", p, got)
			}
		}
	}
	if shown := fmt.Sprintf("%+v", s.Requests()); strings.Contains(shown, "SECRET123") || strings.Contains(shown, "with.dots") {
		t.Errorf("Requests() shows a seeded key: %.400s", shown)
	}
}

// One of the double's keys glued to an id (no separator) is masked: the
// shape rule leaves an "sk_" after a letter or digit (task_runner), the
// double's own keys do not.
func TestKeyGluedToIDMasked(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	p := "/api/v1/projects/" + ws.ProjectID + "/servers/srv1" + ws.APIKey
	if got := s.shownPath(p); strings.Contains(got, strings.TrimPrefix(ws.APIKey, "sk_")) {
		t.Errorf("shownPath(%q) = %q", p, got)
	}
}

// Two seeded keys where one's body is a prefix of the other's
// ("sk_demo" and "sk_demo_admin_0001"): the longest key that matches is
// masked, not the shorter one and the rest shown.
func TestShownPathLongestKeyFirst(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	for _, secret := range []string{"sk_demo", "sk_demo_admin_0001"} {
		s.mu.Lock()
		_, err := s.st.addKey(APIKeySpec{UserID: ws.UserID, Secret: Secret(secret)})
		s.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
	}
	p := "/api/v1/projects/sk_demo_admin_0001/servers"
	if got := s.shownPath(p); strings.Contains(got, "admin_0001") {
		t.Errorf("shownPath(%q) = %q shows the rest of the longer key", p, got)
	}
}

// A key of any length glued inside a segment ("prj1sk_...json") is
// masked.
func TestShownPathLongKeyInsideASegment(t *testing.T) {
	s := NewTestServer(t)
	secret := "sk_" + strings.Repeat("Z", 300)
	uid := s.Default().UserID
	s.mu.Lock()
	_, err := s.st.addKey(APIKeySpec{UserID: uid, Secret: Secret(secret)})
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	p := "/api/v1/projects/prj1" + secret + ".json/servers"
	if got := s.shownPath(p); strings.Contains(got, strings.Repeat("Z", 300)) {
		t.Errorf("shownPath shows a 300-byte key glued inside a segment: %.80q...", got)
	}
}

func seedLens(t testing.TB, s *Server, lens ...int) {
	ws := s.Default()
	for _, n := range lens {
		secret := "sk_" + strings.Repeat("Q", n)
		s.mu.Lock()
		_, err := s.st.addKey(APIKeySpec{UserID: ws.UserID, Secret: Secret(secret)})
		s.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkShownPathHostile: a 16 KiB path (the head cap) of "xsk_",
// every "sk_" after a letter, with one 300-byte key and with 64 key
// lengths recorded: about the path's length, not its square.
func BenchmarkShownPathHostile(b *testing.B) {
	p := "/" + strings.Repeat("xsk_", 4<<10)
	for _, tc := range []struct {
		name string
		lens []int
	}{{"longkey", []int{300}}, {"64lengths", nil}} {
		s := NewTestServer(b)
		if tc.lens == nil {
			for n := 1; n <= 64; n++ {
				tc.lens = append(tc.lens, n)
			}
		}
		seedLens(b, s, tc.lens...)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				_ = s.shownPath(p)
			}
		})
	}
}

// Ids holding "sk_" (task_, disk_) before one of the double's keys do not
// use up what a path may cost: they are passed over without a hash, and
// the key is masked however many precede it.
func TestShownPathKeyAfterManyIDsHoldingSK(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	const secret = "sk_test_SECRET123"
	s.mu.Lock()
	_, err := s.st.addKey(APIKeySpec{UserID: ws.UserID, Secret: Secret(secret)})
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	p := "/api/v1/x/" + strings.Repeat("task_/", 1000) + "id" + secret
	if got := s.shownPath(p); strings.Contains(got, "SECRET123") {
		t.Errorf("shownPath shows the double's key after 1000 ids holding sk_: %q", got[len(got)-40:])
	}
}

// TestTunnelSecretIndex: the index Server.shownPath looks secrets up in
// holds the secret each server record's url carries: after two rotations
// only the current one, and after the close still that one, which the
// record goes on showing, so it stays masked wherever a path shows it.
func TestTunnelSecretIndex(t *testing.T) {
	s := NewTestServer(t)
	s.mu.Lock()
	ts := &s.st.tun
	ts.init()
	rec := &tunnelRec{serverID: "srv_x", slug: "tx"}
	first, _, _ := ts.rotate(rec, s.now())
	second, _, _ := ts.rotate(rec, s.now())
	n := len(ts.shown)
	s.mu.Unlock()
	if n != 1 {
		t.Errorf("after two rotations the index holds %d secrets, want 1", n)
	}
	if first == second || len(second) != tunnelSecretLen {
		t.Fatalf("rotation gave secrets of lengths %d, %d, equal %v", len(first), len(second), first == second)
	}
	if got := s.shownPath("/api/v1/x/" + first); got != "/api/v1/x/"+first {
		t.Errorf("a rotated-out secret, no longer on any record, is masked: %q", got)
	}
	s.mu.Lock()
	ts.revoke(rec)
	s.mu.Unlock()
	for _, p := range []string{"/api/v1/x/" + second, "/tunnels//tx/" + second, "/tunnels/tx%5C" + second + "x"} {
		if got := s.shownPath(p); strings.Contains(got, second) {
			t.Errorf("after the close, the secret the record still shows is shown: %q", got)
		}
	}
}

// TestTunnelSecretsOverlapMasked: two shown secrets that overlap in a path
// are masked over their union, leaving no part of either.
func TestTunnelSecretsOverlapMasked(t *testing.T) {
	s := NewTestServer(t)
	a := strings.Repeat("A", tunnelSecretLen)
	b := strings.Repeat("A", 10) + strings.Repeat("B", tunnelSecretLen-10)
	s.mu.Lock()
	ts := &s.st.tun
	ts.init()
	ts.shown[a], ts.shown[b] = &tunnelRec{}, &tunnelRec{}
	s.mu.Unlock()
	// a, then b starting 10 bytes before a ends: they overlap.
	p := "/api/v1/x/" + strings.Repeat("A", tunnelSecretLen-10) + b
	if got := s.shownPath(p); got != "/api/v1/x/REDACTED" {
		t.Errorf("overlapping secrets shown as %q", got)
	}
}

// TestTunnelSecretScanAllocatesNothing: a path with a run as long as a
// secret, while a tunnel is open, costs no allocation when it holds none.
func TestTunnelSecretScanAllocatesNothing(t *testing.T) {
	s := NewTestServer(t)
	s.mu.Lock()
	ts := &s.st.tun
	ts.init()
	_, _, _ = ts.rotate(&tunnelRec{serverID: "srv_y", slug: "ty"}, s.now())
	s.mu.Unlock()
	p := "/api/v1/x/" + strings.Repeat("Z", 64)
	if n := testing.AllocsPerRun(100, func() { _ = s.maskTunnelSecrets(p) }); n != 0 {
		t.Errorf("maskTunnelSecrets allocates %v times on a path without a secret", n)
	}
}

// BenchmarkShownPathTunnelPath: a public tunnel path and one like it
// outside /tunnels/ cost the same (neither holds a run long enough to be a
// tunnel's secret, so neither takes the server's lock).
func BenchmarkShownPathTunnelPath(b *testing.B) {
	s := NewTestServer(b)
	for _, p := range []string{"/tunnels/t4c7c4642ce/api/mcp/adapter-http/srv_1", "/tunnelz/t4c7c4642ce/api/mcp/adapter-http/srv_1"} {
		b.Run(p[:9], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = s.shownPath(p)
			}
		})
	}
}
