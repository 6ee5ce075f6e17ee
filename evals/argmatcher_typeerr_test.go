package evals_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A value of the wrong JSON type is reported against the public type, not
// the method-less copy the open objects decode through.
func TestArgMatcherTypeErrorNamesPublicType(t *testing.T) {
	for _, doc := range []string{`"x"`, `[1]`} {
		var m evals.ArgMatcher
		err := json.Unmarshal([]byte(doc), &m)
		if err == nil || strings.Contains(err.Error(), "argMatcherFields") {
			t.Errorf("%s: %v; want an error naming evals.ArgMatcher", doc, err)
		}
	}
	var p evals.RunParams
	err := json.Unmarshal([]byte(`{"tests":[{"steps":[{"assertion":{"args":"x"}}]}]}`), &p)
	if err == nil || strings.Contains(err.Error(), "argMatcherFields") {
		t.Errorf("RunParams: %v; want an error naming evals.ArgMatcher", err)
	}
}
