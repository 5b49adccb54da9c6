package handlers_test

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	calculus "github.com/interderive/interderive/internal/calculi/handlers"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const corpus = "../../../testdata/handlers"

// The calculus through the workbench's engines, from the registry, as the command
// runs it.

func bench(t testing.TB) (*workbench.Workbench, workbench.Calculus) {
	t.Helper()
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := w.LanguageNamed("rh")
	if err != nil || c.Name() != "handlers" {
		t.Fatalf("the extension rh: %v, %v", c, err)
	}
	return w, c
}

func load(t testing.TB, src string) workbench.Program {
	t.Helper()
	p, err := calculus.Calculus.Load("rh", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRegistered: the registry holds the calculus under its name and extension, with
// the five stages in derivation order and the strategies.
func TestRegistered(t *testing.T) {
	w, c := bench(t)
	var names []string
	for _, s := range w.StagesOf(c) {
		names = append(names, s.Name())
	}
	if want := []string{"reduction", "closures", "machine", "cps2", "interp"}; !slices.Equal(names, want) {
		t.Errorf("stages %v, want %v", names, want)
	}
	if v, err := w.VariantFor(c, ""); err != nil || v != "tape" {
		t.Errorf("the default variant: %q, %v", v, err)
	}
	if _, err := w.VariantFor(c, "forward"); err == nil || !strings.Contains(err.Error(), "tape") {
		t.Errorf("forward: %v", err)
	}
	var text strings.Builder
	w.Describe().WriteText(&text)
	if !strings.Contains(text.String(), "handlers") {
		t.Errorf("interderive calculi does not list the calculus:\n%s", text.String())
	}
}

// TestWorkbenchCheck: check runs the corpus: 13 files that run, on 5 stages under 3
// strategies each (195 runs), and 4 type errors, checked once per strategy (12).
func TestWorkbenchCheck(t *testing.T) {
	w, _ := bench(t)
	files, err := w.SourceFiles([]string{corpus})
	if err != nil {
		t.Fatal(err)
	}
	plans, errs := w.PlanFiles(files, "", nil, workbench.CheckOptions{})
	var failures strings.Builder
	report := workbench.RunCheck(files, plans, errs, workbench.CheckOptions{}, nil, func(i int, fs []workbench.Failure) {
		workbench.WriteCheckFile(&failures, files[i], plans[i], errs[i], fs)
	})
	if got, want := report.Summary(), "17 files, 207 runs: 207 passed, 0 failed"; got != want {
		t.Errorf("check: %s, want %s\n%s", got, want, failures.String())
	}
}

// TestWorkbenchCompare: compare finds the five stages in agreement under the three
// strategies on a one-layer program.
func TestWorkbenchCompare(t *testing.T) {
	w, c := bench(t)
	src := `op fca : real -> real
heap a : real = 2
rev handle(1) <x>. fca(x)
with { return o -> [o]; fca(x) -> let w <= get[a]() in [<w * x, <w, x>>]
     | y, z -> let <w, x> <= [z] in let u <= put[a](w - y * x) in [w * y] }`
	cmp, err := w.Compare(c, load(t, src), nil, "", interderive.Options{})
	if err != nil || len(cmp.Disagreements) > 0 || len(cmp.Partial) > 0 || len(cmp.Rows) != 15 {
		t.Fatalf("compare: %v, %+v", err, cmp)
	}
	// Forward 2 * 1 = 2, output gradient 2; put a = 2 - 2 * 1 = 0; return 2 * 2 = 4.
	for _, r := range cmp.Rows {
		if r.Answer() != "4 with a = 0" {
			t.Errorf("%s answers %s", r.Stage, r.Answer())
		}
	}
}

// TestWorkbenchFuzz: fuzz checks lockstep, preservation and the theorems on random programs of the
// size the other calculi's fuzz tests use, and finds nothing.
func TestWorkbenchFuzz(t *testing.T) {
	w, _ := bench(t)
	size, count := 5, 40
	if testing.Short() {
		count = 10 // every property still runs; the full run draws 40 programs
	}
	plans, err := w.PlanFuzz(workbench.FuzzOptions{Calculi: []string{"handlers"}, Size: size})
	if err != nil || len(plans) != 1 {
		t.Fatalf("plan: %v, %d plans", err, len(plans))
	}
	if want := []string{"lockstep", "preservation", "reverse-handler", "elaboration", "fd-gradients"}; !slices.Equal(plans[0].Props, want) {
		t.Errorf("properties %v, want %v", plans[0].Props, want)
	}
	keepRapidFlags(t)
	r := w.Fuzz(plans[0], workbench.FuzzConfig{Count: count, Jobs: 1, Seed: 1}, nil)
	if r.Found != nil {
		t.Errorf("%s: %v\n%s", r.Found.Prop, r.Found.Err, r.Found.Source)
	}
	if r.Checked == 0 {
		t.Error("fuzz checked nothing")
	}
}

// keepRapidFlags restores rapid's flags once the test ends: the workbench's fuzz sets
// its seed and its number of checks for each round, which the property tests that run
// after it in the same binary would otherwise inherit (a fixed seed, and the round's
// count for the 1,000 cases they promise).
func keepRapidFlags(t *testing.T) {
	for _, name := range []string{"rapid.checks", "rapid.seed"} {
		f := flag.Lookup(name)
		if f == nil {
			continue
		}
		old := f.Value.String()
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
}

// TestWorkbenchTrace: trace --stage all shows every stage's steps.
func TestWorkbenchTrace(t *testing.T) {
	w, c := bench(t)
	var out strings.Builder
	if err := w.WriteSideBySide(&out, c, load(t, `rev handle(5) <x>. [x] with { return o -> [o * 2] }`), "tape", "", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"cmd/handle", "rh/ret", "decompose:", "expand:", "evalc", "10"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the side-by-side trace lacks %q:\n%s", line, out.String())
		}
	}
}

// TestLockstepRandom: on random well-typed programs every stage makes the reference's
// contractions in its order and reaches its answer, under every strategy; and the
// reference never gets stuck.
func TestLockstepRandom(t *testing.T) {
	w, c := bench(t)
	all := w.StagesOf(c)
	size := 5
	if testing.Short() {
		size = 3
	}
	rapid.Check(t, func(t *rapid.T) {
		p := c.Generate(t, size, "tape")
		for _, ad := range []string{"tape", "pruned", "figure6"} {
			var ref []string
			var refAns any
			for i, s := range all {
				var rules []string
				out, err := p.Run(s, ad, interderive.Options{Fuel: 20000, OnContract: func(r string) { rules = append(rules, r) }})
				if err != nil {
					if errors.Is(err, interderive.ErrResourceLimit) {
						return
					}
					t.Fatalf("%s under %s: %v", s.Name(), ad, err)
				}
				if i == 0 {
					ref, refAns = rules, out.Answer
					continue
				}
				if !slices.Equal(rules, ref) {
					t.Fatalf("%s under %s parts from %s:\n  %s\n  %s", s.Name(), ad, all[0].Name(), strings.Join(ref, " "), strings.Join(rules, " "))
				}
				if !c.Equal(out.Answer, refAns) {
					t.Fatalf("%s under %s answers %s", s.Name(), ad, out.Value)
				}
			}
		}
	})
}
