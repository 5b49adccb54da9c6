package gradual

import (
	"slices"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"pgregory.net/rapid"
)

// edr is a fifth cast semantics, defined here and nowhere else, to check that the
// stages are parametric in the semantics (docs/semantics.md: adding a new cast
// semantics touches no stage). It is ED with the opposite priority between the two
// sides of a failing function coercion: when both the domain and the codomain fail,
// the codomain's label wins.
//
// Translation ⟨⟨T ⇐ S⟩⟩^l: the D translation of spec §3.1 (every type but Dyn is
// injectable) with arr = mkArrR:
//
//	mkArrR(c, fail^l)  = fail^l
//	mkArrR(fail^l, d)  = fail^l        (d not fail)
//	mkArrR(c, d)       = c -> d        otherwise
//
// Coercion reduction: the rules of spec §3.3 (ED) with InOut using this translation
// and FailR tried before FailL:
//
//	InOut   I1! ; I2?^l        -> ⟨⟨I2 ⇐ I1⟩⟩^l (with mkArrR)
//	Arr     (c̃1->c̃2) ; (d̃1->d̃2) -> (d̃1;c̃1) -> (c̃2;d̃2)
//	IdL, IdR, FailCo, InFail as in ED (IdL, then IdR, then FailCo where they overlap)
//	FailR   (ĉ -> fail^l) -> fail^l     (the domain may itself be fail: the codomain wins)
//	FailL   (fail^l -> c̃) -> fail^l     (the codomain is a normal part, never fail)
//	no ArrFail: (c̃->d̃);fail^l is a normal form.
//
// Its normal forms are ED's (the rules differ only in which label a doubly failing
// arrow keeps), so values, wrappers and FailFC are as in ED. seq is spec §3.4's with
// arr = mkArrR and without the lazy clause 7. Composition is not associative (ED's
// counterexample applies), so it does not declare MergesSafely: the stages'
// defaults leave it unmerged.
type edr struct{}

func (edr) Name() string { return "edr" }

func mkArrR(c, d g.Coercion) g.Coercion {
	if f, ok := d.(*g.Fail); ok {
		return f
	}
	if f, ok := c.(*g.Fail); ok {
		return f
	}
	return &g.Func{Dom: c, Cod: d}
}

// Translate is the D translation (first matching clause wins) with mkArrR.
func (edr) Translate(t, src g.Type, l g.Label) g.Coercion { return g.TranslateD(t, src, l, mkArrR) }

// Contract contracts c at its root (its proper parts are normal).
func (s edr) Contract(c g.Coercion) (g.Coercion, string, bool) {
	switch c := c.(type) {
	case *g.Func:
		if f, ok := c.Cod.(*g.Fail); ok {
			return f, g.RuleFailR, true
		}
		if f, ok := c.Dom.(*g.Fail); ok {
			return f, g.RuleFailL, true
		}
		return nil, "", false
	case *g.Seq:
		// I1! ; I2?^l (; rest): neither IdL, IdR nor FailCo applies, so InOut is the
		// rule, with this semantics' translation.
		if a, ok := c.Fst.(*g.Inj); ok {
			if b, ok := g.Head(c.Snd).(*g.Proj); ok {
				d := s.Translate(b.T, a.T, b.L)
				if rest, ok := c.Snd.(*g.Seq); ok {
					d = g.Then(d, rest.Snd)
				}
				return d, g.RuleInOut, true
			}
		}
	}
	// IdL, IdR, FailCo, InFail and Arr are ED's (which has no ArrFail), and none of
	// them builds an arrow with mkArr.
	return g.ED.Contract(c)
}

