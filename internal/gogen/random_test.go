package gogen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	g "github.com/interderive/interderive/gradual"
	gradualcalc "github.com/interderive/interderive/internal/calculi/gradual"
	rulescalc "github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/redex"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// TestLockstepRandom runs well-typed programs drawn by the rule file's own typing
// judgment (sem's typed generator: shadowing of binders, closures passed and
// returned, every rule the types allow) on every stage of the generated package, in
// lockstep with the in-process stages: the corpus checks the programs someone
// wrote, this the ones nobody thought of. A disagreement names the draw. Runs stop
// after 2,000 contractions (a draw may loop, and the reduction semantics's steps
// grow with the term).
func TestLockstepRandom(t *testing.T) {
	draws := 400
	if testing.Short() {
		draws = 60
	}
	for _, file := range []string{"testdata/rules/cbv.sem", "testdata/rules/stlc.sem"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			l := loadRules(t, file)
			gen, err := l.NewTypedGenerator(sem.GenOptions{MaxDepth: 5})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(25, 7))
			var progs []program
			seen := map[string]bool{}
			for len(progs) < draws {
				p, _, err := gen.GenerateTyped(r)
				if errors.Is(err, sem.ErrNoDerivation) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				s := sem.Format(p)
				if seen[s] {
					continue
				}
				seen[s] = true
				progs = append(progs, program{fmt.Sprintf("draw %d", len(progs)), s})
			}
			lockstepFuel(t, l, file, progs, 2000)
		})
	}
}

// TestLockstepRandomGradual runs random cast-calculus programs (the gradual
// generator's: casts and explicit coercions that fail, blame at every position) on
// every stage of the packages of two cast semantics written as rule files, in
// lockstep with the in-process stages: blame is an answer reached by a context rule
// that aborts to the root, and a cast's step is an inner layer's, so that the CPS
// evaluator's γ and the interpreter's aborts are exercised where nobody wrote a
// program for them.
func TestLockstepRandomGradual(t *testing.T) {
	draws := 300
	if testing.Short() {
		draws = 40
	}
	for _, c := range []struct {
		file string
		sem  g.Semantics // what its coercions may inject (gradualgen.For)
	}{{"gradual/rules/ed.sem", g.ED}, {"gradual/rules/lud.sem", g.LUD}} {
		file := c.file
		t.Run(filepath.Base(file), func(t *testing.T) {
			rs, err := gradualcalc.LoadRuleSemantics(filepath.Join(root, file))
			if err != nil {
				t.Fatal(err)
			}
			gen := gradualgen.ProgramGen(gradualgen.Config{Cast: true, Inj: gradualgen.For(c.sem), Depth: 4})
			var progs []program
			seen := map[string]bool{}
			for i := 0; len(progs) < draws; i++ {
				e := gen.Example(i)
				if _, err := g.TypeOf(e); err != nil {
					t.Fatalf("draw %d is not well-typed: %v", i, err)
				}
				var labels gradualcalc.Labels
				term, err := rs.Term(e, &labels)
				if err != nil {
					t.Fatalf("draw %d: %v", i, err)
				}
				s := sem.Format(term)
				if seen[s] {
					continue
				}
				seen[s] = true
				progs = append(progs, program{fmt.Sprintf("draw %d", i), s})
			}
			lockstepFuel(t, rs.Lang, file, progs, 2000)
		})
	}
}

