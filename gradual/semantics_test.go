package gradual_test

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
)

func coercion(t *testing.T, src string) g.Coercion {
	t.Helper()
	c, err := g.ParseCoercion(src)
	if err != nil {
		t.Fatalf("ParseCoercion(%q): %v", src, err)
	}
	return c
}

func typ(t *testing.T, src string) g.Type {
	t.Helper()
	ty, err := g.ParseType(src)
	if err != nil {
		t.Fatalf("ParseType(%q): %v", src, err)
	}
	return ty
}

// TestTranslate checks ⟨⟨T ⇐ S⟩⟩^l against the clauses of spec §3.1, worked by hand.
func TestTranslate(t *testing.T) {
	tests := []struct {
		sems           []g.Semantics
		target, source string
		want           string
	}{
		// Shared clauses.
		{g.Standard(), "Dyn", "Dyn", "id"},
		{g.Standard(), "Int", "Int", "id"},
		{g.Standard(), "Bool", "Bool", "id"},
		{g.Standard(), "Int", "Dyn", "Int?^l"},
		{g.Standard(), "Dyn", "Bool", "Bool!"},
		{g.Standard(), "Int", "Bool", "fail^l"},
		{g.Standard(), "Int", "Int -> Int", "fail^l"},
		{g.Standard(), "Int -> Int", "Bool", "fail^l"},
		// The spec's warning: an identity cast on functions is id -> id, not id.
		{g.Standard(), "Int -> Int", "Int -> Int", "id -> id"},
		{g.Standard(), "Int -> Bool", "Dyn -> Bool", "Int! -> id"},
		// D injects every type but Dyn.
		{[]g.Semantics{g.LD, g.ED}, "Dyn", "Int -> Int", "(Int -> Int)!"},
		{[]g.Semantics{g.LD, g.ED}, "Dyn -> Int", "Dyn", "(Dyn -> Int)?^l"},
		// UD goes through the ground type Dyn -> Dyn.
		{[]g.Semantics{g.LUD, g.EUD}, "Dyn", "Int -> Int", "(Int?^l -> Int!) ; (Dyn -> Dyn)!"},
		{[]g.Semantics{g.LUD, g.EUD}, "Int -> Int", "Dyn", "(Dyn -> Dyn)?^l ; (Int! -> Int?^l)"},
		{[]g.Semantics{g.LUD, g.EUD}, "Dyn -> Dyn", "Dyn", "(Dyn -> Dyn)?^l ; (id -> id)"},
		{[]g.Semantics{g.LUD, g.EUD}, "Dyn", "Dyn -> Dyn", "(id -> id) ; (Dyn -> Dyn)!"},
		// Lazy arr keeps a failing component; eager mkArr fails the whole.
		{[]g.Semantics{g.LD}, "Dyn -> Int", "Bool -> Bool", "Bool?^l -> fail^l"},
		{[]g.Semantics{g.ED, g.EUD}, "Dyn -> Int", "Bool -> Bool", "fail^l"},
		{[]g.Semantics{g.LUD}, "Dyn -> Int", "Bool -> Bool", "Bool?^l -> fail^l"},
		{[]g.Semantics{g.ED}, "(Int -> Int) -> Int", "(Int -> Bool) -> Int", "fail^l"},
		{[]g.Semantics{g.LD}, "(Int -> Int) -> Int", "(Int -> Bool) -> Int", "(id -> fail^l) -> id"},
	}
	for _, tt := range tests {
		for _, sem := range tt.sems {
			got := sem.Translate(typ(t, tt.target), typ(t, tt.source), "l")
			if want := coercion(t, tt.want); !g.EqualCoercions(got, want) {
				t.Errorf("%s: <<%s <= %s>> = %s, want %s", sem.Name(), tt.target, tt.source, g.FormatCoercion(got), tt.want)
			}
		}
	}
}

func TestMkArrDomainWins(t *testing.T) {
	got := g.MkArr(&g.Fail{L: "dom"}, &g.Fail{L: "cod"})
	if f, ok := got.(*g.Fail); !ok || f.L != "dom" {
		t.Errorf("mkArr(fail^dom, fail^cod) = %s, want fail^dom", g.FormatCoercion(got))
	}
}

