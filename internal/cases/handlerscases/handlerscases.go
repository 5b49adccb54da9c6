// Package handlerscases holds programs of the language of reverse handlers with their
// answers and, where they do not depend on the differentiation strategy, their whole
// contraction sequences, derived by hand from the rules of handlers/doc.go and Fig. 7
// (handlers/rh.go), so that every stage's own tests check it against the definition
// directly. A program with an rd (rh/pure introduces one per handled variable) has a
// strategy-dependent sequence of term contractions; its command contractions (the
// rules cmd/*, heap/*, rh/*) are not, and the case lists those.
package handlerscases

import (
	"math"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
)

// Case is a program, its answer, and its contractions.
type Case struct {
	Name    string
	Program string
	// Observe is what run prints; empty when Approx gives the answer.
	Observe string
	// Approx is the answer's reals then the heap's, in declaration order, each to a
	// relative (or, near 0, absolute) 1e-12.
	Approx []float64
	// Rules is the whole contraction sequence (space-separated), when it does not
	// depend on the strategy; empty when unchecked.
	Rules string
	// Commands is the sequence of command contractions (cmd/*, heap/*, rh/*); "-" for
	// none, empty when unchecked.
	Commands string
}

// Derivation notation: RH^[V1, ..., Vm](<y1, ..., ym>. P); Qf_a, Qb_a the clauses of
// the layer on location a (programs.go); fresh names as b1, d1, z1, ...; a command
// let-tuple of n names is n + 1 cmd/let contractions (Def. 3.4), with a projection
// contraction before each of the last n. The inner RH of rh/op and rh/pure handles the
// new variable and the variables its body still mentions (handlers/rh.go); the tuple
// it returns is bound by one cmd/let, t, and taken apart in the final term: the term
// let <x0, ..., xk> = t in N is let (z_k = t), then fst and let for z_{k-1}, ..., z_1,
// then fst and let for x0, then snd and let for each of x1, ..., xk (dpl.LetTuple), and
// nothing when t is a 1-tuple; rh/op binds the first component before Qb with k fsts
// (proj_0 of a (k+1)-tuple, t itself for k = 0) and a cmd/let.

