package dplcases

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"pgregory.net/rapid"
)

// Fused checks a stage's evaluation of rd with R fused with the evaluation of its
// output (dpl.Run.EvalDerivative, spec §4) against the unfused evaluation, which
// builds every derivative term and evaluates it, as the independent check: on the
// spec's vectors and the cases below, on the corpus under corpusDir (every *.dpl
// beneath it), and on random programs (dplgen) and random derivatives of random trace
// terms, the two runs must have the same contraction events, one by one, the same
// answer, bit for bit (math.Float64bits of every coordinate), the same definedness
// and cause, and the same error. The runs report no rd (an rd reported is observed,
// and never fused).
//
// Observed, with the stage's artefact as the workbench runs it (stage; nil: skipped),
// checks that an observer still sees every term (trace --reports, a side-by-side
// trace): every rd, nested ones included, is reported with its trace and derivative,
// the terms the unfused run builds, and the contractions are the unobserved fused
// run's.
func Fused(t *testing.T, traced dpl.Traced, stage dpl.Stage, corpusDir string) {
	t.Run("Cases", func(t *testing.T) {
		srcs := slices.Clone(FusedCases)
		for _, v := range Vectors {
			srcs = append(srcs, v.Src)
		}
		for _, src := range srcs {
			fusedLockstep(t, traced, src, Program(t, src), 0)
		}
	})
	t.Run("Corpus", func(t *testing.T) {
		// A run cut by the fuel is compared up to the cut, which moves with the fuel.
		corpusFuel := 1_000_000
		if testing.Short() {
			corpusFuel = 50_000
		}
		n := 0
		err := filepath.WalkDir(corpusDir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".dpl" {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			p, err := dpl.Parse(src)
			if err != nil {
				return nil // the corpus's syntax errors are its own tests
			}
			prog, _, err := dpl.Check(p)
			if err != nil {
				return nil
			}
			n++
			fusedLockstep(t, traced, path, prog, corpusFuel)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n < 50 {
			t.Fatalf("%d well-typed programs under %s: the corpus is not where it should be", n, corpusDir)
		}
	})
	t.Run("Random", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			prog := dplgen.Program(t, dplgen.Full(4))
			fusedLockstep(t, traced, dpl.Format(prog), prog, 20_000)
		})
	})
	t.Run("RandomDerivatives", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			prog := RandomRd(t)
			fusedLockstep(t, traced, dpl.Format(prog), prog, 20_000)
		})
	})
	if stage != nil {
		t.Run("Observed", func(t *testing.T) {
			for _, src := range FusedCases {
				prog := Program(t, src)
				fused := recordUnreported(traced, dpl.Tape, prog, 0)
				want := Record(traced, dpl.Unfused(dpl.Tape), prog, 0)
				var got Outcome
				obs := &reports{}
				opts := interderive.Options{Observer: obs, OnContract: func(rule string) { got.Events = append(got.Events, rule) }}
				got.Answer, got.Err = stage.Eval(dpl.Tape, prog, opts)
				if why := sameRun(got, fused); why != "" {
					t.Errorf("%s: observed and unobserved runs differ: %s", src, why)
				}
				rds := 0
				for _, e := range got.Events {
					if e == dpl.RuleRd || e == dpl.SymRd {
						rds++
					}
				}
				if len(want.Ders) != rds && got.Answer.Undefined == nil && got.Err == nil {
					t.Errorf("%s: %d rd reported, %d rd contracted", src, len(want.Ders), rds)
				}
				if !slices.EqualFunc(obs.terms, want.reported(), dpl.AlphaEqual) || !slices.Equal(obs.labels, want.labels()) {
					t.Errorf("%s: reports %v %v, want the terms of the unfused run: %v", src, obs.labels, obs.terms, want.reported())
				}
			}
		})
	}
	t.Run("Fuel", func(t *testing.T) {
		// Every budget from none to enough: a gradient cut anywhere, in its trace, in
		// R (a derivative over the fuel left) or in the derivative's evaluation, is
		// cut at the same contraction with the same error.
		prog := Program(t, "1.rd[<2, 3>](z:real * real. let <a:real, b:real> = z in a * b * a + b)")
		for fuel := 1; fuel <= 40; fuel++ {
			fusedLockstep(t, traced, fmt.Sprintf("fuel %d", fuel), prog, fuel)
		}
	})
}

