// Package proctest tells, for tests, whether processes still run: a
// zombie, or a process with SIGKILL pending, is as good as gone. It reads
// /proc where there is one (Linux) and is built on unix only. It is
// imported by _test files only.
package proctest
