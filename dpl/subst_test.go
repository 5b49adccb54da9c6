package dpl_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// TestSubst: t[s/x] stops where x is rebound, and renames the binders that would
// capture a free variable of s.
func TestSubst(t *testing.T) {
	tests := []struct{ term, x, s, want string }{
		{"x + y", "x", "1", "1 + y"},
		{"let x:real = x in x", "x", "1", "let x:real = 1 in x"},
		{"let y:real = 1 in x + y", "x", "y", "let y2:real = 1 in y + y2"},
		{"1.rd[x](y:real. x * y)", "x", "y", "1.rd[y](y2:real. mul(<y, y2>))"},
		{"1.rd[x](x:real. x)", "x", "2", "1.rd[2](x:real. x)"},
		{"letrec f(x:real):real = x in f(x)", "x", "<1, 2>", "letrec f(x:real):real = x in f(<1, 2>)"},
		{"let z:real = 1 in <x, z>", "x", "z + 1", "let z2:real = 1 in <z + 1, z2>"},
	}
	for _, tt := range tests {
		got := dpl.Subst(mustParseGenerated(t, tt.term), tt.x, mustParseGenerated(t, tt.s))
		if want := mustParseGenerated(t, tt.want); !dpl.AlphaEqual(got, want) {
			t.Errorf("%s[%s/%s] = %s, want %s", tt.term, tt.s, tt.x, dpl.Format(got), tt.want)
		}
	}
	// A renamed binder gets a generated name, which no source name can be.
	got := dpl.Subst(mustParse(t, "let y:real = 1 in x + y"), "x", vr("y")).(*dpl.Let)
	if !dpl.IsGenerated(got.Name) {
		t.Errorf("the capturing binder became %s", got.Name)
	}
}

func TestSubstValues(t *testing.T) {
	rho := map[string]dpl.Term{"x": lit(1), "y": pair(lit(2), lit(3))}
	got := dpl.SubstValues(mustParse(t, "let x:real = x in x + fst(y) + z"), func(v string) (dpl.Term, bool) {
		t, ok := rho[v]
		return t, ok
	})
	if want := mustParse(t, "let x:real = 1 in x + fst(<2, 3>) + z"); !dpl.AlphaEqual(got, want) {
		t.Errorf("ρ(t) = %s", dpl.Format(got))
	}
}

// TestRenameBinders: every binder gets a fresh name, all different, and the term stays
// α-equivalent.
func TestRenameBinders(t *testing.T) {
	src := "let x:real = x in let x:real = x + 1 in 1.rd[x](x:real. let y:real = x in y) + (letrec f(x:real):real = x in f(x))"
	e := mustParse(t, src)
	r := dpl.RenameBinders(e, dpl.NewNames(e))
	if !dpl.AlphaEqual(e, r) {
		t.Fatalf("%s is not α-equivalent to %s", dpl.Format(r), src)
	}
	seen := map[string]bool{}
	var walk func(dpl.Term)
	walk = func(t1 dpl.Term) {
		var bound string
		switch n := t1.(type) {
		case *dpl.Let:
			bound = n.Name
		case *dpl.Rd:
			bound = n.Param
		case *dpl.Letrec:
			bound = n.Param
		}
		if bound != "" {
			if seen[bound] || !dpl.IsGenerated(bound) {
				t.Errorf("binder %s is not fresh in %s", bound, dpl.Format(r))
			}
			seen[bound] = true
		}
		for _, c := range dpl.Children(t1) {
			walk(c)
		}
	}
	walk(r)
	if len(seen) != 5 {
		t.Errorf("%d binders renamed, want 5", len(seen))
	}
}

func TestAlphaEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"let x:real = 1 in x", "let y:real = 1 in y", true},
		{"let x:real = 1 in y", "let y:real = 1 in y", false},
		{"let x = 1 in let y = 2 in x", "let y = 1 in let x = 2 in y", true},
		{"let x = 1 in let y = 2 in x", "let y = 1 in let x = 2 in x", false},
		{"let x:real = 1 in x", "let x:unit = 1 in x", false},
		{"let x = 1 in x", "let x:real = 1 in x", true}, // a missing let type is not compared
		{"letrec f(x:real):real = f(x) in f(1)", "letrec g(y:real):real = g(y) in g(1)", true},
		{"letrec f(x:real):real = f(x) in f(1)", "letrec g(y:real):real = f(y) in g(1)", false},
		{"f(1)", "g(1)", false},
		{"1.rd[2](x:real. x)", "1.rd[2](y:real. y)", true},
		{"1.rd[2](x:real. x)", "1.rd[2](y:real. x)", false},
		{"1.rd[2](x:real. x)", "1.rd[2](x:unit. x)", false},
		{"<1, 2>", "<1, 2>", true},
		{"sin(x)", "cos(x)", false},
		{"if true then 1 else 2", "if false then 1 else 2", false},
	}
	for _, tt := range tests {
		if got := dpl.AlphaEqual(mustParse(t, tt.a), mustParse(t, tt.b)); got != tt.want {
			t.Errorf("AlphaEqual(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
	if dpl.AlphaEqual(lit(0), lit(math.Copysign(0, -1))) {
		t.Errorf("0 and -0 are compared by value, not by their bits")
	}
	// No recursion: terms a million levels deep compare (10^5 under -short, deep
	// enough for the loop; the full run covers a million).
	levels := 1_000_000
	if testing.Short() {
		levels = 100_000
	}
	deep := func(leaf float64) dpl.Term {
		var e dpl.Term = lit(leaf)
		for range levels {
			e = &dpl.Let{Name: "x", T: dpl.Real, Bound: lit(1), Body: e}
		}
		return e
	}
	if !dpl.AlphaEqual(deep(1), deep(1)) || dpl.AlphaEqual(deep(1), deep(2)) {
		t.Errorf("deep terms compare wrongly")
	}
	// A let's body does not nest: a let-chain with leaves as bound terms has depth 2.
	if dpl.Depth(deep(1)) != 2 {
		t.Errorf("Depth of a long let-chain: %d, want 2", dpl.Depth(deep(1)))
	}
}

func TestDepth(t *testing.T) {
	neg, _ := dpl.LookupOperator("neg")
	negs := func(n int, e dpl.Term) dpl.Term {
		for range n {
			e = &dpl.OpApp{Op: neg, Arg: e}
		}
		return e
	}
	// let x = neg(neg(1)) in let y = 1 in neg(y): the first let is 1 + 3 deep, its body
	// (a let) max(1 + 1, 2) = 2 deep.
	tm := &dpl.Let{Name: "x", Bound: negs(2, lit(1)), Body: &dpl.Let{Name: "y", Bound: lit(1), Body: negs(1, &dpl.Var{Name: "y"})}}
	if d := dpl.Depth(tm); d != 4 {
		t.Errorf("Depth(%s) = %d, want 4", dpl.Format(tm), d)
	}
	// The bound terms nest: neg applied n times is n + 1 deep, and as the bound term of
	// a let, n + 2 (n is a million; 10^5 under -short, deep enough for the loop).
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	if d := dpl.Depth(negs(n, lit(1))); d != n+1 {
		t.Errorf("Depth of %d negs: %d, want %d", n, d, n+1)
	}
	if d := dpl.Depth(&dpl.Let{Name: "x", Bound: negs(n, lit(1)), Body: lit(1)}); d != n+2 {
		t.Errorf("Depth of a let of %d negs: %d, want %d", n, d, n+2)
	}
	// The body of a let-chain at its end nests from the chain's depth: 1 + 3.
	chain := negs(3, lit(1))
	for range 1000 {
		chain = &dpl.Let{Name: "x", Bound: lit(1), Body: chain}
	}
	if d := dpl.Depth(chain); d != 4 {
		t.Errorf("Depth of a chain ending in neg(neg(neg(1))): %d, want 4", d)
	}
	// Shared subterms: p(k+1) = <p(k), p(k)> is a tree of 2^k leaves but k + 1 deep.
	var p dpl.Term = lit(1)
	for range 100 {
		p = &dpl.Pair{X: p, Y: p}
	}
	if d := dpl.Depth(p); d != 101 {
		t.Errorf("Depth of 100 levels of shared pairs: %d, want 101", d)
	}
	shared := &dpl.Let{Name: "x", Bound: p, Body: &dpl.Let{Name: "y", Bound: lit(1), Body: p}}
	if d := dpl.Depth(shared); d != 102 {
		t.Errorf("Depth of a let-chain of shared pairs: %d, want 102", d)
	}
	// NestingDepth counts a let's body as nested: 1 + max(101, 1 + max(1, 101)).
	if d := dpl.NestingDepth(shared); d != 103 {
		t.Errorf("NestingDepth of a let-chain of shared pairs: %d, want 103", d)
	}
	// let x = 1 in 1 is 2 deep, and each let around it adds 1; the chain ending in
	// neg(neg(neg(1))) (4 deep) is 1000 + 4 deep.
	if d := dpl.NestingDepth(chain); d != 1004 {
		t.Errorf("NestingDepth of a chain of 1000 lets: %d, want 1004", d)
	}
	if d := dpl.NestingDepth(tm); d != 4 {
		t.Errorf("NestingDepth(%s) = %d, want 4", dpl.Format(tm), d)
	}
}

func TestFreeVars(t *testing.T) {
	fv := dpl.FreeVars(mustParse(t, "let x:real = y in x + z + 1.rd[x](w:real. w + v) + (letrec f(a:real):real = a in f(b))"))
	var got []string
	for _, x := range []string{"a", "b", "v", "w", "x", "y", "z"} {
		if fv[x] {
			got = append(got, x)
		}
	}
	if strings.Join(got, " ") != "b v y z" || len(fv) != 4 {
		t.Errorf("FV = %v, want b v y z", fv)
	}
	if !dpl.OccursFree("v", mustParse(t, "1.rd[2](w:real. w + v)")) || dpl.OccursFree("w", mustParse(t, "1.rd[2](w:real. w + v)")) {
		t.Errorf("OccursFree is wrong")
	}
}

// TestSubstClosure resolves the calls of f free in a term, not those under a letrec
// that rebinds f.
func TestSubstClosure(t *testing.T) {
	e := mustParse(t, "f(1) + (letrec f(x:real):real = f(x) in f(2)) + g(f(3))")
	clo := &dpl.Closure{Name: "f", Param: "x", ParamT: dpl.Real, ResT: dpl.Real, Body: vr("x")}
	r := dpl.SubstClosure(e, "f", clo)
	var resolved []string
	var walk func(dpl.Term)
	walk = func(t1 dpl.Term) {
		if c, ok := t1.(*dpl.Call); ok && c.Clo != nil {
			resolved = append(resolved, dpl.Format(c))
		}
		for _, c := range dpl.Children(t1) {
			walk(c)
		}
	}
	walk(r)
	if strings.Join(resolved, " ") != "f(1) f(3)" {
		t.Errorf("resolved calls %v, want f(1) f(3)", resolved)
	}
}

func TestNames(t *testing.T) {
	n := dpl.NewNames(mustParseGenerated(t, "let s#9:real = x#3 in s#9"))
	if got := n.Fresh("y"); got != "y#10" {
		t.Errorf("Fresh = %s, want y#10", got)
	}
	if got := n.Fresh("x#3"); got != "x#11" {
		t.Errorf("Fresh(x#3) = %s, want x#11", got)
	}
	if dpl.BaseName("x#11") != "x" || !dpl.IsGenerated("x#11") || dpl.IsGenerated("x'") {
		t.Errorf("BaseName or IsGenerated is wrong")
	}
}

func TestIsTrace(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"let s:real = x + 1 in mul(<s, fst(<x, ()>)>)", true},
		{"snd(p)", true},
		{"if true then 1 else 2", false},
		{"1.rd[2](x:real. x)", false},
		{"letrec f(x:real):real = x in 1", false},
		{"f(1)", false},
	} {
		if got := dpl.IsTrace(mustParse(t, tt.src)); got != tt.want {
			t.Errorf("IsTrace(%s) = %v", tt.src, got)
		}
	}
}

