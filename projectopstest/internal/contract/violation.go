package contract

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Violation is a body that breaks the contract: the double answers it with
// 400 VALIDATION_ERROR and details.field.
type Violation struct {
	// Field is the offending field as a path ("tests[0].steps[1].type"),
	// or "" when the body as a whole is wrong.
	Field string
	// Message says what is wrong, for a person.
	Message string
}

// Error implements error.
func (v *Violation) Error() string {
	if v.Field == "" {
		return v.Message
	}
	return v.Field + ": " + v.Message
}

var printer = message.NewPrinter(language.English)

// violation turns a schema error into a Violation at its deepest cause:
// the most specific thing to tell a caller.
func violation(err error) error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	leaf := deepest(ve)
	loc := slicesClone(leaf.InstanceLocation)
	switch k := leaf.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		if len(k.Properties) > 0 {
			loc = append(loc, k.Properties[0])
			return &Violation{Field: fieldPath(loc), Message: "Unknown field " + strconv.Quote(k.Properties[0])}
		}
	case *kind.Type:
		if len(k.Want) > 0 {
			return &Violation{Field: fieldPath(loc), Message: "Must be " + article(strings.Join(k.Want, " or "))}
		}
	case *kind.MinProperties:
		return &Violation{Field: fieldPath(loc), Message: "Must not be empty"}
	case *kind.MinItems:
		return &Violation{Field: fieldPath(loc), Message: fmt.Sprintf("Must have at least %d item(s)", k.Want)}
	case *kind.MaxItems:
		return &Violation{Field: fieldPath(loc), Message: fmt.Sprintf("Must have at most %d items", k.Want)}
	case *kind.MinLength:
		return &Violation{Field: fieldPath(loc), Message: fmt.Sprintf("Must be at least %d character(s) long", k.Want)}
	case *kind.MaxLength:
		return &Violation{Field: fieldPath(loc), Message: fmt.Sprintf("Must be at most %d characters long", k.Want)}
	case *kind.Required:
		if len(k.Missing) > 0 {
			loc = append(loc, k.Missing[0])
			return &Violation{Field: fieldPath(loc), Message: "Missing required field " + strconv.Quote(k.Missing[0])}
		}
	}
	return &Violation{Field: fieldPath(loc), Message: capitalize(leaf.ErrorKind.LocalizedString(printer))}
}

// deepest follows the cause with the longest instance location, so a
// failed anyOf reports the branch that got furthest.
//
// The validator's causes come in no fixed order (properties are checked
// from a map), so ties between equally deep causes go to the smallest
// location: the same body always names the same field.
func deepest(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	best := e
	for _, c := range e.Causes {
		d := deepest(c)
		switch {
		case best == e, len(d.InstanceLocation) > len(best.InstanceLocation):
			best = d
		case len(d.InstanceLocation) == len(best.InstanceLocation) &&
			strings.Join(d.InstanceLocation, "\x00") < strings.Join(best.InstanceLocation, "\x00"):
			best = d
		}
	}
	return best
}

// fieldPath renders an instance location as tests[0].steps[1].type.
func fieldPath(loc []string) string {
	var sb strings.Builder
	for _, t := range loc {
		if _, err := strconv.Atoi(t); err == nil {
			sb.WriteString("[" + t + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(t)
	}
	return sb.String()
}

// article prefixes a JSON type name with "a" or "an".
func article(s string) string {
	if strings.IndexAny(s[:1], "aeiou") == 0 {
		return "an " + s
	}
	return "a " + s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }
