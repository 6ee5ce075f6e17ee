package mcpconn

import (
	"os"
	"runtime"
)

// stdioBaseEnv names the variables of the double's own environment a stdio
// server inherits: enough to find its command and a home for caches. Every
// other variable of the serve process (API keys, cloud credentials, tokens)
// stays out of reach of the server, and so of any member who can call its
// tools.
var stdioBaseEnv = func() []string {
	if runtime.GOOS == "windows" {
		return []string{"PATH", "HOME", "SystemRoot", "USERPROFILE", "TEMP", "TMP"}
	}
	return []string{"PATH", "HOME"}
}()

// stdioEnviron is a stdio server's environment: the minimal base, then the
// server spec's own "NAME=value" entries (which win over the base).
func stdioEnviron(spec []string) []string {
	env := make([]string, 0, len(stdioBaseEnv)+len(spec))
	for _, k := range stdioBaseEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, spec...)
}
