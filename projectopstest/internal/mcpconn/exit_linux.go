package mcpconn

import (
	"errors"

	"golang.org/x/sys/unix"
)

// awaitExit waits for pid, a child, to exit without reaping it
// (WNOWAIT): it stays a zombie, holding its pid and group id, until
// exec.Cmd.Wait reaps it. It reports false when that wait failed.
func awaitExit(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return err == nil
		}
	}
}