// TestContract exercises every coercion rule of spec §3.2 and §3.3 by name, at the
// root of the coercion (subcoercions already normal).
func TestContract(t *testing.T) {
	lazy := []g.Semantics{g.LD, g.LUD}
	eager := []g.Semantics{g.ED, g.EUD}
	all := g.Standard()
	tests := []struct {
		rule string
		sems []g.Semantics
		in   string
		want string
	}{
		{g.RuleIdL, all, "id ; Int!", "Int!"},
		{g.RuleIdL, all, "id ; id", "id"},
		{g.RuleIdR, all, "Int?^l ; id", "Int?^l"},
		{g.RuleIdR, all, "fail^l ; id", "fail^l"}, // IdR is listed before FailCo
		{g.RuleInOut, all, "Int! ; Int?^l", "id"},
		{g.RuleInOut, all, "Int! ; Bool?^l", "fail^l"},
		{g.RuleInOut, all, "Int! ; Int?^l ; Int!", "id ; Int!"}, // up to associativity
		{g.RuleInOut, all, "(Dyn -> Dyn)! ; (Dyn -> Dyn)?^l", "id -> id"},
		{g.RuleInOut, all, "Bool! ; (Dyn -> Dyn)?^l", "fail^l"},
		{g.RuleInOut, []g.Semantics{g.LD}, "(Bool -> Bool)! ; (Dyn -> Int)?^l", "Bool?^l -> fail^l"},
		{g.RuleInOut, []g.Semantics{g.ED}, "(Bool -> Bool)! ; (Dyn -> Int)?^l", "fail^l"},
		{g.RuleArr, all, "(Int?^a -> Int!) ; (Int! -> Int?^b)", "(Int! ; Int?^a) -> (Int! ; Int?^b)"},
		{g.RuleArr, all, "(id -> id) ; (id -> Int?^l) ; (Dyn -> Dyn)!", "((id ; id) -> (id ; Int?^l)) ; (Dyn -> Dyn)!"},
		{g.RuleFailCo, all, "fail^l ; Int!", "fail^l"},
		{g.RuleFailCo, all, "fail^l ; Int! ; Int?^m", "fail^l"},
		{g.RuleInFail, all, "Int! ; fail^l", "fail^l"},
		{g.RuleArrFail, lazy, "(id -> id) ; fail^l", "fail^l"},
		{g.RuleFailL, eager, "fail^a -> id", "fail^a"},
		{g.RuleFailL, eager, "fail^a -> fail^b", "fail^a"},
		{g.RuleFailR, eager, "Int?^a -> fail^b", "fail^b"},
	}
	for _, tt := range tests {
		for _, sem := range tt.sems {
			got, rule, ok := sem.Contract(coercion(t, tt.in))
			if !ok {
				t.Errorf("%s: %s is not a redex, want %s", sem.Name(), tt.in, tt.rule)
				continue
			}
			if rule != tt.rule || !g.EqualCoercions(got, coercion(t, tt.want)) {
				t.Errorf("%s: %s -> %s by %s, want %s by %s", sem.Name(), tt.in, g.FormatCoercion(got), rule, tt.want, tt.rule)
			}
		}
	}
}

// TestNoRule lists root coercions that are normal under the given semantics.
func TestNoRule(t *testing.T) {
	tests := []struct {
		sems []g.Semantics
		in   string
	}{
		{[]g.Semantics{g.ED, g.EUD}, "(id -> id) ; fail^l"}, // no ArrFail in the eager semantics
		{[]g.Semantics{g.LD, g.LUD}, "fail^a -> id"},        // no FailL in the lazy ones
		{[]g.Semantics{g.LD, g.LUD}, "id -> fail^b"},
		{g.Standard(), "Int?^l ; Int!"},
		{g.Standard(), "Int?^l ; fail^m"},
		{g.Standard(), "(Dyn -> Dyn)?^l ; (id -> id) ; (Dyn -> Dyn)!"},
		{g.Standard(), "Int!"},
	}
	for _, tt := range tests {
		for _, sem := range tt.sems {
			if got, rule, ok := sem.Contract(coercion(t, tt.in)); ok {
				t.Errorf("%s: %s -> %s by %s, want no rule", sem.Name(), tt.in, g.FormatCoercion(got), rule)
			}
		}
	}
}

