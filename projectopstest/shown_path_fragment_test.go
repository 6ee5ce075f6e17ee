package projectopstest_test

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// checkSecretHidden sends each target raw over loopback and reports every
// target whose answer, Requests() entry or debug log line shows secret.
func checkSecretHidden(t *testing.T, srv *projectopstest.Server, logs *lockedBuffer, hdr map[string]string, secret string, targets []string) {
	t.Helper()
	addr := loopbackAddr(t, srv)
	for _, tg := range targets {
		before := len(logs.String())
		status, h, body := rawRequest(t, addr, "GET", tg, hdr, "")
		if out := fmt.Sprint(h) + body; strings.Contains(out, secret) {
			t.Errorf("GET %s -> %d: the answer shows the secret: %.300s", tg, status, out)
		}
		reqs := srv.Requests()
		if p := reqs[len(reqs)-1].Path; strings.Contains(p, secret) {
			t.Errorf("GET %s: Requests() shows the secret: %q", tg, p)
		}
		if l := logs.String()[before:]; strings.Contains(l, secret) {
			t.Errorf("GET %s: the debug log shows the secret: %.300s", tg, l)
		}
	}
}

// debugLogged is a buffer and the option that logs the double's debug
// lines (one per request) to it.
func debugLogged(t *testing.T) (*lockedBuffer, projectopstest.Option) {
	t.Helper()
	logs := &lockedBuffer{}
	return logs, projectopstest.WithLogger(slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
}

// TestKeyBodyBeforeFragmentOrBackslashMasked: an API key's random part
// pasted into a path without "sk_" is masked as a whole segment
// (TestAPIKeyInPathNeverEchoed), and a raw '#' after it (the double's 404
// for it shows the path) or an escaped backslash glued to it ends that
// segment: it is never shown in the 404, Requests() or the debug log, and
// the 404 shows the masked path with "#…" for the fragment.
func TestKeyBodyBeforeFragmentOrBackslashMasked(t *testing.T) {
	t.Parallel()
	logs, opt := debugLogged(t)
	srv := projectopstest.NewTestServer(t, noLimit, opt)
	ws := srv.Default()
	body := strings.TrimPrefix(ws.APIKey, "sk_")
	checkSecretHidden(t, srv, logs, map[string]string{"Authorization": "Bearer " + ws.APIKey}, body, []string{
		"/api/v1/x/" + body + "#",
		"/api/v1/projects/" + body + "#/servers",
		"/api/v1/x/" + body + "%5C",
	})
	status, _, answer := rawRequest(t, loopbackAddr(t, srv), "GET", "/api/v1/projects/"+body+"#/servers", nil, "")
	if want := `No route for GET \"/api/v1/projects/REDACTED#…\": the path holds a raw '#'`; status != 404 || !strings.Contains(answer, want) {
		t.Errorf("GET with a raw '#' -> %d %.300s; want 404 with %s", status, answer, want)
	}
}

// TestTunnelSecretInPathOrFragmentMasked: a tunnel's ?k= secret appears
// nowhere but its server record's url. Written after a raw '#' (a URL
// pasted with a fragment, or k= in a fragment as some clients carry
// secrets) or as a path segment, it is shown neither in the "the path
// holds a raw '#'" 404, nor in Requests(), nor in the debug log.
func TestTunnelSecretInPathOrFragmentMasked(t *testing.T) {
	t.Parallel()
	logs, opt := debugLogged(t)
	f := newRelayFixture(t, true, opt)
	_ = f.dial(t)
	k := f.publicU.Query().Get("k")
	p := f.publicU.EscapedPath()
	checkSecretHidden(t, f.srv, logs, nil, k, []string{
		p + "#k=" + k,
		p + "#K=" + k,
		p + "/" + k + "#",
	})
}

// TestUploadTokenAfterBackslashOrFragmentMasked: a minted upload URL's
// token is a capability and never shown (TestUploadTokenNotLogged). With a
// raw '#' in the path the double resolves no backslash (it 404s), so the
// token after "eval-ingest-uploads\" or its escape %5C is masked as the
// segment after it all the same, and one after "#/" is not shown at all.
func TestUploadTokenAfterBackslashOrFragmentMasked(t *testing.T) {
	t.Parallel()
	logs, opt := debugLogged(t)
	srv := projectopstest.NewTestServer(t, noLimit, opt)
	ws := srv.Default()
	var up struct {
		UploadURL string `json:"uploadUrl"`
	}
	inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/artifacts/upload-url", ws.APIKey, nil).decode(t, &up)
	i := strings.Index(up.UploadURL, "/eval-ingest-uploads/")
	if i < 0 {
		t.Fatalf("upload URL %q", up.UploadURL)
	}
	path := up.UploadURL[i:]
	token := path[len("/eval-ingest-uploads/"):]
	prefix := strings.TrimSuffix(up.UploadURL[:i], "/")
	if j := strings.Index(prefix, "/api/"); j >= 0 {
		prefix = prefix[j:]
	} else {
		prefix = "/api/v1"
	}
	checkSecretHidden(t, srv, logs, nil, token, []string{
		prefix + `/eval-ingest-uploads\` + token + "#",
		prefix + "/eval-ingest-uploads%5C" + token,
		prefix + "/eval-ingest-uploads#/" + token,
	})
}
