package ingest

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// EnvSpoolDir sets the default spool directory (see ReporterOptions.SpoolDir).
const EnvSpoolDir = "PROJECTOPS_SPOOL_DIR"

// SpoolExt ends every spool file's name.
const SpoolExt = ".spool.jsonl"

// DefaultSpoolDir is where results wait when no directory is configured:
// $PROJECTOPS_SPOOL_DIR, else projectops-spool-<uid> under the temporary
// directory (one per user: a shared temporary directory is writable by
// all, and Resume sends what it finds).
func DefaultSpoolDir(getenv func(string) string) string {
	if d := getenv(EnvSpoolDir); d != "" {
		return d
	}
	name := "projectops-spool"
	if uid := os.Getuid(); uid >= 0 {
		name += "-" + strconv.Itoa(uid)
	}
	return filepath.Join(os.TempDir(), name)
}

// spoolRecord is one line of a spool file. The first line is a "run"
// record; then "chunk" records (results as sent, already redacted) and
// "ack" records once the service has stored a chunk. A chunk sent as a
// one-shot report is marked Report; a "refused" record follows it when the
// service answered that report with a refusal (so it stored nothing).
type spoolRecord struct {
	Kind    string          `json:"kind"` // run, chunk, ack, refused
	Version int             `json:"v,omitempty"`
	Project string          `json:"project,omitempty"`
	Run     *RunParams      `json:"run,omitempty"`
	Seq     int             `json:"seq,omitempty"`
	Report  bool            `json:"report,omitempty"`
	Results json.RawMessage `json:"results,omitempty"`
}

// spool is an append-only file of the chunks a reporter produced. Each
// record is written to the OS before the chunk is sent (flushed per chunk),
// so a killed process leaves every cut chunk behind; fsync is not used, as
// surviving a process kill, not a power loss, is the goal.
type spool struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	path string
	err  error // first write failure; the spool is then abandoned
}

// openSpool creates a new spool file in dir for the run.
// The run record goes through rd, as results do: its notes and host config
// can hold a key or an Authorization header.
func openSpool(dir, project string, run RunParams, rd redactor) (*spool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("projectops: ingest spool: %w", err)
	}
	if err := checkSpoolDir(dir); err != nil {
		return nil, err
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := safeName(run.ExternalRunID) + "." + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:]) + SpoolExt
	// Not O_APPEND: one writer writes a new file in order anyway, and on
	// Windows O_APPEND opens without GENERIC_WRITE, which LockFileEx needs:
	// the lock below would fail, leaving a live spool to any Resume.
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("projectops: ingest spool: %w", err)
	}
	// Locked while its writer lives (the OS releases it when the file is
	// closed, or the process ends however it ends): Resume leaves a live
	// reporter's spool alone. Nothing is written before the lock is held;
	// a Resume that looks at the fresh, empty file holds it for a moment.
	if err := lockFresh(f); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("projectops: ingest spool: %w", err)
	}
	s := &spool{f: f, w: bufio.NewWriterSize(f, 64<<10), path: f.Name()}
	run = run.withoutSecrets() // the spool is a plain file
	rec, err := json.Marshal(spoolRecord{Kind: "run", Version: 1, Project: project, Run: &run})
	if err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("projectops: ingest spool: %w", err)
	}
	s.mu.Lock()
	s.line(rd.apply(rec))
	s.mu.Unlock()
	if s.err != nil {
		// A file without its run record is no spool: Resume would refuse
		// it on every run.
		_ = s.close(true)
		return nil, s.err
	}
	return s, nil
}

// write appends one record; results, when given, is spliced in as the raw
// results array (it can be a megabyte: no re-encoding). It returns the
// spool's failure to the one call that met it first (later ones write
// nothing and return nil), so that it is reported once.
func (s *spool) write(rec spoolRecord, results []byte) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil
	}
	defer func() { err = s.err }()
	b, err := json.Marshal(rec)
	if err == nil && results != nil {
		b = b[:len(b)-1] // drop "}"
		_, err = s.w.Write(b)
		if err == nil {
			_, err = s.w.WriteString(`,"results":`)
		}
		if err == nil {
			_, err = s.w.Write(results)
		}
		if err == nil {
			_, err = s.w.WriteString("}\n")
		}
		if err == nil {
			err = s.w.Flush()
		}
	} else if err == nil {
		s.line(b)
		return
	}
	if err != nil {
		s.err = fmt.Errorf("projectops: ingest spool %s: %w", s.path, err)
	}
	return
}

// line appends b and a newline and flushes; call with s.mu held.
func (s *spool) line(b []byte) {
	if s.err != nil {
		return
	}
	_, err := s.w.Write(append(b, '\n'))
	if err == nil {
		err = s.w.Flush()
	}
	if err != nil {
		s.err = fmt.Errorf("projectops: ingest spool %s: %w", s.path, err)
	}
}

// close closes the file, removing it when remove is set (the run was
// finalized: nothing is left to resend), even after a failed write: kept,
// the file would have a later Resume send the run again.
func (s *spool) close(remove bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.w.Flush()
	// Unlocked before it is closed: a process forked in between holds a
	// copy of the descriptor until it execs, and with it the lock, so a
	// Resume right after would skip the file as a live reporter's.
	_ = unlockFile(s.f)
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if remove {
		return os.Remove(s.path)
	}
	return err
}

// safeName keeps an external run id usable as a file name.
func safeName(id string) string {
	id = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
	if len(id) > maxSafeName {
		id = id[:maxSafeName]
	}
	return id
}

// maxSafeName is the longest id safeName keeps whole.
const maxSafeName = 64

// lockFresh locks a spool file its writer just created, waiting out a
// Resume that holds the lock for the moment it takes to look at the file
// (on a loaded machine, longer: up to lockFreshWait). Unlocked, the file
// would pass for a dead writer's, sent and removed while it is written, so
// a lock still held then is an error. Where the platform has no lock,
// there is nothing to wait for.
func lockFresh(f *os.File) error {
	deadline := time.Now().Add(lockFreshWait)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		if err := tryLock(f); !errors.Is(err, errLocked) {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("a new spool file stayed locked by another process")
		}
		time.Sleep(pause)
	}
}

// lockFreshWait bounds lockFresh's wait.
const lockFreshWait = 10 * time.Second
