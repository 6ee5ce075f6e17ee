package projectopstest_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// TestSeedDocListsEveryArray keeps docs/double.md's seed file table whole:
// every array LoadSeed accepts has a row.
func TestSeedDocListsEveryArray(t *testing.T) {
	doc, err := os.ReadFile("../docs/double.md")
	if err != nil {
		t.Fatal(err)
	}
	st := reflect.TypeFor[projectopstest.Seed]()
	for i := range st.NumField() {
		name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ",")
		if !strings.Contains(string(doc), "\n| `"+name+"` |") {
			t.Errorf("seed array %q is missing from docs/double.md's seed file table", name)
		}
	}
}
