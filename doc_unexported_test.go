package projectops_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docWireNames are JSON member names a doc may quote that happen to equal
// an unexported Go name of the package.
var docWireNames = map[string]bool{"logPreview": true, "passCriteria": true, "failOnToolError": true}

// go doc shows a public package's exported names only: a doc comment, or a
// constant's or variable's rendered value, that names an unexported
// identifier of the package points the reader at something they cannot
// see. Every public package (all but internal/, cmd/ and examples/) is
// scanned as go doc renders it.
func TestGoDocNamesNoUnexportedIdentifiers(t *testing.T) {
	camel := regexp.MustCompile(`\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b`)
	dirs := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path == ".":
			case name == "internal" || name == "testdata" || name == "cmd" || name == "examples",
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"):
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found %d public packages, want the SDK's ten or more", len(dirs))
	}
	for dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, f)
		}
		unexported := map[string]bool{} // the package-level names go doc hides
		for _, f := range parsed {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && !d.Name.IsExported() {
						unexported[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								unexported[s.Name.Name] = true
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if !n.IsExported() && n.Name != "_" {
									unexported[n.Name] = true
								}
							}
						}
					}
				}
			}
		}
		p, err := doc.NewFromFiles(fset, parsed, "github.com/projectops/projectops-go/"+filepath.ToSlash(dir))
		if err != nil {
			t.Fatal(err)
		}
		check := func(where, text string) {
			for _, w := range camel.FindAllString(text, -1) {
				if unexported[w] && !docWireNames[w] {
					t.Errorf("%s: go doc of %s names unexported %q", dir, where, w)
				}
			}
		}
		values := func(vs []*doc.Value) {
			for _, v := range vs {
				check(strings.Join(v.Names, ", "), v.Doc)
				for _, s := range v.Decl.Specs {
					vs := s.(*ast.ValueSpec)
					if !ast.IsExported(vs.Names[0].Name) {
						continue // go doc leaves an unexported spec out of a group
					}
					for _, e := range vs.Values {
						ast.Inspect(e, func(n ast.Node) bool {
							if id, ok := n.(*ast.Ident); ok && unexported[id.Name] {
								t.Errorf("%s: go doc renders %s's value with unexported %q", dir, vs.Names[0].Name, id.Name)
							}
							return true
						})
					}
				}
			}
		}
		check("the package", p.Doc)
		values(p.Consts)
		values(p.Vars)
		for _, f := range p.Funcs {
			check(f.Name, f.Doc)
		}
		for _, ty := range p.Types {
			check(ty.Name, ty.Doc)
			values(ty.Consts)
			values(ty.Vars)
			for _, f := range ty.Funcs {
				check(f.Name, f.Doc)
			}
			for _, f := range ty.Methods {
				check(ty.Name+"."+f.Name, f.Doc)
			}
		}
	}
}
