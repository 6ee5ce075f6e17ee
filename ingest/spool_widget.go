package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
// returns the result with their storage ids. A file that is missing or
// not the spool's own is dropped (the snapshot goes without its HTML); a
// failed upload (an answer without a storageId included: ErrNoStorageID)
// fails the resume, which a later one retries, so no snapshot is ever
// sent naming an empty blob.
func uploadSpooled(ctx context.Context, svc *Service, project, dir string, res json.RawMessage) (json.RawMessage, error) {
	if !bytes.Contains(res, []byte(spoolBlobPrefix)) {
		return res, nil
	}
	d := json.NewDecoder(bytes.NewReader(res))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("projectops: ingest spool: %w", err)
	}
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
		html, err := readOwn(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		u, err := svc.UploadURL(ctx, project)
		if err != nil {
			return nil, err
		}
		up, err := svc.UploadArtifact(ctx, u.UploadURL, "text/html; charset=utf-8", bytes.NewReader(html))
		if err != nil {
			return nil, err
		}
		s["widgetHtmlBlobId"] = up.StorageID
	}
	// Without HTML escaping, as the reporter encoded it: escaped, the
	// result could outgrow the body limit it was cut to.
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
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

// removeWidgets removes the widget files of a spool file.
func removeWidgets(spoolPath string) {
	base := strings.TrimSuffix(spoolPath, SpoolExt)
	files, _ := filepath.Glob(base + ".w*" + widgetExt)
	for _, f := range files {
		_ = os.Remove(f)
	}
}