// Seq is spec §3.4's composition of normal forms, clauses in order, eager (no clause
// 7), with arr = mkArrR.
func (s edr) Seq(c1, c2 g.Coercion) g.Coercion {
	if _, ok := c1.(g.IdC); ok { // 1
		return c2
	}
	if _, ok := c2.(g.IdC); ok { // 2
		return c1
	}
	if a, ok := c1.(*g.Inj); ok {
		if b, ok := c2.(*g.Proj); ok { // 3
			return s.Translate(b.T, a.T, b.L)
		}
	}
	if a, ok := c1.(*g.Func); ok {
		if b, ok := c2.(*g.Func); ok { // 4
			return mkArrR(s.Seq(b.Dom, a.Dom), s.Seq(a.Cod, b.Cod))
		}
	}
	if f, ok := c1.(*g.Fail); ok { // 5
		return f
	}
	if f, ok := c2.(*g.Fail); ok {
		if _, ok := c1.(*g.Inj); ok { // 6
			return f
		}
	}
	if a, ok := c1.(*g.Seq); ok { // 8
		return s.Seq(a.Fst, s.Seq(a.Snd, c2))
	}
	if b, ok := c2.(*g.Seq); ok {
		if _, ok := c1.(*g.Proj); ok {
			if _, ok := b.Fst.(*g.Func); ok { // 9
				return g.Then(c1, c2)
			}
		}
		return s.Seq(s.Seq(c1, b.Fst), b.Snd) // 10
	}
	return g.Then(c1, c2) // 11
}

var fifth g.Semantics = edr{}

// TestFifthSemanticsDiffers runs one program, derived by hand, on every stage under
// the five semantics. The program is
//
//	<Bool -> Bool <= Dyn -> Dyn>^b <Dyn -> Dyn <= Int -> Int>^a (\x:Int. x)
//
// Translations (spec §3.1; D and UD agree here, and neither arrow fails, so lazy and
// eager agree too): ⟨⟨Dyn->Dyn ⇐ Int->Int⟩⟩^a = Int?^a -> Int!, and
// ⟨⟨Bool->Bool ⇐ Dyn->Dyn⟩⟩^b = Bool! -> Bool?^b. Write s for \x:Int. x.
//
//	<Bool! -> Bool?^b> <Int?^a -> Int!> s     (the inner application is a value)
//	-CmpCst->        <(Int?^a -> Int!) ; (Bool! -> Bool?^b)> s
//	-StepCst/Arr->   <(Bool! ; Int?^a) -> (Int! ; Bool?^b)> s
//	-StepCst/InOut-> <fail^a -> (Int! ; Bool?^b)> s     (⟨⟨Int ⇐ Bool⟩⟩^a = fail^a)
//	-StepCst/InOut-> <fail^a -> fail^b> s               (⟨⟨Bool ⇐ Int⟩⟩^b = fail^b)
//
// LD, LUD: no rule applies to fail^a -> fail^b (lazy): a wrapper, the answer is the
// value <fail^a -> fail^b> s ("function"). ED, EUD: FailL gives fail^a, then FailCst:
// blame a. edr: FailR gives fail^b, then FailCst: blame b. So edr differs from all
// four standard semantics.
func TestFifthSemanticsDiffers(t *testing.T) {
	p := parseCast(t, `<Bool -> Bool <= Dyn -> Dyn>^b <Dyn -> Dyn <= Int -> Int>^a (\x:Int. x)`)
	type outcome struct {
		answer string
		rules  []string
	}
	prefix := []string{"CmpCst", "StepCst/Arr", "StepCst/InOut", "StepCst/InOut"}
	lazy := outcome{"function", prefix}
	eager := func(l, rule string) outcome {
		return outcome{"blame " + l, append(append([]string(nil), prefix...), rule, "FailCst")}
	}
	want := map[string]outcome{
		"ld": lazy, "lud": lazy,
		"ed": eager("a", "StepCst/FailL"), "eud": eager("a", "StepCst/FailL"),
		"edr": eager("b", "StepCst/FailR"),
	}
	for _, sem := range append(g.Standard(), fifth) {
		w := want[sem.Name()]
		for _, st := range stages() {
			r := runOn(withSemantics{p, sem}, st, sem.Name(), interderive.Options{Fuel: 100, Merging: interderive.Unmerged})
			if r.err != nil || r.answer.Observe() != w.answer || !slices.Equal(r.rules, w.rules) {
				t.Errorf("%s, %s: %s by %v; want %s by %v", sem.Name(), st.Name(), r, r.rules, w.answer, w.rules)
			}
		}
	}
	// The lazy answer is exactly the wrapper of the derivation.
	r := runOn(p, stages()[0], g.LD.Name(), interderive.Options{Fuel: 100, Merging: interderive.Unmerged})
	wrapper := &g.Coerce{C: &g.Func{Dom: &g.Fail{L: "a"}, Cod: &g.Fail{L: "b"}}, X: &g.Lam{Param: "x", T: g.Int, Body: &g.Var{Name: "x"}}}
	if r.err != nil || r.answer.Blamed || !g.AlphaEqual(r.answer.Value, wrapper) {
		t.Errorf("ld: %s, want %s", r, g.Format(wrapper))
	}
}