// TestLockstepRandomRuleFiles runs random programs of the rule files with what the
// generator writes beyond the core (since 2026-12-07), on every stage of the generated
// package in lockstep with the in-process stages: context rules that capture their
// context as a value, (context [D] E_k LHS) with (in-hole E_k t) (callcc.sem's callcc
// and shift, refs.sem's ref, deref and set), or find their delimiter by a label the
// redex binds (prompts.sem's control); kinds whose values are their normal forms
// (head.sem); sequences, matched with backtracking and built by templates (nary.sem,
// store.sem, whose context rules capture too); binders that are sequences, of
// variables (polyadic.sem) and of items that bind in each other (letrec.sem); the
// number atom and the default hooks on it (numbers.sem). The programs are the workbench's
// draws of the file's grammar (rules.Generator: no typing judgment, so many are
// run-time errors); each rule named must fire in some of them, or the test says so.
func TestLockstepRandomRuleFiles(t *testing.T) {
	draws := 200
	if testing.Short() {
		draws = 40
	}
	for _, c := range []struct {
		file  string
		fires []string // the rules that use what is tested: each must fire (not in -short)
		times int      // draws, as many times the default: curry and get fire in about 1 draw of 200
	}{
		{"testdata/rules/callcc.sem", []string{"callcc", "shift"}, 1},
		{"testdata/rules/refs.sem", []string{"ref", "deref", "set"}, 1},
		{"testdata/rules/prompts.sem", []string{"control"}, 1},
		{"testdata/rules/head.sem", []string{"beta"}, 1},
		{"testdata/rules/nary.sem", []string{"curry", "sum", "get"}, 6},
		{"testdata/rules/store.sem", []string{"ref", "deref", "set"}, 1},
		{"testdata/rules/polyadic.sem", []string{"beta"}, 1},
		// βv, whose parameters and arguments must be as many, fires in none of 200
		// draws: the corpus's programs apply functions.
		{"testdata/rules/letrec.sem", []string{"let1", "letrec"}, 1},
		{"testdata/rules/numbers.sem", []string{"add", "divide", "sqrt"}, 1},
	} {
		if testing.Short() && c.file != "testdata/rules/callcc.sem" && c.file != "testdata/rules/nary.sem" {
			continue // -short: a file that captures, and one with sequences
		}
		draws := draws * c.times
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			l := loadRules(t, c.file)
			progs := randomPrograms(l, draws)
			fired := map[string]bool{}
			for _, p := range progs {
				for _, ev := range runInProcess(l, "reduction", p.src, 2000).events {
					fired[ev] = true
				}
			}
			for _, rule := range c.fires {
				if !fired[rule] && !testing.Short() {
					t.Errorf("rule %s fires in none of the %d draws", rule, len(progs))
				}
			}
			lockstepFuel(t, l, c.file, progs, 2000)
		})
	}
}

// TestLockstepRandomRedexModels runs random programs of the Redex models that import
// translates and derive --go writes (internal/redex/testdata/models: stlc.rkt,
// poly-stlc.rkt, contracts.rkt, church.rkt and omega.rkt, as Redex's authors wrote
// them), on every stage of the generated package in lockstep with the in-process
// stages: the real models, not the repository's rule files. Not in -short.
func TestLockstepRandomRedexModels(t *testing.T) {
	if testing.Short() {
		t.Skip("a package built a model: go test without -short runs it")
	}
	for _, name := range []string{"stlc.rkt", "poly-stlc.rkt", "contracts.rkt", "church.rkt", "omega.rkt"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(root, "internal", "redex", "testdata", "models", name)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			im, err := redex.Load(src, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			l, file := writeRules(t, strings.TrimSuffix(name, ".rkt")+".sem", im.Sem)
			lockstepFuel(t, l, file, randomPrograms(l, 100), 2000)
		})
	}
}

// randomPrograms are n distinct draws of l's grammar (rules.Generator, depth 5, in
// the order of rapid's examples), or as many as 50n draws give.
func randomPrograms(l *sem.Language, n int) []program {
	gen := rapid.Custom(func(t *rapid.T) string {
		return sem.Format(rulescalc.Generator{Lang: l, Depth: 5}.Draw(t))
	})
	var progs []program
	seen := map[string]bool{}
	for i := 0; len(progs) < n && i < 50*n; i++ {
		if s := gen.Example(i); !seen[s] {
			seen[s] = true
			progs = append(progs, program{fmt.Sprintf("draw %d", i), s})
		}
	}
	return progs
}
