package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// ErrSpoolDamaged is matched (errors.Is) by every *SpoolDamageError.
var ErrSpoolDamaged = errors.New("projectops: ingest: damaged spool file")

// SpoolDamageError reports a spool file with lines Resume could not read (a
// disk error, a bit flip, an edit by hand). It names the file and the
// lines, never what they hold: a spooled result can hold user data. Resume
// skips the damaged lines only, delivers the rest of the file with its run,
// and keeps the file on disk for inspection; once its run is finalized the
// file is marked delivered (acknowledgements appended), so a later Resume
// sends nothing more from it and reports it again until it is removed. A
// damaged first line (the run record) leaves nothing of the file readable:
// RunRecord is set and nothing of it is sent.
type SpoolDamageError struct {
	// Path is the spool file, kept where it was.
	Path string
	// Line is the first damaged line, counting from 1.
	Line int
	// Lines counts the damaged lines.
	Lines int
	// RunRecord reports that the first line, the run record, is damaged:
	// the file's project and run are unknown, so nothing of it was sent.
	RunRecord bool
}

// Error names the file and the lines, never their content.
func (e *SpoolDamageError) Error() string {
	if e.RunRecord {
		return "projectops: ingest spool " + e.Path + ": line 1 (the run record) is damaged: nothing of the file can be sent; the file is kept"
	}
	s := "projectops: ingest spool " + e.Path + ": line " + strconv.Itoa(e.Line) + " is damaged"
	if e.Lines > 1 {
		s += " (" + strconv.Itoa(e.Lines) + " damaged lines)"
	}
	return s + ": what it held cannot be read and is skipped; the file is kept"
}

// Is reports whether target is ErrSpoolDamaged.
func (e *SpoolDamageError) Is(target error) bool { return target == ErrSpoolDamaged }

// decodeRecord decodes one spool line, reporting false for a damaged one:
// not JSON, an unknown kind, or a chunk without its results array (a chunk
// whose kind or results were lost would otherwise vanish unnoticed).
func decodeRecord(line []byte) (*spoolRecord, bool) {
	var rec spoolRecord
	if json.Unmarshal(line, &rec) != nil {
		return nil, false
	}
	switch rec.Kind {
	case "run", "ack", "refused":
		return &rec, true
	case "chunk":
		var results []json.RawMessage
		return &rec, json.Unmarshal(rec.Results, &results) == nil
	}
	return nil, false
}

// eachLine calls fn with every intact record of the file, and damaged (when
// not nil) with the number, from 1, of every damaged line, which fn never
// sees. Blank lines are skipped; so is a last line without its newline: a
// torn write (its writer was killed while writing it), whose chunk was
// never sent either.
func eachLine(path string, fn func(*spoolRecord) error, damaged func(line int)) error {
	f, err := openOwn(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 256<<10)
	for n := 1; ; n++ {
		line, err := rd.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rec, ok := decodeRecord(line)
		if !ok {
			if len(bytes.TrimSpace(line)) > 0 && damaged != nil {
				damaged(n)
			}
			continue
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// spoolDamage reads the file through, returning its damage (nil when
// every line is intact).
func spoolDamage(path string) (*SpoolDamageError, error) {
	var d *SpoolDamageError
	err := eachLine(path, func(*spoolRecord) error { return nil }, func(n int) {
		if d == nil {
			d = &SpoolDamageError{Path: path, Line: n}
		}
		d.Lines++
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// markDelivered appends an ack for every chunk of the damaged file at path
// not acknowledged yet, once Resume has delivered them and finalized
// their run: kept for inspection, the file must not have a later Resume
// send them again (to a new run, the first being complete). Nothing
// already in the file is changed; a torn last line is ended first, so the
// acks stand on lines of their own (it then reads as one more damaged
// line).
func markDelivered(path string) error {
	var seqs []int
	if err := eachUnackedChunk(path, func(rec *spoolRecord, _ bool) error {
		seqs = append(seqs, rec.Seq)
		return nil
	}); err != nil {
		return err
	}
	if len(seqs) == 0 {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("projectops: ingest spool %s: marking it delivered: %w", path, err)
	}
	err = appendAcks(f, path, seqs)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("projectops: ingest spool %s: marking it delivered: %w", path, cerr)
	}
	return err
}

// appendAcks appends an ack for each of seqs to f, the spool file at path.
func appendAcks(f *os.File, path string, seqs []int) error {
	// The file opened must be the one read, not a link put in its place.
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if li, err := os.Lstat(path); err != nil || !os.SameFile(fi, li) || !fi.Mode().IsRegular() {
		return fmt.Errorf("projectops: ingest spool %s: changed while resumed; not marked delivered", path)
	}
	var b []byte
	if fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			b = append(b, '\n')
		}
	}
	for _, seq := range seqs {
		rec, err := json.Marshal(spoolRecord{Kind: "ack", Seq: seq})
		if err != nil {
			return err
		}
		b = append(append(b, rec...), '\n')
	}
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("projectops: ingest spool %s: marking it delivered: %w", path, err)
	}
	return nil
}
