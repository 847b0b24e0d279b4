// Package rank_test holds the checks that keep the architecture honest: the
// import rules of docs/architecture.md and the doc.go every package must have.
package rank_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/weiqi-platform/rank"

// domains are the packages at the centre; their subpackages are adapters.
var domains = []string{"games", "ranks", "rating", "matchmaking", "players"}

// drivers maps an import prefix to the only places allowed to import it.
var drivers = map[string][]string{
	"github.com/gin-gonic/":         {"api", "cmd/"},
	"go.mongodb.org/mongo-driver":   {"*db", "cmd/", "internal/testsvc", "internal/mongox"},
	"github.com/redis/go-redis":     {"*redis", "*redisqueue", "*db", "jobs", "cmd/", "internal/testsvc"},
	"github.com/robfig/cron":        {"jobs", "cmd/"},
	"github.com/FerretDB/":          {"internal/embedded"},
	"github.com/alicebob/miniredis": {"internal/embedded"},
	"github.com/prometheus/":        {"internal/metrics", "cmd/"},
	module + "/internal/embedded":   {"cmd/", "internal/testsvc"},
	module + "/internal/testsvc":    {}, // test files only
	module + "/internal/mongox":     {"*db"},
	module + "/internal/gamerate":   {"cmd/"},
	module + "/internal/examports":  {"cmd/"},
	module + "/internal/mmports":    {"cmd/"},
}

type pkg struct {
	rel     string // path relative to the module, "" for the root
	imports []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		rel := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		pkgs = append(pkgs, pkg{rel: rel, imports: f[1:]})
	}
	return pkgs
}

// allowed reports whether package rel matches one of the patterns: an exact
// path, a prefix ending in "/", or "*suffix" for the last path element.
func allowed(rel string, patterns []string) bool {
	last := rel[strings.LastIndex(rel, "/")+1:]
	for _, p := range patterns {
		switch {
		case strings.HasSuffix(p, "/") && strings.HasPrefix(rel+"/", p):
			return true
		case strings.HasPrefix(p, "*") && strings.HasSuffix(last, p[1:]) && strings.Contains(rel, "/"):
			return true
		case rel == p:
			return true
		}
	}
	return false
}

func isStd(path string) bool {
	first := strings.SplitN(path, "/", 2)[0]
	return !strings.Contains(first, ".")
}

func TestImportRules(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, imp := range p.imports {
			for prefix, who := range drivers {
				if strings.HasPrefix(imp, prefix) && !allowed(p.rel, who) {
					t.Errorf("%s imports %s; only %v may", p.rel, imp, who)
				}
			}
			own := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
			ours := strings.HasPrefix(imp, module)
			switch {
			case p.rel == "games" || p.rel == "ranks":
				if !isStd(imp) {
					t.Errorf("%s is a pure core but imports %s", p.rel, imp)
				}
			case p.rel == "rating":
				if !isStd(imp) && own != "ranks" {
					t.Errorf("rating may import only the standard library and ranks, not %s", imp)
				}
			case p.rel == "games/charset":
				// The decoding tables the pure games reader calls
				// through its Decoder type: bytes in, UTF-8 out.
				if !isStd(imp) && !strings.HasPrefix(imp, "golang.org/x/text/") {
					t.Errorf("games/charset may import only the standard library and golang.org/x/text, not %s", imp)
				}
			}
			// Adapters (subpackages of a domain) never reach up into api or jobs.
			for _, d := range domains {
				if strings.HasPrefix(p.rel, d+"/") && ours && (own == "api" || strings.HasPrefix(own, "api/") || own == "jobs" || strings.HasPrefix(own, "jobs/")) {
					t.Errorf("adapter %s imports %s", p.rel, own)
				}
			}
			// Domain packages never import the edges.
			for _, d := range domains {
				if p.rel == d && ours && (own == "api" || own == "jobs" || strings.HasPrefix(own, "cmd")) {
					t.Errorf("domain %s imports %s", d, own)
				}
			}
		}
	}
}

func TestEveryPackageHasDocGo(t *testing.T) {
	for _, p := range listPackages(t) {
		if p.rel == "" || strings.HasPrefix(p.rel, "cmd/") && !strings.Contains(strings.TrimPrefix(p.rel, "cmd/"), "/") {
			continue // the root holds only this test; commands document themselves in main.go
		}
		if _, err := os.Stat(filepath.Join(p.rel, "doc.go")); err != nil {
			t.Errorf("package %s has no doc.go saying what it owns and must not import", p.rel)
		}
	}
}
