package handlerscases

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
)

// Programs are the cases' programs and the corpus's well-typed ones.
func Programs(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range Cases {
		out["case "+c.Name] = c.Program
	}
	files, _ := filepath.Glob(filepath.Join(CorpusDir, "*.rh"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(src)
	}
	return out
}

// Lockstep runs every program on every stage under every strategy and checks that
// they make the same contractions, in the same order, and reach the same answer
// (observation); stages[0] is the reference. Programs that do not type-check are
// skipped.
func Lockstep(t *testing.T, stages map[string]handlers.Stage, order []string) {
	t.Helper()
	progs := Programs(t)
	names := make([]string, 0, len(progs))
	for n := range progs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		p, err := handlers.Parse([]byte(progs[name]))
		if err != nil {
			continue
		}
		if _, err := handlers.Check(p); err != nil {
			continue
		}
		for _, ad := range dpl.Differentiators() {
			var refRules []string
			var refObs string
			for i, sn := range order {
				var rules []string
				a, err := stages[sn].Eval(ad, p, interderive.Options{OnContract: func(r string) { rules = append(rules, r) }})
				obs := a.Observe()
				if err != nil {
					if !errors.Is(err, interderive.ErrResourceLimit) {
						t.Errorf("%s on %s under %s: %v", name, sn, ad.Name(), err)
						continue
					}
					obs = "resource limit"
				}
				if i == 0 {
					refRules, refObs = rules, obs
					continue
				}
				if obs != refObs {
					t.Errorf("%s under %s: %s answers %s, %s %s", name, ad.Name(), sn, obs, order[0], refObs)
				}
				if !slices.Equal(rules, refRules) {
					at := 0
					for at < len(rules) && at < len(refRules) && rules[at] == refRules[at] {
						at++
					}
					t.Errorf("%s under %s: %s leaves %s's contractions at contraction %d (of %d and %d)", name, ad.Name(), sn, order[0], at+1, len(rules), len(refRules))
				}
			}
		}
	}
}
