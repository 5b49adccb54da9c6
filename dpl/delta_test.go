package dpl_test

import (
	"testing"

	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"pgregory.net/rapid"
)

// TestEvPair checks EvPair(op, a, b) against Ev(op, <a, b>), an independent path
// (flatten the built pair), on every operator with a product domain, derived ones
// included, at random points (0 among them, so that undefinedness is met too): the
// same value, or the same undefinedness.
func TestEvPair(t *testing.T) {
	names := []string{"mul", "mul_r", "mul_rr", "dprod2", "dprod2_r", "sin_r", "log_r", "inv_r", "exp_rr"}
	rapid.Check(t, func(t *rapid.T) {
		o := op(t, rapid.SampledFrom(names).Draw(t, "op"))
		d := o.Dom.(*dpl.Prod)
		a, b := dplgen.Value(t, d.Fst, "a"), dplgen.Value(t, d.Snd, "b")
		want, werr := dpl.Ev(o, &dpl.Pair{X: a, Y: b, T: d.Fst, U: d.Snd})
		got, gerr := dpl.EvPair(o, a, b, dpl.Pos{})
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s(<%s, %s>): EvPair error %v, Ev error %v", o.Name, dpl.Format(a), dpl.Format(b), gerr, werr)
		}
		if werr != nil {
			if werr.Error() != gerr.Error() {
				t.Fatalf("EvPair: %v, Ev: %v", gerr, werr)
			}
			return
		}
		if !dpl.AlphaEqual(got, want) {
			t.Fatalf("%s(<%s, %s>) = %s by EvPair, %s by Ev", o.Name, dpl.Format(a), dpl.Format(b), dpl.Format(got), dpl.Format(want))
		}
	})
}

// TestDelta checks each case of Delta by hand: 1.5 + 2 = 3.5, mul(<3, 4>) = 12 with
// the pair built or not, fst(<1, 2>) = 1, snd(<1, 2>) = 2, and a non-primitive.
func TestDelta(t *testing.T) {
	x := &dpl.Var{Name: "x"}
	mul := op(t, "mul")
	p12 := pair(lit(1), lit(2))
	cases := []struct {
		name    string
		c       dpl.Term
		a, b    dpl.Term
		want    float64
		wantErr bool
	}{
		{"plus", &dpl.Plus{X: x, Y: x}, lit(1.5), lit(2), 3.5, false},
		{"op on a built pair", &dpl.OpApp{Op: mul, Arg: x}, pair(lit(3), lit(4)), nil, 12, false},
		{"op on a pair left unbuilt", &dpl.OpApp{Op: mul, Arg: pair(x, x)}, lit(3), lit(4), 12, false},
		{"fst", &dpl.Fst{X: x}, p12, nil, 1, false},
		{"snd", &dpl.Snd{X: x}, p12, nil, 2, false},
		{"fst of a real", &dpl.Fst{X: x}, lit(1), nil, 0, true},
		{"a let", &dpl.Let{Name: "y", Bound: x, Body: x}, lit(1), nil, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := dpl.Delta(tc.c, tc.a, tc.b)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("Delta = %s, want an error", dpl.Format(got))
				}
				return
			}
			if r, ok := got.(*dpl.RealLit); err != nil || !ok || r.R != tc.want {
				t.Fatalf("Delta = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestSymbolicRule checks that SymbolicRule names every rule as Sym + the rule,
// constants and other names alike, and that a mode names a rule by it when symbolic
// and as it is when ordinary.
func TestSymbolicRule(t *testing.T) {
	for _, r := range []string{dpl.RulePlus, dpl.RuleOp, dpl.RuleLet, dpl.RuleFst, dpl.RuleSnd, dpl.RuleIf, dpl.RuleLetrec, dpl.RuleCall, dpl.RuleRd, dpl.RulePred, "other"} {
		if got := dpl.SymbolicRule(r); got != "sym/"+r {
			t.Errorf("SymbolicRule(%q) = %q, want %q", r, got, "sym/"+r)
		}
		if got := dpl.Symbolic.Rule(r); got != "sym/"+r {
			t.Errorf("Symbolic.Rule(%q) = %q, want %q", r, got, "sym/"+r)
		}
		if got := dpl.Ordinary.Rule(r); got != r {
			t.Errorf("Ordinary.Rule(%q) = %q, want %q", r, got, r)
		}
	}
	if dpl.Ordinary.String() != "ordinary" || dpl.Symbolic.String() != "symbolic" {
		t.Errorf("modes %s and %s, want ordinary and symbolic", dpl.Ordinary, dpl.Symbolic)
	}
}

// TestBevPair checks BevPair(lt, a, b) against Bev(lt, <a, b>) at random points, the
// diagonal (undefined) among them, and both against a < b.
func TestBevPair(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := dplgen.Real(t, "a"), dplgen.Real(t, "b")
		want, werr := dpl.Bev(dpl.Lt, pair(lit(a), lit(b)))
		got, gerr := dpl.BevPair(dpl.Lt, lit(a), lit(b), dpl.Pos{})
		if (werr == nil) != (a != b) || (gerr == nil) != (a != b) {
			t.Fatalf("lt(<%v, %v>): Bev error %v, BevPair error %v", a, b, werr, gerr)
		}
		if werr == nil && (got != want || got != (a < b)) {
			t.Fatalf("lt(<%v, %v>) = %v by BevPair, %v by Bev", a, b, got, want)
		}
	})
	if _, err := dpl.BevPair(dpl.Lt, pair(lit(1), lit(2)), lit(3), dpl.Pos{}); err == nil {
		t.Errorf("lt on <<1, 2>, 3> has a value")
	}
}
