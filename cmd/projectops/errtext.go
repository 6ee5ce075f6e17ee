package main

import "strings"

// errText is err's message for the one line the CLI prints, which already
// names the command: the SDK's own "projectops: " prefix is dropped, so a
// failure never reads "projectops report: projectops: ...".
func errText(err error) string {
	return strings.TrimPrefix(err.Error(), "projectops: ")
}
