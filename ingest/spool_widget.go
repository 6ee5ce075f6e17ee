package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Widget HTML that makes a TBRecorder's result too large for a chunk is
// not cut: it waits beside the spool file, in a file of its own, and the
// spooled snapshot names that file in widgetHtmlBlobId with spoolBlobPrefix.
// Resume uploads it through artifacts/upload-url, as the Reporter does at
// once, and sends the service's storage id instead.
const (
	spoolBlobPrefix = "projectops-spool-file:"
	widgetExt       = ".widget.html"
)

// spoolWidgets moves res's widget HTML into files beside the spool (seq is
// the chunk the result goes into). Call with t.mu held.
func (t *TBRecorder) spoolWidgets(res *Result, seq int) error {
	base := strings.TrimSuffix(filepath.Base(t.sp.path), SpoolExt)
	dir := filepath.Dir(t.sp.path)
	for i := range res.WidgetSnapshots {
		s := &res.WidgetSnapshots[i]
		if s.WidgetHTML == "" {
			continue
		}
		name := base + ".w" + strconv.Itoa(seq) + "-" + strconv.Itoa(i) + widgetExt
		if err := writeNew(filepath.Join(dir, name), t.enc.redact.html(s.WidgetHTML)); err != nil {
			return fmt.Errorf("projectops: ingest spool: %w", err)
		}
		s.WidgetHTML, s.WidgetHTMLBlobID = "", spoolBlobPrefix+name
	}
	return nil
}

// uploadSpooled uploads the widget files a spooled result names and
// returns the result with their storage ids, and how many snapshots went
// without their HTML. A file that is missing or not the spool's own is
// dropped (the snapshot goes without its HTML). An upload answered without
// a storageId (ErrNoStorageID) stored nothing, and asking again will not
// change that: the snapshot goes with the Reporter's dropped-HTML marker
// instead, logged, so the run's other results are not held back forever.
// Any other failed upload (a 5xx, the network) fails the resume, which a
// later one retries, so no snapshot is ever sent naming an empty blob. A
// stored blob's id is kept beside its file (storedIDExt), so that retry
// does not upload it again.
func uploadSpooled(ctx context.Context, svc *Service, log *slog.Logger, project, dir string, res json.RawMessage) (json.RawMessage, int, error) {
	if !bytes.Contains(res, []byte(spoolBlobPrefix)) {
		return res, 0, nil
	}
	d := json.NewDecoder(bytes.NewReader(res))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, 0, fmt.Errorf("projectops: ingest spool: %w", err)
	}
	dropped := 0
	snaps, _ := m["widgetSnapshots"].([]any)
	for _, sv := range snaps {
		s, _ := sv.(map[string]any)
		id, _ := s["widgetHtmlBlobId"].(string)
		name, ok := strings.CutPrefix(id, spoolBlobPrefix)
		if !ok {
			continue
		}
		delete(s, "widgetHtmlBlobId")
		if name != filepath.Base(name) || !strings.HasSuffix(name, widgetExt) {
			continue
		}
		path := filepath.Join(dir, name)
		if stored := storedID(path); stored != "" {
			s["widgetHtmlBlobId"] = stored
			continue
		}
		html, err := readOwn(path)
		if err != nil {
			continue
		}
		stored, err := uploadWidgetHTML(ctx, svc, project, html)
		switch {
		case errors.Is(err, ErrNoStorageID):
			// The marker is longer than the spool's blob reference it
			// replaces: the result is cut again below if it outgrew a
			// chunk.
			s["widgetHtml"] = widgetHTMLDropped(len(html))
			dropped++
			log.WarnContext(ctx, "projectops: ingest: Resume: a spooled widget's upload stored nothing; its snapshot is sent without its HTML",
				"file", path, "error", err)
		case err != nil:
			return nil, dropped, fmt.Errorf("projectops: ingest spool: uploading widget file %s (kept for the next resume): %w", path, err)
		default:
			s["widgetHtmlBlobId"] = stored
			keepStoredID(path, stored)
		}
	}
	// Without HTML escaping, as the reporter encoded it: escaped, the
	// result could outgrow the body limit it was cut to.
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(m); err != nil {
		return nil, dropped, err
	}
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if len(out) > DefaultChunkBytes-chunkOverhead {
		// A result cut to the limit when recorded, with many markers in
		// it, no longer fits: a body over the limit the service refuses
		// every time. It is cut as the Reporter cuts one.
		var err error
		if out, err = fitChunk(out); err != nil {
			return nil, dropped, fmt.Errorf("projectops: ingest spool: %w", err)
		}
	}
	return out, dropped, nil
}

