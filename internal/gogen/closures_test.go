package gogen

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/interderive/interderive/sem"
)

// TestClosureAnalyses checks, rule by rule (testdata/closures.sem), what the generator
// learns statically of a rule to build its contractum over closures (closures.go),
// against hand readings of the rules: which metavariables it takes without hiding their binder (open), which
// nodes of the right-hand side it builds from the redex's own children (raw), and
// which metavariables it need not take (lazy).
func TestClosureAnalyses(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "closures.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	rule := func(name string) *sem.Rule {
		for _, r := range l.Rules {
			if r.Name == name {
				return r
			}
		}
		t.Fatalf("no rule %s", name)
		return nil
	}
	names := func(r *sem.Rule, set map[int]bool) []string {
		var out []string
		r.LHS.Walk(func(p *sem.Pattern) {
			if p.Kind == sem.PatMeta && set[p.Slot] && !slices.Contains(out, p.Meta) {
				out = append(out, p.Meta)
			}
		})
		slices.Sort(out)
		return out
	}
	// The raw nodes of a right-hand side, outermost first, printed.
	raws := func(r *sem.Rule) []string {
		bs := bindings(r.LHS)
		var out []string
		var walk func(p *sem.Pattern)
		walk = func(p *sem.Pattern) {
			if rawNode(p, bs) {
				out = append(out, sem.FormatPattern(p))
				return
			}
			for _, a := range p.Args {
				walk(a)
			}
		}
		walk(r.RHS)
		return out
	}
	tests := []struct {
		rule       string
		open, lazy []string
		raw        []string
	}{
		// t is under lam's x only, used once as (subst t x v): taken open.
		{"beta", []string{"t"}, nil, nil},
		// t_2 is under letrec's f only, used once as (subst t_2 f ...): open; t_1,
		// under f and x, is in (lam x (letrec f x t_1 t_1)) under f and x again:
		// that node is raw, and t_1, used nowhere else, lazy.
		{"Letrec", []string{"t_2"}, []string{"t_1"}, []string{"(lam x (letrec f x t_1 t_1))"}},
		// t_2 is under no binder in the redex but under the outer lam x in the
		// contractum: the whole is not raw; (app (lam x t_1) t_2) is (t_1 under x
		// in both, t_2 under none in both); t_1 and t_2 are then lazy.
		{"keep", nil, []string{"t_1", "t_2"}, []string{"(app (lam x t_1) t_2)"}},
		// t_1 is used twice: not open, not lazy.
		{"twice", nil, nil, nil},
		// t is under x in (lam x t) but under none in the pair: not raw; the lam is.
		{"both", nil, nil, []string{"(lam x t)"}},
		// The children swapped: raw, the values not lazy (they are tested).
		{"swap", nil, nil, []string{"(pr v_2 v_1)"}},
		// t is used nowhere: lazy (not taken at all).
		{"drop", nil, []string{"t"}, nil},
	}
	for _, tt := range tests {
		r := rule(tt.rule)
		if got := names(r, openSlots(r)); !slices.Equal(got, tt.open) {
			t.Errorf("rule %s: open %v, want %v", tt.rule, got, tt.open)
		}
		if got := names(r, lazySlots(r, bindings(r.LHS))); !slices.Equal(got, tt.lazy) {
			t.Errorf("rule %s: lazy %v, want %v", tt.rule, got, tt.lazy)
		}
		if got := raws(r); !slices.Equal(got, tt.raw) {
			t.Errorf("rule %s: raw nodes %q, want %q", tt.rule, got, tt.raw)
		}
	}
}
