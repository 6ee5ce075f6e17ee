package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// Long text is cut to a head and a tail with a marker between. These
// place a secret so that it straddles an edge of the cut: cut before it
// was redacted, the secret lost what identifies it (its "sk_", the
// "Authorization: Bearer " before it) and its rest was spooled and sent.

// noLeak records through a Reporter on a double with record, and fails
// t when a spool file or an iteration the service received holds leaked.
func noLeak(t *testing.T, chunkBytes int, leaked string, record func(*ingest.Reporter)) {
	t.Helper()
	noLeakWith(t, func(o *ingest.ReporterOptions) { o.ChunkBytes = chunkBytes }, leaked, record)
}

// noLeakWith is noLeak with the ReporterOptions set by opt.
func noLeakWith(t *testing.T, opt func(*ingest.ReporterOptions), leaked string, record func(*ingest.Reporter)) {
	t.Helper()
	srv := projectopstest.NewTestServer(t)
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	spool := t.TempDir()
	o := ingest.ReporterOptions{SpoolDir: spool, Run: ingest.RunParams{SuiteName: "cut", ExternalRunID: "cut-" + t.Name()}}
	opt(&o)
	rep, err := ingest.NewReporter(c.Ingest, o)
	if err != nil {
		t.Fatal(err)
	}
	record(rep)
	_ = rep.Flush(t.Context())
	files := 0
	_ = filepath.WalkDir(spool, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(leaked)) {
				t.Errorf("spool file %s holds %s", filepath.Base(path), leaked)
			}
		}
		return nil
	})
	if files == 0 {
		t.Fatal("no spool file to check")
	}
	out, err := rep.Close(t.Context())
	if err != nil || out.Err != nil {
		t.Fatal(err, out.Err)
	}
	n := 0
	for _, run := range srv.IngestedRuns("") {
		its, _ := srv.IngestedIterations(run.ID)
		for _, it := range its {
			n++
			if i := strings.Index(string(it.Raw), leaked); i >= 0 {
				t.Errorf("the service received %s: …%s…", leaked, string(it.Raw)[max(0, i-60):min(len(it.Raw), i+len(leaked)+20)])
			}
		}
	}
	if n == 0 {
		t.Fatal("the service received no iteration")
	}
}

// goTestCutStream is a go test -json stream of one failing test whose
// output is longer than DefaultOutputHead+DefaultOutputTail, the kept tail
// starting exactly at secretRest, after lineBefore (which names it a
// secret).
func goTestCutStream(t *testing.T, lineBefore, secretRest string) string {
	t.Helper()
	var out []string
	for n := 0; n < ingest.DefaultOutputHead+512; n += 40 {
		out = append(out, "    x_test.go:5: filler line 0123456789\n")
	}
	out = append(out, lineBefore+secretRest+"\n")
	// The fail line is kept too.
	pad := ingest.DefaultOutputTail - len(secretRest) - 1 - len("--- FAIL: TestCut (0.00s)\n")
	for pad > 0 {
		n := min(pad, 60)
		out = append(out, strings.Repeat("y", n-1)+"\n")
		pad -= n
	}
	var b strings.Builder
	b.WriteString(`{"Action":"start","Package":"example.com/cut"}` + "\n")
	b.WriteString(`{"Action":"run","Package":"example.com/cut","Test":"TestCut"}` + "\n")
	for _, o := range append(out, "--- FAIL: TestCut (0.00s)\n") {
		j, _ := json.Marshal(map[string]string{"Action": "output", "Package": "example.com/cut", "Test": "TestCut", "Output": o})
		b.Write(j)
		b.WriteByte('\n')
	}
	b.WriteString(`{"Action":"fail","Package":"example.com/cut","Test":"TestCut","Elapsed":0}` + "\n")
	b.WriteString(`{"Action":"output","Package":"example.com/cut","Output":"FAIL\n"}` + "\n")
	b.WriteString(`{"Action":"fail","Package":"example.com/cut","Elapsed":0.01}` + "\n")
	return b.String()
}

