package shared_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/shared"
)

// A page prints in Go syntax under its own type's name, and an empty page
// still logs its items (slog drops an empty group, key and all).
func TestPagePrintsAndLogsWhole(t *testing.T) {
	t.Parallel()
	p := shared.Page[int]{Items: []int{1, 2}, NextCursor: "c"}
	if got, want := fmt.Sprintf("%#v", p), `shared.Page[int]{Items:[]int{1, 2}, NextCursor:"c"}`; got != want {
		t.Errorf("%%#v = %s, want %s", got, want)
	}
	if got := fmt.Sprintf("%v %+v", p, p); got != "{[1 2] c} {Items:[1 2] NextCursor:c}" {
		t.Errorf("%%v %%+v = %s", got)
	}
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("m", "page", shared.Page[int]{NextCursor: "c"})
	if !strings.Contains(b.String(), `"page":{"items":[],"nextCursor":"c"}`) {
		t.Errorf("empty page logged as %s", b.String())
	}
}