// TestLetChains runs the functions of subst.go on let-chains a million lets long (10^5
// under -short),
// which they walk in a loop: let a = y in ... (a million times) ... let y = 1 in
// (the same again) y + z.
func TestLetChains(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		// 10^5 lets already exercise the loops; the full run covers a million.
		n = 100_000
	}
	y, z := &dpl.Var{Name: "y"}, &dpl.Var{Name: "z"}
	var tail dpl.Term = &dpl.Plus{X: y, Y: z}
	for range n {
		tail = &dpl.Let{Name: "a", T: dpl.Real, Bound: y, Body: tail}
	}
	tail = &dpl.Let{Name: "y", T: dpl.Real, Bound: lit(1), Body: tail}
	chain := tail
	for range n {
		chain = &dpl.Let{Name: "a", T: dpl.Real, Bound: y, Body: chain}
	}
	if !dpl.OccursFree("y", chain) || !dpl.OccursFree("z", chain) || dpl.OccursFree("a", chain) {
		t.Errorf("OccursFree on a long chain")
	}
	if fv := dpl.FreeVars(chain); len(fv) != 2 || !fv["y"] || !fv["z"] {
		t.Errorf("FreeVars of a long chain: %v", fv)
	}
	// [2/y] replaces the first million bound terms, not those under let y = 1.
	check := func(what string, got dpl.Term) {
		t.Helper()
		for i := range 2*n + 1 {
			l := got.(*dpl.Let)
			want := dpl.Term(y)
			switch {
			case i < n:
				want = lit(2)
			case i == n:
				want = lit(1)
			}
			if !dpl.AlphaEqual(l.Bound, want) {
				t.Fatalf("%s: let %d binds %s", what, i, dpl.Format(l.Bound))
			}
			got = l.Body
		}
		if !dpl.AlphaEqual(got, &dpl.Plus{X: y, Y: z}) {
			t.Errorf("%s: the chain ends with %s", what, dpl.Format(got))
		}
	}
	check("Subst", dpl.Subst(chain, "y", lit(2)))
	check("SubstValues", dpl.SubstValues(chain, func(x string) (dpl.Term, bool) {
		if x == "y" {
			return lit(2), true
		}
		return nil, false
	}))
	// [w/z]: no binder of the chain is w, so nothing is renamed.
	if got := dpl.Subst(chain, "z", &dpl.Var{Name: "w"}); dpl.OccursFree("z", got) || !dpl.OccursFree("w", got) {
		t.Errorf("Subst of a variable on a long chain")
	}
}

