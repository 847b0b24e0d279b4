package games

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Score agreement on real records: counted games from servers and
// tournaments, as their files give them (no dead stones marked). Each
// record is counted under area rules and under territory rules, by GNU
// Go (loadsgf, final_score) and by this engine with its dead-stone
// proposal (JudgeWith, ProposeDead). Wherever GNU Go's count gives the
// recorded result under a rule, the proposal should give it too.
//
// The corpus is not part of the repository (it is large and not ours): the
// AI/ folder of the public dataset yenw/computer-go-dataset, DIR being the
// folder that holds AI/ (the cache's keys are paths under DIR):
//
//	nice go test ./games -run TestRealCorpusAgreement -v -real-corpus DIR \
//	    -real-corpus-gnugo-level 5 -real-corpus-limit 250 -timeout 5h
//
// GNU Go's counts are cached in the -real-corpus-cache file (by default
// testdata/realcorpus-gnugo.tsv, kept in the repository), so that a run can
// be stopped and resumed and the proposal measured again cheaply;
// -real-corpus-cached-only measures only what the cache holds, without
// starting GNU Go. The kept cache holds every record of the corpus under
// both rules (level 5), so a cached-only run measures all of it.

var (
	realCorpus       = flag.String("real-corpus", "", "directory of real game records to measure the dead-stone proposal on")
	realCorpusCache  = flag.String("real-corpus-cache", "testdata/realcorpus-gnugo.tsv", "file that caches GNU Go's final_score per record and rule")
	realCorpusCached = flag.Bool("real-corpus-cached-only", false, "measure only the records GNU Go's counts are cached for; GNU Go is not started")
	realCorpusLimit  = flag.Int("real-corpus-limit", 0, "measure at most this many records (a fair sample: the order is a hash of the names)")
	realCorpusReport = flag.Bool("real-corpus-report", false, "log every record where GNU Go gives the recorded result and the proposal does not")
	// Where GNU Go's count is not the recorded result it still says how
	// the end plays out: a larger sample of what the proposal misses.
	realCorpusReportAll = flag.Bool("real-corpus-report-gnugo", false, "log every record whose proposal's count is not GNU Go's")
	// GNU Go's final_score takes seconds to minutes on an unfinished
	// 19×19 position at its default level 10; level 5 (the cached counts)
	// reads less deeply.
	realCorpusLevel = flag.Int("real-corpus-gnugo-level", 5, "GNU Go's --level for final_score")
)

// realCase is one counted record of the corpus.
type realCase struct {
	key string // file#game
	rec *Record
}

func loadRealCorpus(t *testing.T, dir string) []realCase {
	var cases []realCase
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if ext != ".sgf" && ext != ".gib" && ext != ".ugf" && ext != ".ugi" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		recs, err := ReadRecords(data, ReadOptions{})
		if err != nil {
			return nil
		}
		for i, r := range recs {
			claimed, ok, err := ParseResult(r.Result)
			if err != nil || !ok || claimed.End != EndScore || claimed.Winner == Empty || r.End != EndScore || len(r.Dead) > 0 || r.Size != 19 {
				continue
			}
			if _, err := Replay(r); err != nil {
				continue
			}
			rel, _ := filepath.Rel(dir, p)
			cases = append(cases, realCase{key: fmt.Sprintf("%s#%d", rel, i+1), rec: r})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	hash := func(s string) uint64 { h := fnv.New64a(); h.Write([]byte(s)); return h.Sum64() }
	sort.Slice(cases, func(i, j int) bool { return hash(cases[i].key) < hash(cases[j].key) })
	return cases
}

// gnugoScores caches GNU Go's final_score: key TAB rule TAB score.
type gnugoScores struct {
	mu   sync.Mutex
	m    map[string]string
	file *os.File
}

func openScores(t *testing.T, path string) *gnugoScores {
	s := &gnugoScores{m: map[string]string{}}
	if path == "" {
		return s
	}
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "\t=\t"); ok {
				s.m[k] = v
			}
		}
		f.Close()
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	s.file = f
	t.Cleanup(func() { f.Close() })
	return s
}

func (s *gnugoScores) get(k string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}

func (s *gnugoScores) put(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
	if s.file != nil {
		fmt.Fprintf(s.file, "%s\t=\t%s\n", k, v)
	}
}

// realRules are the two rules every record is counted under.
var realRules = []struct {
	name  string
	rules Ruleset
	args  []string
}{{"area", Chinese(), []string{"--chinese-rules"}}, {"territory", Japanese(), []string{"--japanese-rules"}}}

