// Package rank_test holds the checks that keep the architecture honest: the
// import rules of docs/architecture.md, for product code and for tests, and
// the doc.go every package must have.
package rank_test

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/weiqi-platform/rank"

// domains are the packages at the centre; their subpackages are adapters
// (…db, …redis, …queue) and contract suites (…test).
var domains = []string{"games", "ranks", "rating", "integrity", "players", "intake", "exams", "matchmaking", "reviews", "schools"}

// pure are the cores that import nothing of this module but the cores
// listed (rating may import ranks; integrity ranks and rating).
var pure = map[string][]string{"games": nil, "ranks": nil, "rating": {"ranks"}, "integrity": {"ranks", "rating"}}

// drivers maps an import prefix to the only places allowed to import it
// (in product code and in tests alike).
var drivers = map[string][]string{
	"github.com/gin-gonic/":         {"api", "web", "cmd/"},
	"go.mongodb.org/mongo-driver":   {"*db", "cmd/", "internal/app", "internal/apptest", "internal/testsvc", "internal/mongox"},
	"github.com/redis/go-redis":     {"*redis", "*redisqueue", "cmd/", "internal/app", "internal/apptest", "internal/testsvc", "internal/redisx"},
	"github.com/robfig/cron":        {"jobs", "cmd/"},
	"github.com/FerretDB/":          {"internal/embedded"},
	"github.com/alicebob/miniredis": {"internal/embedded"},
	"github.com/prometheus/":        {"internal/metrics", "cmd/"},
	module + "/internal/embedded":   {"cmd/", "internal/testsvc"},
	module + "/internal/mongox":     {"*db", "internal/app"}, // app: the one write lane of the embedded store
	module + "/internal/redisx":     {"*redis", "*redisqueue"},
	module + "/internal/app":        {"cmd/", "internal/apptest"},
	module + "/cmd/internal/wire":   {"cmd/"},
}

// testOnly are the test-support packages: only test files import them.
var testOnly = []string{"internal/testsvc", "internal/apptest"}

type pkg struct {
	rel         string // path relative to the module, "" for the root
	imports     []string
	testImports []string // of the _test.go files, in and outside the package
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath                string
			Imports                   []string
			TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		pkgs = append(pkgs, pkg{rel: rel, imports: p.Imports, testImports: append(p.TestImports, p.XTestImports...)})
	}
	return pkgs
}

// allowed reports whether package rel matches one of the patterns: an exact
// path, a prefix ending in "/", or "*suffix" for the last path element of
// a subpackage.
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

// own is the module-relative path of an import of this module ("" and
// false for others).
func own(imp string) (string, bool) {
	if imp != module && !strings.HasPrefix(imp, module+"/") {
		return "", false
	}
	return strings.TrimPrefix(strings.TrimPrefix(imp, module), "/"), true
}

// domainOf is the domain a package belongs to ("" for none).
func domainOf(rel string) string {
	for _, d := range domains {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return d
		}
	}
	return ""
}

// isAdapter: a domain's (or jobs') subpackage that talks to a driver
// (…db, …redis, …queue); games/charset is a pure helper, not one.
func isAdapter(rel string) bool {
	d := domainOf(rel)
	if strings.HasPrefix(rel, "jobs/") {
		d = "jobs"
	}
	last := rel[strings.LastIndex(rel, "/")+1:]
	return d != "" && rel != d && (strings.HasSuffix(last, "db") || strings.HasSuffix(last, "redis") || strings.HasSuffix(last, "queue"))
}

func TestImportRules(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, imp := range p.imports {
			checkDriver(t, p.rel, imp)
			rel, ours := own(imp)
			if want, ok := pure[p.rel]; ok && !isStd(imp) && !(ours && slices.Contains(want, rel)) {
				t.Errorf("%s is a pure core but imports %s", p.rel, imp)
			}
			// The decoding tables the pure games reader calls through its
			// Decoder type: bytes in, UTF-8 out.
			if p.rel == "games/charset" && !isStd(imp) && !strings.HasPrefix(imp, "golang.org/x/text/") {
				t.Errorf("games/charset may import only the standard library and golang.org/x/text, not %s", imp)
			}
			if !ours {
				continue
			}
			if slices.Contains(testOnly, rel) && !slices.Contains(testOnly, p.rel) {
				t.Errorf("%s imports the test-support package %s outside its tests", p.rel, rel)
			}
			if strings.HasSuffix(rel, "test") && domainOf(rel) != "" && !slices.Contains(testOnly, p.rel) {
				t.Errorf("%s imports the contract suite %s outside its tests", p.rel, rel)
			}
			edge := rel == "api" || strings.HasPrefix(rel, "api/") || rel == "web" || strings.HasPrefix(rel, "web/") || rel == "jobs" || strings.HasPrefix(rel, "jobs/") || strings.HasPrefix(rel, "cmd")
			if d := domainOf(p.rel); d != "" && edge {
				t.Errorf("domain package %s imports the edge %s", p.rel, rel)
			}
			if d := domainOf(p.rel); d != "" && isAdapter(rel) && domainOf(rel) != d {
				t.Errorf("%s imports another domain's adapter %s", p.rel, rel)
			}
		}
	}
}

// TestTestImportRules: a test imports its own package, its own package's
// adapters and contract suite, other domains' packages and contract
// suites (their in-memory stores), and the test support (testsvc,
// apptest, app); never another domain's adapter or a driver. The
// commands, the wiring and the test support see everything.
func TestTestImportRules(t *testing.T) {
	for _, p := range listPackages(t) {
		// The commands and the infrastructure (the wiring, the embedded
		// stores, what the adapters share, the test support) are tested
		// with the drivers they are made of; an adapter with its own.
		if strings.HasPrefix(p.rel, "cmd/") || strings.HasPrefix(p.rel, "internal/") || isAdapter(p.rel) {
			continue
		}
		for _, imp := range p.testImports {
			for _, d := range testDrivers {
				if strings.HasPrefix(imp, d) {
					t.Errorf("a test of %s imports the driver %s; use internal/testsvc or internal/apptest", p.rel, imp)
				}
			}
			rel, ours := own(imp)
			if !ours || !isAdapter(rel) {
				continue
			}
			if d := domainOf(p.rel); d == "" || domainOf(rel) != d {
				t.Errorf("a test of %s imports the adapter %s of another domain; use its contract suite's in-memory store, internal/apptest or internal/testsvc", p.rel, rel)
			}
		}
	}
}

// testDrivers are the drivers a domain's, api's or jobs' tests never
// import.
var testDrivers = []string{"go.mongodb.org/mongo-driver", "github.com/redis/go-redis", "github.com/FerretDB/", "github.com/alicebob/miniredis"}

func checkDriver(t *testing.T, rel, imp string) {
	t.Helper()
	for prefix, who := range drivers {
		if strings.HasPrefix(imp, prefix) && !allowed(rel, who) {
			t.Errorf("%s imports %s; only %v may", rel, imp, who)
		}
	}
}

func TestEveryPackageHasDocGo(t *testing.T) {
	for _, p := range listPackages(t) {
		if p.rel == "" {
			continue // the root holds only this test
		}
		if _, err := os.Stat(filepath.Join(p.rel, "doc.go")); err != nil {
			t.Errorf("package %s has no doc.go saying what it owns and must not import", p.rel)
		}
	}
}