// fitChunk cuts a result's JSON to fit a chunk of DefaultChunkBytes, as
// the Reporter's encoder cuts one (see encoder.encode). The result was
// redacted when spooled; the built-in rules find nothing more in it.
func fitChunk(res []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(res))
	d.UseNumber() // metadata's numbers as written, not through float64
	var r Result
	if err := d.Decode(&r); err != nil {
		return nil, err
	}
	b, _, err := newEncoder(redactor{}, nil, DefaultChunkBytes).encode(&r)
	return b, err
}

// uploadWidgetHTML uploads one widget's HTML (a spooled widget file's, or
// a Reporter's result's) and returns its storage id.
func uploadWidgetHTML(ctx context.Context, svc *Service, project string, html []byte) (string, error) {
	u, err := svc.UploadURL(ctx, project)
	if err != nil {
		return "", err
	}
	up, err := svc.UploadArtifact(ctx, u.UploadURL, "text/html; charset=utf-8", bytes.NewReader(html))
	if err != nil {
		return "", err
	}
	return up.StorageID, nil
}

// storedIDExt names the file beside a widget file that holds the id of
// the blob it was stored as, once uploaded: a resume that fails later (a
// chunk refused, the network gone) leaves it for the next one, which
// sends that id rather than upload the file again.
const storedIDExt = ".stored"

// storedID returns the blob id kept beside the widget file at path, or ""
// when there is none. The id ends with a newline: without it, the write
// was cut short (the process killed), and the file is uploaded again.
func storedID(path string) string {
	b, err := readOwn(path + storedIDExt)
	if err != nil {
		return ""
	}
	id, ok := strings.CutSuffix(string(b), "\n")
	if !ok || id == "" || strings.ContainsAny(id, "\n") {
		return ""
	}
	return id
}

// keepStoredID writes the blob id of the widget file at path beside it. A
// failure is ignored: the next resume would only upload the file again.
func keepStoredID(path, id string) {
	_ = os.Remove(path + storedIDExt) // a torn one, which storedID ignored
	_ = writeNew(path+storedIDExt, []byte(id+"\n"))
}

// writeNew writes a file that must not exist yet (O_EXCL: a link planted
// under its name is not followed).
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readOwn reads a file of this user's spool (see openOwn).
func readOwn(path string) ([]byte, error) {
	f, err := openOwn(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// removeWidgets removes the widget files of a spool file, and the blob
// ids kept beside them.
func removeWidgets(spoolPath string) {
	base := strings.TrimSuffix(spoolPath, SpoolExt)
	files, _ := filepath.Glob(base + ".w*" + widgetExt)
	for _, f := range files {
		removeWidget(f)
	}
	ids, _ := filepath.Glob(base + ".w*" + widgetExt + storedIDExt)
	for _, f := range ids { // those whose widget file is gone already
		_ = os.Remove(f)
	}
}

// removeWidget removes the blob id kept beside the widget file at path,
// then the file; it keeps the file when the id stays. An id never outlives
// its file: what a crash in between leaves is a file uploaded again at
// worst, never an id standing for a file that is gone.
func removeWidget(path string) {
	if err := os.Remove(path + storedIDExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return // the orphan cleanup (cleanWidgets) tries again
	}
	_ = os.Remove(path)
}

// cleanWidgets removes the widget files in dir, and the blob ids kept
// beside them, that no spool file (nor a damaged one moved aside) belongs
// to once orphanAge old: a resume killed between removing a spool file and
// its widget files leaves them, and nothing else would remove them.
func cleanWidgets(dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*"+widgetExt))
	ids, _ := filepath.Glob(filepath.Join(dir, "*"+widgetExt+storedIDExt))
	for i, p := range append(files, ids...) {
		base, ok := widgetSpool(strings.TrimSuffix(filepath.Base(p), storedIDExt))
		if !ok || !orphanOld(p) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, base+SpoolExt)); !errors.Is(err, fs.ErrNotExist) {
			continue // its spool's (or unknown: left alone)
		}
		if _, err := os.Lstat(filepath.Join(dir, base+SpoolExt+DamagedExt)); !errors.Is(err, fs.ErrNotExist) {
			continue // kept with its damaged spool file, for inspection
		}
		if i < len(files) {
			removeWidget(p)
		} else {
			_ = os.Remove(p)
		}
	}
}

// widgetSpool returns the name, without SpoolExt, of the spool file the
// widget file named name belongs to (see spoolWidgets), and whether name
// is a widget file's.
func widgetSpool(name string) (string, bool) {
	s, ok := strings.CutSuffix(name, widgetExt)
	i := strings.LastIndex(s, ".w")
	if !ok || i <= 0 {
		return "", false
	}
	seq, idx, ok := strings.Cut(s[i+2:], "-")
	if !ok || !digits(seq) || !digits(idx) {
		return "", false
	}
	return s[:i], true
}

// digits reports whether s is a non-empty run of ASCII digits.
func digits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