func TestRealCorpusAgreement(t *testing.T) {
	if *realCorpus == "" {
		t.Skip("measures the proposal on real records only with -real-corpus DIR")
	}
	cases := loadRealCorpus(t, *realCorpus)
	if *realCorpusLimit > 0 && len(cases) > *realCorpusLimit {
		cases = cases[:*realCorpusLimit]
	}
	t.Logf("%d counted 19×19 records without dead stones", len(cases))
	scores := openScores(t, *realCorpusCache)
	tmp := t.TempDir()
	type tally struct {
		records, gnugoAgrees, proposal, bare int
		sameAsGnugo                          int // the proposal's count is GNU Go's, whatever the record says
		kinds                                map[string]int
	}
	results := make([]tally, len(realRules))
	var wg sync.WaitGroup
	for ri, rr := range realRules {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e *gtpEngine
			if !*realCorpusCached {
				e = startGnugo(t, append(rr.args, "--level", fmt.Sprint(*realCorpusLevel))...)
			}
			tl := &results[ri]
			tl.kinds = map[string]int{}
			for i, c := range cases {
				r := *c.rec
				r.Rules = rr.rules
				k := c.key + "\t" + rr.name + "\tlevel " + fmt.Sprint(*realCorpusLevel)
				gs, ok := scores.get(k)
				if !ok && e == nil {
					continue
				}
				if !ok {
					file := filepath.Join(tmp, fmt.Sprintf("%s-%d.sgf", rr.name, i))
					if err := os.WriteFile(file, r.SGF(), 0o644); err != nil {
						t.Error(err)
						return
					}
					rs, err := e.do("loadsgf "+file, "komi "+fmt.Sprint(r.Komi), "final_score")
					if err != nil || !rs[0].ok || !rs[2].ok {
						t.Logf("%s: GNU Go: %v %v", k, err, rs)
						continue
					}
					gs = rs[2].text
					scores.put(k, gs)
				}
				tl.records++
				asGnugo := r
				asGnugo.Result = gs
				if _, err := JudgeWith(&asGnugo, JudgeOptions{ProposeDead: true, Estimate: EstimateOptions{Seed: 1}}); err == nil {
					tl.sameAsGnugo++
				} else if *realCorpusReportAll {
					t.Logf("%s (%s): GNU Go %s (recorded %s); %v", c.key, rr.name, gs, r.Result, err)
				}
				claimed, _, _ := ParseResult(r.Result)
				g, _, err := ParseResult(gs)
				if err != nil || !claimed.agrees(g) {
					continue
				}
				tl.gnugoAgrees++
				if _, err := Judge(&r); err == nil {
					tl.bare++
				}
				v, err := JudgeWith(&r, JudgeOptions{ProposeDead: true, Estimate: EstimateOptions{Seed: 1}})
				if err == nil {
					tl.proposal++
					continue
				}
				kind := classifyMiss(&r, v, err)
				tl.kinds[kind]++
				if *realCorpusReport {
					b, _ := Replay(&r)
					est := EstimateDead(b.Board(), EstimateOptions{Seed: 1})
					t.Logf("%s (%s): recorded %s = GNU Go %s; %v [%s]\n%s", c.key, rr.name, r.Result, gs, err, kind, ownershipPicture(b.Board(), est))
				}
			}
		}()
	}
	wg.Wait()
	for ri, rr := range realRules {
		tl := results[ri]
		rate := 0.0
		if tl.gnugoAgrees > 0 {
			rate = 100 * float64(tl.proposal) / float64(tl.gnugoAgrees)
		}
		kinds := slices.Sorted(func(yield func(string) bool) {
			for k := range tl.kinds {
				if !yield(k) {
					return
				}
			}
		})
		var ks []string
		for _, k := range kinds {
			ks = append(ks, fmt.Sprintf("%s %d", k, tl.kinds[k]))
		}
		winner := tl.proposal
		for k, n := range tl.kinds {
			if k != "winner differs" && k != "error" {
				winner += n
			}
		}
		t.Logf("%s: %d records counted; GNU Go gives the recorded result in %d; the proposal gives it too in %d (%.1f%%; the same winner in %d), the bare count in %d; misses: %s; the proposal gives GNU Go's count in %d of %d",
			rr.name, tl.records, tl.gnugoAgrees, tl.proposal, rate, winner, tl.bare, strings.Join(ks, ", "), tl.sameAsGnugo, tl.records)
	}
}

// classifyMiss names why the proposal's count missed a result GNU Go
// found: the winner differs, or only the margin, and by how much.
func classifyMiss(r *Record, v Verdict, err error) string {
	rme, ok := err.(*ResultMismatchError)
	if !ok {
		return "error"
	}
	claimed, _, _ := ParseResult(rme.Claimed)
	computed, _, _ := ParseResult(rme.Computed)
	if claimed.Winner != computed.Winner {
		return "winner differs"
	}
	d := claimed.Margin - computed.Margin
	if d < 0 {
		d = -d
	}
	if d <= 2 {
		return "margin within 2 points"
	}
	return "margin off by more than 2"
}
