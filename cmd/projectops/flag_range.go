package main

import (
	"errors"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// flagRange says a number flag's value is out of range where pflag says
// only that it must be a number (its words for any parse error: a whole
// number too large is not "not an integer"). Durations keep pflag's words
// ("must be a duration like ..."), which say what to write.
func flagRange(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) || iv.GetFlag() == nil {
		return err
	}
	v, kind := iv.GetValue(), ""
	switch typ := iv.GetFlag().Value.Type(); {
	case strings.HasPrefix(typ, "int"):
		_, perr := strconv.ParseInt(v, 0, 64)
		kind = rangeKind(perr, "a whole number")
	case strings.HasPrefix(typ, "uint"):
		_, perr := strconv.ParseUint(v, 0, 64)
		kind = rangeKind(perr, "a whole number")
	case strings.HasPrefix(typ, "float"):
		_, perr := strconv.ParseFloat(v, 64)
		kind = rangeKind(perr, "a number")
	}
	if kind == "" {
		return err
	}
	cause := errors.Unwrap(iv)
	if cause == nil {
		return err
	}
	return errors.New(strings.Replace(err.Error(), ": "+cause.Error(), ": out of range for "+kind, 1))
}

// rangeKind is kind when perr is strconv's out-of-range error.
func rangeKind(perr error, kind string) string {
	if errors.Is(perr, strconv.ErrRange) {
		return kind
	}
	return ""
}

// checkLimit refuses, as bad usage, a --limit outside the range its help
// gives: 0 (which means zero, e.g. "all") up to most, or with no upper
// bound when most is 0. Checked before any request, so an out-of-range
// value is not said as the service's refusal, naming no flag.
func checkLimit(n, most int, zero string) error {
	switch {
	case most > 0 && (n < 0 || n > most):
		return usagef("--limit %d: must be 0 (%s) to %d", n, zero, most)
	case n < 0:
		return usagef("--limit %d: must be 0 (%s) or more", n, zero)
	}
	return nil
}