// TestFifthSemanticsSeq: edr's one-pass seq computes the normal form that its
// reduction rules reach (spec §3.4's correctness, for this semantics), on random
// well-typed normal forms, half of them drawn to fire a rule (DrawComposition).
func TestFifthSemanticsSeq(t *testing.T) {
	t.Parallel()
	fired := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		c := DrawComposition(t, fifth)
		rules, err := SeqCorrect(fifth, c.C1, c.C2)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rules {
			fired[r]++
		}
		want := fifth.Seq(c.C1, c.C2) // the normal form reduction reaches (SeqCorrect)
		if !g.IsEagerNormal(want) {
			t.Fatalf("%s is not an eager normal form", g.FormatCoercion(want))
		}
	})
	rules := []string{g.RuleIdL, g.RuleIdR, g.RuleInOut, g.RuleArr, g.RuleFailCo, g.RuleInFail, g.RuleFailL, g.RuleFailR}
	if err := FireEvery(fifth, rules, fired); err != nil {
		t.Fatal(err)
	}
	t.Logf("rules fired: %v", fired)
	for _, r := range rules {
		if fired[r] == 0 {
			t.Errorf("rule %s never fired", r)
		}
	}
}

// TestFifthSemanticsLockstep: the five stages, unmodified, run edr in lockstep on
// random programs (GTLC through cast insertion, and the cast calculus with D's
// injections), as they run the standard semantics. It logs how many programs blame
// another label under edr than under ED.
func TestFifthSemanticsLockstep(t *testing.T) {
	t.Parallel()
	w := newBench(t)
	for _, lang := range languages(fifth) {
		t.Run(lang.name, func(t *testing.T) {
			programs, differ := 0, 0
			rapid.Check(t, func(t *rapid.T) {
				p := drawProgram(t, lang.cfg)
				ref, err := lockstep(w, withSemantics{p, fifth}, fifth.Name(), lockstepFuel)
				if err != nil {
					t.Fatalf("%v\n%s", err, describe(p))
				}
				programs++
				if a, ok := referenceAnswer(ref); ok && differsFromED(p, a) {
					differ++
				}
			})
			t.Logf("%s: %d programs, %d blame another label under edr than under ed", lang.name, programs, differ)
		})
	}
}

// differsFromED reports whether p, whose answer under edr is a, blames another label
// under ED.
func differsFromED(p program, a g.Answer) bool {
	ed := runOn(p, stages()[0], g.ED.Name(), interderive.Options{Fuel: lockstepFuel, Merging: interderive.Unmerged})
	return ed.err == nil && a.Blamed && ed.answer.Blamed && a.Blame != ed.answer.Blame
}

// TestFifthSemanticsReached: random programs do reach the difference between edr and
// ED (a function coercion that fails on both sides, with different labels), so the
// lockstep property runs the stages on edr's own rule order. Fixed seeds make the
// count reproducible.
func TestFifthSemanticsReached(t *testing.T) {
	t.Parallel()
	cfg := gradualgen.Config{Cast: true}
	gen := gradualgen.ProgramGen(cfg)
	differ := 0
	for i := range coverageSample {
		p := fromTerm(t, cfg, gen.Example(i))
		r := runOn(withSemantics{p, fifth}, stages()[0], fifth.Name(), interderive.Options{Fuel: lockstepFuel, Merging: interderive.Unmerged})
		if r.err == nil && differsFromED(p, r.answer) {
			differ++
		}
	}
	t.Logf("%d of %d programs blame another label under edr than under ed", differ, coverageSample)
	if differ == 0 {
		t.Errorf("no program tells edr from ed")
	}
}