// Cases lists the programs; the derivation of each is in its comment.
var Cases = []Case{
	// Terms alone: [1 + 2] -plus-> [3].
	{Name: "pure", Program: `[1 + 2]`, Observe: "3", Rules: "plus", Commands: "-"},
	// let x <= [1 + 2] in [x + x] -plus-> let x <= [3] in ... -cmd/let-> [3 + 3] -plus-> [6]
	{Name: "command-let", Program: `let x <= [1 + 2] in [x + x]`, Observe: "6", Rules: "plus cmd/let plus", Commands: "cmd/let"},
	// The heap (Example 5.13): get -> [1], cmd/let, 1 + 1 -plus-> 2, put a = 2 -> [()],
	// cmd/let, get -> [2]. The answer shows the heap.
	{Name: "heap", Program: "heap a : real = 1\nlet v <= get[a]() in let u <= put[a](v + 1) in get[a]()",
		Observe: "2 with a = 2", Rules: "heap/get cmd/let plus heap/put cmd/let heap/get"},
	// spec §5: swish'(0) = sigm(0) + 0 · ... = 0.5
	{Name: "vector-swish", Program: `[1.rd[0](x:real. swish(x))]`, Observe: "0.5", Commands: "-"},
	// spec §5: y = 2x, y + x = 3x, derivative 3
	{Name: "vector-let", Program: `[1.rd[5](x:real. let y = x + x in y + x)]`, Observe: "3", Commands: "-"},
	// spec §5: the gradient of fst + snd is <1, 1>
	{Name: "vector-pair", Program: `[1.rd[<1, 2>](x:real*real. fst(x) + snd(x))]`, Observe: "<1, 1>", Commands: "-"},
	// rh/ret: rev handle(5) <x>. [x] -cmd/handle-> RH^[5](<x>. [x]) -rh/ret->
	// let r <= [5 * 2] in [r] -op-> let r <= [10] in [r] -cmd/let-> [10]
	{Name: "rh-ret", Program: `rev handle(5) <x>. [x] with { return o -> [o * 2] }`, Observe: "10",
		Rules: "cmd/handle rh/ret op cmd/let"},
	// rh/var: RH^[5](<x>. let y <= [x] in [y]) -rh/var-> RH^[5](<x>. [x]), then as rh-ret
	{Name: "rh-var", Program: `rev handle(5) <x>. let y <= [x] in [y] with { return o -> [o * 2] }`, Observe: "10",
		Rules: "cmd/handle rh/var rh/ret op cmd/let"},
	// rh/nest and rh/pure: H1 = {return o -> [o * 2]}, H2 = {return o -> [o + 1]}.
	// -cmd/handle-> RH1^[3](<x>. rev handle(x) <y>. [y] with H2)
	// -rh/nest-> RH1^[3](<x>. RH2^[x](<y>. [y]))
	// -rh/ret (inner)-> RH1^[3](<x>. let r <= [x + 1] in [r])
	// -rh/pure (M = x + 1; the rest, let r <= [u] in [r], does not mention x)->
	// let u <= [3 + 1] in let t <= RH1^[u](<u>. let r <= [u] in [r]) in [let w = t in w.rd[3](p. p + 1)]
	// -plus- -cmd/let-> ... RH1^[4](<u>. let r <= [u] in [r]) -rh/var-> RH1^[4](<u>. [u])
	// -rh/ret-> let r' <= [4 * 2] in [r'] -op- -cmd/let-> [8] -cmd/let (t)->
	// [let w = 8 in w.rd[3](p. p + 1)] = 8, term contractions only (the inner handle is
	// x ↦ x + 1, whose gradient at 3 for the cotangent 2 · 4 is 8).
	{Name: "rh-nest", Program: `rev handle(3) <x>. rev handle(x) <y>. [y] with { return o -> [o + 1] } with { return o -> [o * 2] }`,
		Observe: "8", Commands: "cmd/handle rh/nest rh/ret rh/pure cmd/let rh/var rh/ret cmd/let cmd/let"},
	// undefined in a backward clause: Qf = [<x, ()>], Qb = [log(y + -1)].
	// -cmd/handle-> RH^[1](<x>. f(x)) -rh/op-> let z1 <= [<1, ()>] in let b <= [fst(z1)] in
	// let d <= [snd(z1)] in let t <= RH^[b](<b>. [b]) in let b' <= [t] in
	// let a <= [log(b' + -1)] in [a] (the rest, [b], does not mention x)
	// -cmd/let -fst -cmd/let -snd -cmd/let-> let t <= RH^[1](<b>. [b]) in ...
	// -rh/ret-> let r <= [1] in [r] -cmd/let-> [1] -cmd/let (t) -cmd/let (b' = 1)->
	// let a <= [log(1 + -1)] in ... -plus-> log(0) -op-> undefined
	{Name: "undefined-backward", Program: "op f : real -> real\nrev handle(1) <x>. f(x) with { return o -> [o]; f(x) -> [<x, ()>] | y, z -> [log(y + -1)] }",
		Observe: "undefined",
		Rules:   "cmd/handle rh/op cmd/let fst cmd/let snd cmd/let rh/ret cmd/let cmd/let cmd/let plus op"},
	// undefined in a term: 0 + -1 -plus-> -1, log(-1) -op-> undefined
	{Name: "undefined", Program: `[log(0 + -1)]`, Observe: "undefined", Rules: "plus op"},
	// spec §5, two layers (forward 2, 6; output gradient 0.5 · (6 - 4) = 1; fcb puts
	// 3 - 1 · 2 = 1 and returns 3 · 1 = 3; fca puts 2 - 3 · 1 = -1 and returns 2 · 3 = 6).
	// After each operation the rest does not mention the operation's argument, so that
	// every inner RH handles its new variable alone:
	//  1 cmd/handle  RH^[1](<x>. let h <= fca(x) in fcb(h))
	//  2 rh/op       let <b1, d1> <= Qf_a[1/x] in let t1 <= RH^[b1](<b1>. let h <= [b1] in fcb(h))
	//                in let b1' <= [t1] in let a1 <= Qb_a[b1'/y, d1/z] in [a1]
	//  3 heap/get 4 cmd/let (w = 2) 5 op (2 · 1) 6 cmd/let (z1 = <2, <2, 1>>) 7 fst 8 cmd/let (b1 = 2)
	//  9 snd 10 cmd/let (d1 = <2, 1>)
	// 11 rh/var      RH^[2](<b1>. fcb(b1))
	// 12 rh/op       let <b3, d3> <= Qf_b[2/x] in let t3 <= RH^[b3](<b3>. [b3])
	//                in let b3' <= [t3] in let a2 <= Qb_b[b3'/y, d3/z] in [a2]
	// 13 heap/get 14 cmd/let (w = 3) 15 op (3 · 2) 16 cmd/let (z3) 17 fst 18 cmd/let (b3 = 6)
	// 19 snd 20 cmd/let (d3 = <3, 2>)
	// 21 rh/ret      let r <= [0.5 · (6 + neg(4))] in [r]
	// 22 op (neg 4) 23 plus (6 + -4) 24 op (0.5 · 2) 25 cmd/let (r = 1)
	// 26 cmd/let (t3 = 1) 27 cmd/let (b3' = 1)
	// Qb_b[1/y, <3, 2>/z]: 28 cmd/let 29 fst 30 cmd/let (w = 3) 31 snd 32 cmd/let (x = 2)
	// 33 op (1 · 2) 34 op (neg 2) 35 plus (3 + -2) 36 heap/put (b = 1) 37 cmd/let
	// 38 op (3 · 1) 39 cmd/let (a2 = 3): RH^[2] is [3]
	// 40 cmd/let (t1 = 3) 41 cmd/let (b1' = 3)
	// Qb_a[3/y, <2, 1>/z]: 42 cmd/let 43 fst 44 cmd/let (w = 2) 45 snd 46 cmd/let (x = 1)
	// 47 op (3 · 1) 48 op (neg 3) 49 plus (2 + -3) 50 heap/put (a = -1) 51 cmd/let
	// 52 op (2 · 3) 53 cmd/let (a1 = 6): [6]
	{Name: "vector-two-layers", Program: TwoLayers, Observe: "6 with a = -1, b = 1",
		Rules: "cmd/handle rh/op heap/get cmd/let op cmd/let fst cmd/let snd cmd/let " +
			"rh/var rh/op heap/get cmd/let op cmd/let fst cmd/let snd cmd/let " +
			"rh/ret op plus op cmd/let cmd/let cmd/let " +
			"cmd/let fst cmd/let snd cmd/let op op plus heap/put cmd/let op cmd/let " +
			"cmd/let cmd/let " +
			"cmd/let fst cmd/let snd cmd/let op op plus heap/put cmd/let op cmd/let"},
	// spec §5, two inputs: forward h = 2, output 3, gradient 0.5 · (3 - 4) = -0.5 for
	// both h and x2; fca puts 2 - (-0.5) · 1 = 2.5 and returns 2 · -0.5 = -1.
	// cmd/handle; rh/op on fca(x1) (the rest mentions b1 and x2, not x1): heap/get,
	// cmd/let (w), cmd/let z1 b1 d1 (3); RH^[2, 1](<b1, x2>. let h <= [b1] in [h + x2])
	// -rh/var-> ... [b1 + x2] -rh/pure (the rest, [u], mentions neither)-> let u <= [2 + 1]
	// in let t2 <= RH^[u](<u>. [u]) in [let w = t2 in <w.rd[2](.), w.rd[1](.)>]: cmd/let
	// (u = 3); rh/ret, cmd/let (r = -0.5), cmd/let (t2); then rh/op's cmd/let (t) and
	// cmd/let (b' after fst); Qb_a: 3 cmd/let, heap/put, cmd/let (u), cmd/let (a1); the
	// gradient is <a1, x2'> = <2 · -0.5, -0.5>.
	{Name: "vector-two-inputs", Program: TwoInputs, Observe: "<-1, -0.5> with a = 2.5",
		Commands: "cmd/handle rh/op heap/get cmd/let cmd/let cmd/let cmd/let rh/var rh/pure cmd/let rh/ret cmd/let " +
			"cmd/let cmd/let cmd/let cmd/let cmd/let cmd/let " +
			"heap/put cmd/let cmd/let"},
	// spec §5, the MLP: values from the spec's independent model, which this
	// computation reproduces (in Python, outside the code under test):
	//   zh = W0·x = <-0.1, 1.2>, xh = swish(zh), zo = W1·xh, g = 0.1 (zo - 0.5),
	//   W1' = W1 - g xhᵀ, gzh_i = W1_i g swish'(zh_i), W0' = W0 - gzh xᵀ, result W0ᵀ gzh.
	{Name: "vector-mlp", Program: MLP, Approx: []float64{
		0.0823868292454571, 0.04871052589938514,
		0.5661501613835785, -0.16769967723284296, 0.6556726125784421, -0.08865477484311585,
		0.9930184679598633, -0.864456960414137}},
}

