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

// DamagedExt ends the name of a damaged spool file Resume has moved aside
// (its name, then DamagedExt): out of every later Resume's way, kept with
// its widget files for inspection until it is removed.
const DamagedExt = ".damaged"

// SpoolDamageError reports a spool file with lines Resume could not read (a
// disk error, a bit flip, an edit by hand). It names the file and the
// lines, never what they hold: a spooled result can hold user data. Resume
// skips the damaged lines only and delivers the rest of the file with its
// run. Once the run is finalized the file is moved aside (MovedTo), so a
// later Resume neither sends nor reports it again. A damaged first line
// (the run record) leaves nothing of the file readable: RunRecord is set,
// nothing of it is sent, and the file is moved aside at once.
type SpoolDamageError struct {
	// Path is the spool file, as Resume found it.
	Path string
	// MovedTo is where the file was moved aside to (Path+DamagedExt), empty
	// while it stays at Path: its run was not delivered, and the next
	// Resume reads it again.
	MovedTo string
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
	where := "the file is kept"
	if e.MovedTo != "" {
		where = "the file is kept, moved aside to " + e.MovedTo
	}
	if e.RunRecord {
		return "projectops: ingest spool " + e.Path + ": line 1 (the run record) is damaged: nothing of the file can be sent; " + where
	}
	s := "projectops: ingest spool " + e.Path + ": line " + strconv.Itoa(e.Line) + " is damaged"
	if e.Lines > 1 {
		s += " (" + strconv.Itoa(e.Lines) + " damaged lines)"
	}
	return s + ": what it held cannot be read and is skipped; " + where
}

// Is reports whether target is ErrSpoolDamaged.
func (e *SpoolDamageError) Is(target error) bool { return target == ErrSpoolDamaged }

// moveAside renames the damaged file out of the spool glob, recording
// where in d: a rename is atomic, so a crash leaves the file either where
// a later Resume reads it (all of it acknowledged: nothing is sent again)
// or aside.
func moveAside(d *SpoolDamageError) error {
	to := d.Path + DamagedExt
	if err := os.Rename(d.Path, to); err != nil {
		return fmt.Errorf("projectops: ingest spool %s: moving the damaged file aside: %w", d.Path, err)
	}
	d.MovedTo = to
	return nil
}

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
// sees. Blank lines are skipped. A last line without its newline is read
// when it is a whole record (a short write lost the newline only), and
// skipped otherwise: a torn write (its writer was killed while writing
// it), whose chunk was never sent either. appendAcks keeps both readings:
// it ends a whole last record with its newline, and cuts a torn one off
// (ended, it would read as a damaged line), so acknowledging neither
// revives a torn line nor makes it damage.
func eachLine(path string, fn func(*spoolRecord) error, damaged func(line int)) error {
	f, err := openOwn(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 256<<10)
	for n := 1; ; n++ {
		line, err := rd.ReadBytes('\n')
		last := errors.Is(err, io.EOF)
		if err != nil && !last {
			return err
		}
		rec, ok := decodeRecord(line)
		if last && !ok {
			return nil // torn, or no last line at all
		}
		if !ok {
			if len(bytes.TrimSpace(line)) > 0 && damaged != nil {
				damaged(n)
			}
			continue
		}
		if err := fn(rec); err != nil {
			return err
		}
		if last {
			return nil
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

// ackAll appends an ack for every chunk of the spool file at path not
// acknowledged yet, once Resume has delivered them and before it finalizes
// their run: should Resume stop before removing (or moving aside) the
// file, the next one finds nothing to send again, rather than a complete
// run with unacknowledged results (which go to a new run). No record
// already in the file is changed (see appendAcks for its last line).
// Call it under Resume's lock of the directory, on a file spoolState found
// no writer of: it is the file's only writer then.
func ackAll(path string) error {
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
	// Not O_APPEND: appendAcks may cut a torn last line before it writes,
	// and on Windows O_APPEND opens without the write access cutting needs.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("projectops: ingest spool %s: acknowledging it: %w", path, err)
	}
	err = appendAcks(f, path, seqs)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("projectops: ingest spool %s: acknowledging it: %w", path, cerr)
	}
	return err
}

// appendAcks appends an ack for each of seqs to f, the spool file at path.
// A last line without its newline is ended first when it is a whole record
// (eachLine reads it), and cut off when it is torn: eachLine skips it as
// the last line, but followed by the acks it would read as a damaged line,
// and the next Resume would report an intact file as damaged and move it
// aside. Its chunk was never sent, and it is never read.
func appendAcks(f *os.File, path string, seqs []int) error {
	// The file opened must be the one read, not a link put in its place.
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if li, err := os.Lstat(path); err != nil || !os.SameFile(fi, li) || !fi.Mode().IsRegular() {
		return fmt.Errorf("projectops: ingest spool %s: changed while resumed; not acknowledged", path)
	}
	// A writer never reopens its file, so one found gone stays gone; the
	// lock, held while the file changes, makes sure of it before a line
	// is cut.
	switch err := tryLock(f); {
	case errors.Is(err, errLocked):
		return fmt.Errorf("projectops: ingest spool %s: written by a live reporter; not acknowledged", path)
	case err != nil:
		return fmt.Errorf("projectops: ingest spool %s: acknowledging it: %w", path, err)
	}
	defer func() { _ = unlockFile(f) }()
	// The size again, now under the lock: the one read before it could
	// predate a record completed in between.
	if fi, err = f.Stat(); err != nil {
		return fmt.Errorf("projectops: ingest spool %s: acknowledging it: %w", path, err)
	}
	end, whole, err := lastLine(f, fi.Size())
	if err != nil {
		return fmt.Errorf("projectops: ingest spool %s: acknowledging it: %w", path, err)
	}
	var b []byte
	switch {
	case end == fi.Size():
	case whole:
		b, end = append(b, '\n'), fi.Size()
	default:
		if err := f.Truncate(end); err != nil {
			return fmt.Errorf("projectops: ingest spool %s: acknowledging it: %w", path, err)
		}
	}
	for _, seq := range seqs {
		rec, err := json.Marshal(spoolRecord{Kind: "ack", Seq: seq})
		if err != nil {
			return err
		}
		b = append(append(b, rec...), '\n')
	}
	if _, err := f.WriteAt(b, end); err != nil {
		return fmt.Errorf("projectops: ingest spool %s: acknowledging it: %w", path, err)
	}
	return nil
}

// lastLine finds where the last line of f, size bytes long, starts when it
// has no newline (size when it has, or f is empty), and whether that line
// is a whole record, as eachLine reads it.
func lastLine(f *os.File, size int64) (start int64, whole bool, err error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; end = start {
		start = max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && n < int(end-start) {
			return 0, false, err
		}
		i := bytes.LastIndexByte(buf[:end-start], '\n')
		if end == size && i == int(end-start)-1 {
			return size, true, nil // ended: nothing to mend
		}
		if i >= 0 {
			start += int64(i) + 1
			break
		}
	}
	line, err := io.ReadAll(io.NewSectionReader(f, start, size-start))
	if err != nil {
		return 0, false, err
	}
	_, whole = decodeRecord(line)
	return start, whole, nil
}
