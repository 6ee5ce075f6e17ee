// Package proctest tells, for tests, whether processes still run: a
// zombie, or a process with SIGKILL pending, is as good as gone. It reads
// /proc where there is one (Linux), built on unix only; and ServeStubborn
// makes a test binary a stdio MCP server stuck in its shutdown. It is
// imported by _test files only.
package proctest