func readGoTestNoLeak(t *testing.T, stream, leaked string) {
	noLeak(t, 0, leaked, func(rep *ingest.Reporter) {
		if _, err := ingest.ReadGoTest(t.Context(), strings.NewReader(stream), rep, ingest.GoTestOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestReadGoTestCutRedactsSkKeyFirst(t *testing.T) {
	const rest = "test_LEAKCANARY1234567890abcdef" // of sk_test_LEAKCANARY1234567890abcdef
	readGoTestNoLeak(t, goTestCutStream(t, "    x_test.go:9: calling with key sk_", rest), "LEAKCANARY1234567890abcdef")
}

func TestReadGoTestCutRedactsBearerFirst(t *testing.T) {
	const tok = "LEAKCANARYBEARER0123456789abcdefXYZ"
	readGoTestNoLeak(t, goTestCutStream(t, "    x_test.go:9: sent Authorization: Bearer ", tok), tok)
}

// ReadJUnit keeps a failure's text as a 4 KiB head and tail; the token
// straddles the start of the kept tail at each offset into it.
func TestReadJUnitCutRedactsBearerFirst(t *testing.T) {
	const tok = "LEAKCANARYJUNITBEARER0123456789abcdefXYZ"
	const leaked = "0123456789abcdefXYZ"
	var doc strings.Builder
	doc.WriteString(`<?xml version="1.0"?>` + "\n<testsuite name=\"s\">\n")
	for d := 0; d <= len(tok); d++ {
		after := strings.Repeat("z", 4096-len(tok)+d) // to the end of the text
		text := strings.Repeat("log line 0123456789\n", 300) + "request sent with Authorization: Bearer " + tok + "\n" + after
		doc.WriteString(`<testcase classname="c" name="t` + itoa(d) + `"><failure>` + text + `</failure></testcase>` + "\n")
	}
	doc.WriteString("</testsuite>\n")
	noLeak(t, 0, leaked, func(rep *ingest.Reporter) {
		if _, err := ingest.ReadJUnit(t.Context(), strings.NewReader(doc.String()), rep); err != nil {
			t.Fatal(err)
		}
	})
}

// ReadJest and ReadVitest cut a failure's text as ReadJUnit does.
func TestReadJestCutRedactsBearerFirst(t *testing.T) {
	const tok = "LEAKCANARYJESTBEARER0123456789abcdefXYZ"
	const leaked = "0123456789abcdefXYZ"
	var results []map[string]any
	for d := 0; d <= len(tok); d++ {
		msg := strings.Repeat("    at frame (file.js:1:2)\n", 300) + "Error: request with Authorization: Bearer " + tok + "\n" +
			strings.Repeat("z", 4096-len(tok)+d)
		results = append(results, map[string]any{"ancestorTitles": []string{"s"}, "title": "t" + itoa(d),
			"status": "failed", "duration": 1, "failureMessages": []string{msg}})
	}
	doc, err := json.Marshal(map[string]any{"testResults": []map[string]any{{"name": "a.test.js", "assertionResults": results}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, read := range []func(*ingest.Reporter) (ingest.SourceStats, error){
		func(rep *ingest.Reporter) (ingest.SourceStats, error) {
			return ingest.ReadJest(t.Context(), bytes.NewReader(doc), rep)
		},
		func(rep *ingest.Reporter) (ingest.SourceStats, error) {
			return ingest.ReadVitest(t.Context(), bytes.NewReader(doc), rep)
		},
	} {
		noLeak(t, 0, leaked, func(rep *ingest.Reporter) {
			if st, err := read(rep); err != nil || st.Failed != len(tok)+1 {
				t.Fatal(st, err)
			}
		})
	}
}

// A result too big for a chunk has its biggest field cut in the middle;
// the key straddles where the kept tail starts at one of the offsets.
func TestChunkCutRedactsSkKeyFirst(t *testing.T) {
	const key = "sk_test_LEAKCANARY123456abcdefXYZ"
	const leaked = "123456abcdefXYZ"
	noLeak(t, 4096, leaked, func(rep *ingest.Reporter) {
		const n = 8000
		for off := 6300; off < 6340; off += 5 { // around where the kept tail starts
			e := strings.Repeat("x", off) + " " + key + " " + strings.Repeat("y", n-off)
			if err := rep.Record(t.Context(), ingest.Result{CaseTitle: "big output " + itoa(off), Error: e}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// A run secret, which no rule but its value knows, straddling the start
// of the kept tail: through a Recorder that forwards to the Reporter (a
// tee, the CLI's lazyReporter) by Unwrap, the cut redacts it with the
// run's secrets as through the Reporter itself.
func TestReadGoTestCutRedactsRunSecretThroughWrapper(t *testing.T) {
	const token = "OPAQUEREPLAYTOKENqwertzuiop0123456789"
	const cut = 12
	stream := goTestCutStream(t, "    x_test.go:9: replay with access token "+token[:cut], token[cut:])
	opt := func(o *ingest.ReporterOptions) {
		o.Run.ServerReplayConfigs = []ingest.ServerReplayConfig{{ServerID: "srv_a", URL: "https://mcp.example/mcp", AccessToken: token}}
	}
	for _, wrapped := range []bool{false, true} {
		t.Run(map[bool]string{false: "reporter", true: "wrapped"}[wrapped], func(t *testing.T) {
			noLeakWith(t, opt, token[cut:], func(rep *ingest.Reporter) {
				var rec ingest.Recorder = rep
				if wrapped {
					rec = tee{rep}
				}
				if _, err := ingest.ReadGoTest(t.Context(), strings.NewReader(stream), rec, ingest.GoTestOptions{}); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// tee stands for a Recorder that forwards to a Reporter.
type tee struct{ rep *ingest.Reporter }

func (w tee) Record(ctx context.Context, r ingest.Result) error { return w.rep.Record(ctx, r) }
func (w tee) Unwrap() ingest.Recorder                           { return w.rep }

// A Redact hook that knows a secret by its context ("acme-pin=") reads
// the text before the cut, as the built-in rules do, so a secret
// straddling the start of the kept tail is not left as its bare suffix.
func TestReadGoTestCutRunsHookFirst(t *testing.T) {
	const secret = "ZXCVBNMASDFGHJKLqwertyuiop"
	re := regexp.MustCompile(`acme-pin=\S+`)
	stream := goTestCutStream(t, "    x_test.go:9: login with acme-pin=ZXCV", secret[4:])
	noLeakWith(t, func(o *ingest.ReporterOptions) {
		o.Redact = func(s string) string { return re.ReplaceAllString(s, "acme-pin=<hidden>") }
	}, secret[4:], func(rep *ingest.Reporter) {
		if _, err := ingest.ReadGoTest(t.Context(), strings.NewReader(stream), rep, ingest.GoTestOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

// A failure text quoting a HAR longer than the 8 KiB kept: a window of it
// is a JSON document cut short, which the name/value pair rule cannot
// read, so text held whole is redacted whole before the cut.
func TestReadJestCutRedactsHARPair(t *testing.T) {
	const value = "QWYUIOPSFGHJKLZXVBNM"
	var entries []any
	for range 60 {
		entries = append(entries, map[string]any{"request": map[string]any{"url": "https://api.example/x", "headers": []any{
			map[string]any{"name": "Accept", "value": "application/json"},
			map[string]any{"name": "Authorization", "value": value},
		}}, "response": map[string]any{"status": 200, "body": strings.Repeat("lorem ", 50)}})
	}
	har, _ := json.MarshalIndent(map[string]any{"log": map[string]any{"entries": entries}}, "", "  ")
	msg := "Error: request failed, HAR follows\n" + string(har)
	doc, err := json.Marshal(map[string]any{"testResults": []map[string]any{{"name": "a.test.js", "assertionResults": []map[string]any{{
		"ancestorTitles": []string{"s"}, "title": "t", "status": "failed", "duration": 1, "failureMessages": []string{msg}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	noLeakWith(t, func(*ingest.ReporterOptions) {}, value, func(rep *ingest.Reporter) {
		if st, err := ingest.ReadJest(t.Context(), bytes.NewReader(doc), rep); err != nil || st.Failed != 1 {
			t.Fatal(st, err)
		}
	})
}
