package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	projectops "github.com/projectops/projectops-go"
)

// Exit codes: the table in the package doc and docs/cli.md.
const (
	exitOK    = 0
	exitGate  = 1 // a gate failed: run failed, snapshots differ, tool isError
	exitError = 2 // bad usage, configuration, or an API error
	// exitDamaged: report resume delivered all it could read but skipped
	// damaged spool lines. Not 2: nothing is to be fixed or retried, and a
	// CI job that must not pass over lost results unseen can tell it apart.
	exitDamaged = 3
)

// usageError is a bad invocation: it exits 2 with a pointer to --help.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// gateError is a gate that failed (exit 1). An empty message prints
// nothing more: the command's output already says what failed.
type gateError struct{ msg string }

func (e gateError) Error() string { return e.msg }

// damageError is report resume's delivery with damaged spool lines
// skipped (exit 3); each file is said on stderr before it.
type damageError struct{ msg string }

func (e damageError) Error() string { return e.msg }

// codeError passes a child's exit status through (report -- CMD).
type codeError struct{ code int }

func (e codeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// exit prints err once, naming the command, and maps it to the exit code.
func (a *app) exit(cmd *cobra.Command, err error) int {
	if err == nil {
		return exitOK
	}
	name := "projectops"
	if cmd != nil {
		name = cmd.CommandPath()
	}
	var gate gateError
	var child codeError
	var damage damageError
	switch {
	case errors.As(err, &child):
		return child.code
	case errors.As(err, &damage):
		fmt.Fprintf(a.stderr, "%s: %s\n", name, printableField(damage.msg))
		return exitDamaged
	case errors.As(err, &gate):
		if gate.msg != "" {
			fmt.Fprintf(a.stderr, "%s: %s\n", name, printableField(gate.msg))
		}
		return exitGate
	}
	msg := errText(err)
	var paste pasteError
	if errors.As(err, &paste) {
		// Its commands exact, to be pasted: pasteCommand has withheld
		// each that masking would change.
		msg = errText(errors.New(paste.head)) + paste.text
	}
	if errors.Is(err, context.Canceled) && a.ctx != nil && a.ctx.Err() != nil { // the user's interrupt
		msg = interruptedText(msg)
	}
	fmt.Fprintf(a.stderr, "%s: %s\n", name, printableField(msg)) // the service's message: see printableField
	var e *projectops.Error
	if errors.As(err, &e) && len(e.HostedModels) > 0 {
		// A model the service cannot run: say which hosted ones it can.
		fmt.Fprintf(a.stderr, "%s: valid hosted models: %s\n", name, printableField(strings.Join(e.HostedModels, ", ")))
	}
	if errors.Is(err, projectops.ErrConcurrentRunLimit) {
		// Not retried (it lifts when a run ends, not after a delay): say
		// what lifts it.
		fmt.Fprintf(a.stderr, "%s: wait for one of the organization's runs to end, or cancel one (projectops eval cancel RUN_ID), then run again\n", name)
	}
	var usage usageError
	if errors.As(err, &usage) || isCobraUsage(err) {
		fmt.Fprintf(a.stderr, "Run '%s --help' for usage.\n", name)
	}
	return exitError
}

// interruptedText says that the user's interrupt (which cancels the
// command's context) ended what msg describes, rather than the bare
// "context canceled" the request returns. The SDK's name of the call
// ("POST /projects/p/servers/s/tools") is dropped: the command line
// already says what was asked.
func interruptedText(msg string) string {
	const canceled = "context canceled"
	what := strings.TrimSuffix(msg, canceled)
	what = strings.TrimSuffix(what, ": ")
	if what == "" || sdkCallName.MatchString(what) {
		return "interrupted"
	}
	return "interrupted: " + what
}

// sdkCallName matches how the SDK names a call in its errors: a method and
// the API path.
var sdkCallName = regexp.MustCompile(`^[A-Z]+ /\S*$`)

// isCobraUsage recognizes the errors cobra itself returns for a bad
// invocation (an unknown command, a missing required flag), which are not typed.
func isCobraUsage(err error) bool {
	for _, p := range []string{"unknown command ", "required flag(s) ", "if any flags in the group "} {
		if strings.HasPrefix(err.Error(), p) {
			return true
		}
	}
	return false
}

// errText is err's message (with the API error's field, see withField)
// for the one line the CLI prints, which already
// names the command: the SDK's own "projectops: " prefix is dropped, so a
// failure never reads "projectops report: projectops: ...". Anything shaped
// like an API key is masked: cobra echoes a key typed as an argument or
// glued to a flag ("unknown shorthand flag: 'k' in -ksk_live_…"), and the
// key in PROJECTOPS_API_KEY is masked whatever its shape.
func errText(err error) string {
	// The prefix also starts every error the reporter wraps ("reporting
	// failed: projectops: POST ..."): dropped there too.
	s := strings.ReplaceAll(strings.TrimPrefix(withField(err), "projectops: "), ": projectops: ", ": ")
	return maskAPIKey(s)
}

// maskAPIKey masks the key in PROJECTOPS_API_KEY by value, in any
// spelling (keyMask), and any key-shaped token.
func maskAPIKey(s string) string {
	if k := os.Getenv("PROJECTOPS_API_KEY"); len(k) >= 8 {
		s = keyMask(k, "sk_***").Scrub(s)
	}
	return reKeyShaped.ReplaceAllString(s, "${1}sk_***")
}

// reKeyShaped matches API-key-shaped tokens. Real keys are "sk_" and 43
// base64url characters, so "sk_" and 40 or more key characters is a key
// wherever it stands, glued to a word too ("Bearersk_live_...", or
// "-ksk_live_..." as cobra echoes a key glued to a shorthand flag); fewer
// glued to a word would catch snake-case names such as
// task_completion_accuracy_eval. A shorter one, of 8 or more, is a key
// only at a boundary: at the start, after a character that is not an ASCII
// letter or digit ("_sk_live_...", "'sk_..."), or right after a backslash
// or percent escape, which may end in a letter or digit (\n, \u0022, \x09,
// %20), so that an id like run_task_20261128 or -disk_12345678, which holds
// "sk_" inside a word, is none. The underscore may itself be escaped
// (sk%5F..., sk\u005f...). Group 1 is the boundary, kept by the mask.
var reKeyShaped = regexp.MustCompile(`(^|[^A-Za-z0-9]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|\\x[0-9A-Fa-f]{2}|\\[0-7]{1,3}|\\[A-Za-z]|%[0-9A-Fa-f]{2})` + keyPrefix + `[A-Za-z0-9_\-]{8,}|` + keyPrefix + `[A-Za-z0-9_\-]{40,}`)

// keyPrefix is "sk_", its underscore as typed or escaped.
const keyPrefix = `sk(?:_|%5[Ff]|\\u005[Ff])`
