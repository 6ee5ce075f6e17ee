package ingest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// tbIdentity is what a TBRecorder knows of where it runs, read once when
// it is made: go test starts a package's binary in the package's
// directory, before any test can t.Chdir away from it.
type tbIdentity struct {
	pkg        string // the test package's import path, or ""
	dir        string // the package directory the binary started in
	invocation string // the go test invocation (see goTestInvocation)
	// nonce sets the recorder's row ids apart from any other process's:
	// two invocations that share a run (binaries started by hand) keep
	// both their verdicts.
	nonce string
}

func currentTBIdentity() tbIdentity {
	var r [8]byte
	_, _ = rand.Read(r[:])
	id := tbIdentity{pkg: testPackage(), nonce: hex.EncodeToString(r[:])}
	id.dir, _ = os.Getwd()
	if exe, err := os.Executable(); err == nil {
		id.invocation = goTestInvocation(exe)
	}
	if id.invocation == "" {
		// go test -o runs its binary from the go command too; binaries a
		// shell starts share its pid until a resume.
		id.invocation = "ppid-" + strconv.Itoa(os.Getppid())
	}
	return id
}

// testPackage is the import path of the package a test binary tests: go
// test names the binary's main package after it ("example.com/m/pkg.test").
func testPackage() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	p, ok := strings.CutSuffix(bi.Path, ".test")
	if !ok {
		return ""
	}
	return p
}

// goTestInvocation names the go test invocation that runs exe: the go
// command builds every package's test binary of one invocation under its
// own work directory ($WORK/b001/pkg.test, $WORK a fresh go-build*), so
// two invocations never share it. "" for a binary elsewhere (go test -o,
// -c and run by hand).
func goTestInvocation(exe string) string {
	work := filepath.Base(filepath.Dir(filepath.Dir(exe)))
	if !strings.HasPrefix(work, "go-build") {
		return ""
	}
	return work
}

// runIDPath is the file that holds the run id shared by the recorders of
// one invocation that report into one suite (a run belongs to one suite).
func runIDPath(dir, invocation, suite string) string {
	sum := sha256.Sum256([]byte(invocation + "\x00" + suite))
	return filepath.Join(dir, RunIDFile+"."+hex.EncodeToString(sum[:8]))
}
