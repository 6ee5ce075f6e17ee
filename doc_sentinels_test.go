package projectops_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A doc comment that names an error sentinel bare (ErrX, not pkg.ErrX)
// promises that its own package declares it: a user who writes
// errors.Is(err, evals.ErrTraceNotAvailable) from such a doc must not get
// a compile error. The sentinels live in the root package and in shared.
func TestDocSentinelsExist(t *testing.T) {
	bare := regexp.MustCompile(`(?:^|[^.\w])(Err[A-Z]\w*)`)
	for _, dir := range []string{".", "catalog", "environments", "evals", "hosts", "ingest", "option", "servers", "shared", "tunnels"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		declared := map[string]bool{}
		var docs []string
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						declared[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								declared[n.Name] = true
							}
						case *ast.TypeSpec:
							declared[sp.Name.Name] = true
						}
					}
				}
			}
			for _, cg := range f.Comments {
				docs = append(docs, cg.Text())
			}
		}
		for _, d := range docs {
			for _, m := range bare.FindAllStringSubmatch(d, -1) {
				if !declared[m[1]] {
					t.Errorf("a doc comment in %s names %s, which that package does not declare", dir, m[1])
				}
			}
		}
	}
}
