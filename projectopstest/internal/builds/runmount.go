package builds

import "strings"

// mountsFrom reports whether a RUN's flags hold a --mount with a from=
// field, which mounts another image or stage. It reads the flags as
// Docker does: the words before the first that does not start with "--"
// (or the word "--"); it drops their quotes and escapes before reading the
// mount's comma-separated key=value fields, which may refuse an odd mount
// Docker would read otherwise, never miss one.
func mountsFrom(args string) bool {
	for _, w := range shellWords(args) {
		if w == "--" || !strings.HasPrefix(w, "--") {
			return false
		}
		w = strings.ToLower(strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(w))
		value, ok := strings.CutPrefix(w, "--mount=")
		if !ok {
			continue
		}
		for _, field := range strings.Split(value, ",") {
			if strings.HasPrefix(strings.TrimSpace(field), "from=") {
				return true
			}
		}
	}
	return false
}
