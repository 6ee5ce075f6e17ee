//go:build !linux

package mcpconn

// awaitExit cannot wait for an exit without reaping here (no waitid in
// golang.org/x/sys/unix outside Linux): it reports false at once.
func awaitExit(int) bool { return false }
