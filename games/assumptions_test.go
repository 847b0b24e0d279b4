package games

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestAssumptionsWrittenFromFormats: the reader writes its assumptions
// only from the formats of assumptions.go (the pages translate those):
// no note is given a literal format, every format is used, none twice.
func TestAssumptionsWrittenFromFormats(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	fs := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "assumptions.go" {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if strings.HasPrefix(n.Name, "Assumed") {
					used[n.Name] = true
				}
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name // note; text is another function
				case *ast.SelectorExpr:
					name = fn.Sel.Name // p.note, f.text
					if name == "text" {
						name = "note"
					}
				}
				if name == "note" && len(n.Args) > 0 {
					if _, lit := n.Args[0].(*ast.BasicLit); lit {
						t.Errorf("%s: %s given a literal format", fs.Position(n.Pos()), name)
					}
				}
			}
			return true
		})
	}
	af, err := parser.ParseFile(fs, "assumptions.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range af.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				for _, id := range s.(*ast.ValueSpec).Names {
					if !used[id.Name] {
						t.Errorf("%s is in no sentence the reader writes", id.Name)
					}
				}
			}
		}
	}
	seen := map[AssumptionFormat]bool{}
	for _, f := range AssumptionFormats() {
		if seen[f] {
			t.Errorf("%q listed twice", f)
		}
		seen[f] = true
	}
	if len(seen) != len(used) {
		t.Errorf("AssumptionFormats lists %d formats, the reader uses %d", len(seen), len(used))
	}
}