// TestStep checks the leftmost-innermost strategy of one-step coercion reduction.
func TestStep(t *testing.T) {
	tests := []struct {
		sem        g.Semantics
		in         string
		want, rule string
	}{
		// The domain is reduced before the arrow itself (innermost).
		{g.ED, "(id ; fail^a) -> fail^b", "fail^a -> fail^b", g.RuleIdL},
		{g.ED, "fail^a -> fail^b", "fail^a", g.RuleFailL},
		// In c1 ; rest, c1 is reduced first, then rest, then the pair at the junction.
		{g.LD, "(Int! ; Int?^a) -> id ; (Int! -> id)", "id -> id ; (Int! -> id)", g.RuleInOut},
		{g.LD, "(id -> id) ; (Int! ; Int?^a) -> id", "(id -> id) ; (id -> id)", g.RuleInOut},
		{g.LD, "(id -> id) ; Int! ; Int?^a", "(id -> id) ; id", g.RuleInOut},
		{g.LD, "(id -> id) ; id", "id -> id", g.RuleIdR},
	}
	for _, tt := range tests {
		got, rule, ok := g.Step(tt.sem, coercion(t, tt.in))
		if !ok || rule != tt.rule || !g.EqualCoercions(got, coercion(t, tt.want)) {
			t.Errorf("%s: step %s = %v %s %v, want %s by %s", tt.sem.Name(), tt.in, ok, rule, got, tt.want, tt.rule)
		}
	}
}

// TestSeq checks each clause of seq (spec §3.4) on a hand-picked instance.
func TestSeq(t *testing.T) {
	tests := []struct {
		clause int
		sems   []g.Semantics
		c1, c2 string
		want   string
	}{
		{1, g.Standard(), "id", "Int?^l", "Int?^l"},
		{2, g.Standard(), "Int!", "id", "Int!"},
		{3, g.Standard(), "Int!", "Int?^l", "id"},
		{3, g.Standard(), "Int!", "Bool?^l", "fail^l"},
		{4, g.Standard(), "Int! -> Int?^a", "Int?^b -> Int!", "(Int?^b ; Int!) -> (Int?^a ; Int!)"},
		{4, []g.Semantics{g.ED}, "Int?^a -> Bool!", "id -> Int?^b", "fail^b"},
		{4, []g.Semantics{g.LD}, "Int?^a -> Bool!", "id -> Int?^b", "Int?^a -> fail^b"},
		{5, g.Standard(), "fail^l", "Int!", "fail^l"},
		{6, g.Standard(), "Int!", "fail^l", "fail^l"},
		{7, []g.Semantics{g.LD, g.LUD}, "id -> id", "fail^l", "fail^l"},
		{11, []g.Semantics{g.ED, g.EUD}, "id -> id", "fail^l", "(id -> id) ; fail^l"},
		{8, g.Standard(), "Int?^a ; Int!", "Int?^b", "Int?^a"},
		{9, g.Standard(), "(Dyn -> Dyn)?^a", "(id -> id) ; (Dyn -> Dyn)!", "(Dyn -> Dyn)?^a ; (id -> id) ; (Dyn -> Dyn)!"},
		{10, g.Standard(), "Int!", "Int?^a ; Int!", "Int!"},
		{11, g.Standard(), "Int?^a", "Int!", "Int?^a ; Int!"},
	}
	for _, tt := range tests {
		for _, sem := range tt.sems {
			got := sem.Seq(coercion(t, tt.c1), coercion(t, tt.c2))
			if !g.EqualCoercions(got, coercion(t, tt.want)) {
				t.Errorf("clause %d, %s: seq(%s, %s) = %s, want %s", tt.clause, sem.Name(), tt.c1, tt.c2, g.FormatCoercion(got), tt.want)
			}
		}
	}
}

func TestNormalFormGrammars(t *testing.T) {
	tests := []struct {
		c           string
		lazy, eager bool
	}{
		{"id", true, true},
		{"Int!", true, true},
		{"fail^l", true, true},
		{"Int?^l ; fail^m", true, true},
		{"Int?^l ; (id -> id) ; Int!", true, true},
		{"fail^l -> id", true, false},
		{"(id -> id) ; fail^l", false, true},
		{"Int?^a ; (id -> id) ; fail^l", false, true},
		{"Int! ; Int?^l", false, false},
		{"id ; Int!", false, false},
		{"(Int?^l ; Int!) -> id", true, true},
	}
	for _, tt := range tests {
		c := coercion(t, tt.c)
		if got := g.IsLazyNormal(c); got != tt.lazy {
			t.Errorf("IsLazyNormal(%s) = %v", tt.c, got)
		}
		if got := g.IsEagerNormal(c); got != tt.eager {
			t.Errorf("IsEagerNormal(%s) = %v", tt.c, got)
		}
	}
}