// IsCommandRule reports whether a rule is a command contraction (cmd/*, heap/*, rh/*).
func IsCommandRule(r string) bool {
	return strings.HasPrefix(r, "cmd/") || strings.HasPrefix(r, "heap/") || strings.HasPrefix(r, "rh/")
}

// Load parses and checks a case's program.
func Load(t testing.TB, src string) *handlers.Program {
	t.Helper()
	p, err := handlers.Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if _, err := handlers.Check(p); err != nil {
		t.Fatalf("check: %v", err)
	}
	return p
}

// Reals flattens the reals of an answer: its value's, then its heap's in order.
func Reals(a handlers.Answer) []float64 {
	var out []float64
	var walk func(t dpl.Term)
	walk = func(t dpl.Term) {
		switch t := t.(type) {
		case *dpl.RealLit:
			out = append(out, t.R)
		case *dpl.Pair:
			walk(t.X)
			walk(t.Y)
		}
	}
	walk(a.Value)
	for _, c := range a.Heap {
		walk(c.Value)
	}
	return out
}

// Close reports whether got is within 1e-12 of want, relatively (absolutely near 0).
func Close(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// Run checks a stage against every case under every strategy.
func Run(t *testing.T, stage handlers.Stage) {
	t.Helper()
	for _, ad := range dpl.Differentiators() {
		for _, c := range Cases {
			p := Load(t, c.Program)
			var rules []string
			a, err := stage.Eval(ad, p, interderive.Options{OnContract: func(r string) { rules = append(rules, r) }})
			if err != nil {
				t.Errorf("%s under %s: %v", c.Name, ad.Name(), err)
				continue
			}
			Check(t, c, ad.Name(), a, rules)
		}
	}
}

// Check compares an answer and its contractions with a case.
func Check(t *testing.T, c Case, ad string, a handlers.Answer, rules []string) {
	t.Helper()
	if c.Approx != nil {
		got := Reals(a)
		if a.Undefined != nil || len(got) != len(c.Approx) {
			t.Errorf("%s under %s: %s, want %d reals", c.Name, ad, a, len(c.Approx))
		} else {
			for i := range got {
				if !Close(got[i], c.Approx[i]) {
					t.Errorf("%s under %s: real %d is %v, want %v", c.Name, ad, i, got[i], c.Approx[i])
				}
			}
		}
	} else if got := a.Observe(); got != c.Observe {
		t.Errorf("%s under %s: %s, want %s", c.Name, ad, got, c.Observe)
	}
	if c.Rules != "" {
		if got := strings.Join(rules, " "); got != c.Rules {
			t.Errorf("%s under %s: contractions\n  %s\nwant\n  %s", c.Name, ad, got, c.Rules)
		}
	}
	if c.Commands != "" {
		var cmds []string
		for _, r := range rules {
			if IsCommandRule(r) {
				cmds = append(cmds, r)
			}
		}
		got := strings.Join(cmds, " ")
		if got == "" {
			got = "-"
		}
		if got != c.Commands {
			t.Errorf("%s under %s: command contractions\n  %s\nwant\n  %s", c.Name, ad, got, c.Commands)
		}
	}
}