// TestFreshCounts checks Fresh's digits, which count up in place, against strconv at
// every carry up to 100,000 and after a Reserve; and that a copy of a supply goes on
// on its own (its digits are not the original's).
func TestFreshCounts(t *testing.T) {
	var n dpl.Names
	for k := 1; k <= 100_000; k++ {
		if got, want := n.Fresh("a"), "a#"+strconv.Itoa(k); got != want {
			t.Fatalf("name %d: %s, want %s", k, got, want)
		}
	}
	n.Reserve("b#999999")
	if got := n.Fresh("c"); got != "c#1000000" {
		t.Errorf("after Reserve(b#999999): %s, want c#1000000", got)
	}
	copied := n
	a, b := n.Fresh("x"), copied.Fresh("y")
	if a != "x#1000001" || b != "y#1000001" {
		t.Errorf("a supply and its copy: %s and %s, want x#1000001 and y#1000001", a, b)
	}
	if got := n.Fresh("x"); got != "x#1000002" {
		t.Errorf("the supply after its copy went on: %s, want x#1000002", got)
	}
}

// TestLetChain links lets by hand: let x:real = 1, let y:real = 2 and the tail x + y
// make let x:real = 1 in let y:real = 2 in x + y, the lets themselves (not copies);
// no lets give the tail; and a chain is refused when it nests deeper than MaxDepth
// (Depth: a let's body is at the let's depth, so the chain is as deep as its tail, here
// MaxDepth sums of 1s, MaxDepth + 1 deep).
func TestLetChain(t *testing.T) {
	x := &dpl.Let{Name: "x", T: dpl.Real, Bound: lit(1)}
	y := &dpl.Let{Name: "y", T: dpl.Real, Bound: lit(2)}
	c, err := dpl.LetChain([]*dpl.Let{x, y}, &dpl.Plus{X: vr("x"), Y: vr("y")})
	if want := "let x:real = 1 in let y:real = 2 in x + y"; err != nil || c != x || dpl.Format(c) != want {
		t.Errorf("LetChain = %s, %v; want %s, made of the lets given", dpl.Format(c), err, want)
	}
	if c, err := dpl.LetChain(nil, lit(3)); err != nil || dpl.Format(c) != "3" {
		t.Errorf("LetChain of no lets = %v, %v; want 3", c, err)
	}
	var deep dpl.Term = lit(1)
	for range dpl.MaxDepth {
		deep = &dpl.Plus{X: deep, Y: lit(1)}
	}
	z := &dpl.Let{Name: "z", T: dpl.Real, Bound: lit(0)}
	if _, err := dpl.LetChain([]*dpl.Let{z}, deep); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("a chain whose tail is %d deep: %v, want too deep", dpl.MaxDepth+1, err)
	}
}