// FusedCases are programs whose derivatives take the backward pass through every
// path: sums of adjoints, pairs and projections, copies of pairs, unit, operators on
// pairs of pairs, pair cotangents, constants, nested rd (whose derivatives are traced,
// never fused, inside an outer rd that is), rd under letrec, and undefinedness in the
// trace, in R's forward pass, in its backward pass (an op_r) and in a sum.
var FusedCases = []string{
	"1.rd[3](x:real. x + x * x)",
	"1.rd[3](x:real. let y:real = x * x in y + y * x)",
	"<1, 2>.rd[3](x:real. <x * x, sin(x)>)",
	"<<1, 2>, 3>.rd[<2, 5>](z:real * real. <<fst(z) * snd(z), fst(z)>, snd(z) * snd(z)>)",
	"1.rd[<<1, 2>, 3>](z:(real * real) * real. dprod2(<fst(z), <snd(z), snd(z)>>))",
	"1.rd[<2, ()>](z:real * unit. let u:unit = snd(z) in fst(z) * fst(z))",
	"().rd[2](x:real. ())",
	"1.rd[2](x:real. 5)",
	"2.rd[<1, 2>](z:real * real. let w:real * real = z in fst(w) * snd(w) + fst(z))",
	"<3, 4>.rd[<1, 2>](z:real * real. let w:real * real = <snd(z), fst(z)> in w)",
	"1.rd[<1, 2>](z:real * real. let w:real * real = <snd(z) * 2, fst(z)> in fst(w) + snd(w) * fst(w))",
	"1.rd[2](x:real. 1.rd[x](y:real. y * y * x))",
	"letrec f(x:real):real = if x <. 10 then f(x * 2) else x in 1.rd[1.5](x:real. f(x) * x)",
	"letrec p(x:real):real = if 1.1 <. x then x else p(x * 1.001) in 1.rd[1](x:real. p(x))",
	"let g:real = 1.rd[2](x:real. x * x) in g + 1.rd[3](x:real. exp(x))",
	"1.rd[0](x:real. log(x))",
	"1.rd[1e-200](x:real. inv(x) * 0)",
	"1.rd[1](x:real. x + (1e308 + 1e308))",
	"1e308.rd[1e308](x:real. x * x)",
	"1.rd[2](x:real. let y:real = log(x - 2) in x)",
	"0.rd[-0](x:real. x * -0)",
	"-0.rd[0](x:real. x + x)",
	"1.rd[<1, <2, 3>>](z:real * (real * real). snd(snd(z)) * fst(z) + fst(snd(z)))",
	"<1, <2, 3>>.rd[1](x:real. <x, <x * x, x>>)",
	"1.rd[<1, 2>](z:real * real. let w:(real * real) * real = <z, 3> in fst(fst(w)) * snd(fst(w)) + fst(z) * snd(z))",
	"1.rd[<1, 2>](z:real * real. let w:(real * real) * real = <z, fst(z)> in let v:real * real = fst(w) in fst(v) * snd(w) + snd(v))",
}

// RandomRd draws W.rd[V](x:T. C) for a random trace term C (dplgen, Trace): every
// shape of derivative Tape emits, without the control flow around it.
func RandomRd(t *rapid.T) dpl.Term {
	tt, u := dplgen.Type(t, "param-type"), dplgen.Type(t, "body-type")
	g := dplgen.New(t, dplgen.Config{Depth: 5, Trace: true, Partial: true})
	body := g.Term(dplgen.Scope{}.Bind("x", tt), u, 5)
	rd := &dpl.Rd{Cotangent: dplgen.Value(t, u, "cotangent"), Point: dplgen.Value(t, tt, "point"), Param: "x", T: tt, Body: body}
	return dplgen.Elaborate(t, nil, rd)
}

// fusedLockstep runs prog under Tape, fused, and under Unfused(Tape), and compares.
func fusedLockstep(t interface {
	Helper()
	Fatalf(format string, args ...any)
}, traced dpl.Traced, name string, prog dpl.Term, fuel int) {
	t.Helper()
	fused := recordUnreported(traced, dpl.Tape, prog, fuel)
	unfused := recordUnreported(traced, dpl.Unfused(dpl.Tape), prog, fuel)
	if why := sameRun(fused, unfused); why != "" {
		t.Fatalf("%s: fused and unfused runs differ: %s", name, why)
	}
}

// recordUnreported is Record with no rd reported.
func recordUnreported(traced dpl.Traced, ad dpl.Differentiator, prog dpl.Term, fuel int) Outcome {
	var r Outcome
	opts := interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.Events = append(r.Events, rule) }}
	r.Answer, r.Err = traced(ad, prog, opts, nil)
	return r
}

// sameRun says how two outcomes differ ("" if they do not).
func sameRun(a, b Outcome) string {
	if i := firstDifference(a.Events, b.Events); i >= 0 {
		return fmt.Sprintf("contraction %d: %s against %s (%d and %d contractions)", i+1, at(a.Events, i), at(b.Events, i), len(a.Events), len(b.Events))
	}
	if errText(a.Err) != errText(b.Err) {
		return fmt.Sprintf("error %q against %q", errText(a.Err), errText(b.Err))
	}
	if (a.Answer.Undefined == nil) != (b.Answer.Undefined == nil) {
		return fmt.Sprintf("answer %v against %v", a.Answer, b.Answer)
	}
	if a.Answer.Undefined != nil {
		if a.Answer.Undefined.Error() != b.Answer.Undefined.Error() {
			return fmt.Sprintf("undefined %v against %v", a.Answer.Undefined, b.Answer.Undefined)
		}
		return ""
	}
	if a.Err == nil && !SameBits(a.Answer.Value, b.Answer.Value) {
		return fmt.Sprintf("answer %v against %v", a.Answer, b.Answer)
	}
	return ""
}

func firstDifference(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func at(events []string, i int) string {
	if i < len(events) {
		return events[i]
	}
	return "the end"
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// SameBits reports whether two closed values are the same, every real coordinate to
// the bit (math.Float64bits: 0 and -0 differ).
func SameBits(a, b dpl.Term) bool {
	switch a := a.(type) {
	case *dpl.RealLit:
		b, ok := b.(*dpl.RealLit)
		return ok && math.Float64bits(a.R) == math.Float64bits(b.R)
	case *dpl.UnitLit:
		_, ok := b.(*dpl.UnitLit)
		return ok
	case *dpl.Pair:
		b, ok := b.(*dpl.Pair)
		return ok && SameBits(a.X, b.X) && SameBits(a.Y, b.Y)
	}
	return a == nil && b == nil
}
