package abductive_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func parse(t *testing.T, src string) abductive.Expr {
	t.Helper()
	e, err := abductive.Parse([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return e
}

// TestFormat: programs print with as few parentheses as the grammar allows, sugar
// kept (the expected forms are the grammar of doc.go applied by hand; numbers in Go's
// shortest format).
func TestFormat(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`1 + 2 * 3`, `1 + 2 * 3`},
		{`(1 + 2) * 3`, `(1 + 2) * 3`},
		{`1 - (2 - 3)`, `1 - (2 - 3)`},
		{`p.p`, `p . p`},
		{`2.p`, `2 . p`},
		{`0.5 * 1e-3 + 1e21`, `0.5 * 0.001 + 1e+21`},
		{`{-2} + {0.5}`, `{-2} + {0.5}`},
		{`f -2`, `f - 2`},
		{`f (-2)`, `f (-2)`},
		{`g + L`, `g + L`},
		{`g +L 0 * p`, `g +L 0 * p`},
		{`(g +L v) *L h`, `(g +L v) *L h`},
		{`g *L (h +L v)`, `g *L (h +L v)`},
		{`\x : V -> F . x`, `\x:V -> F. x`},
		{`λx:(V -> V) -> F. x`, `\x:(V -> V) -> F. x`},
		{`let f @ p = {1} + 2 in f p`, `let f @ p = {1} + 2 in f p`},
		{`(abduct f, p. f p) {1}`, `(abduct f, p. f p) {1}`},
		{`1 + let f @ p = 1 in p . p`, `1 + let f @ p = 1 in p . p`},
		{`(let f @ p = 1 in p . p) + 1`, `(let f @ p = 1 in p . p) + 1`},
		{`let m x:F y:F = x + y in m`, `let m = \x:F. \y:F. x + y in m`},
		{`f (\x:F. x)`, `f \x:F. x`},
		{"-- a comment\n1 -- another\n", `1`},
	} {
		if got := abductive.Format(parse(t, tt.src)); got != tt.want {
			t.Errorf("%s prints as %s, want %s", tt.src, got, tt.want)
		}
	}
}

// TestLabels: Parse labels the provisional constants in source order, and σ is
// their values.
func TestLabels(t *testing.T) {
	e := parse(t, `let y = {2} + 1 in let m x:F = {3} + y + x in let f @ p = m in f p 7`)
	if got := abductive.Sigma(e); len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("σ = %v, want [2 3]", got)
	}
	// The model of a let @ comes before its body in the source: ℓ1 is {5}.
	e = parse(t, `(abduct f, p. {4}) {5}`)
	if got := abductive.Sigma(e); len(got) != 2 || got[0] != 4 || got[1] != 5 {
		t.Errorf("σ = %v, want [4 5]", got)
	}
	e = parse(t, `let f @ p = {5} in {4}`)
	if got := abductive.Sigma(e); len(got) != 2 || got[0] != 5 || got[1] != 4 {
		t.Errorf("σ = %v, want [5 4]", got)
	}
}

// wantError checks that err is a list of positioned errors whose first is at pos and
// says msg.
func wantError(t *testing.T, src string, err error, pos, msg string) {
	t.Helper()
	var list interderive.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Errorf("%s: %v, want an error at %s", src, err, pos)
		return
	}
	if got := list[0].Pos.String(); got != pos || !strings.Contains(list[0].Msg, msg) {
		t.Errorf("%s: %s: %s, want %s: ...%s...", src, got, list[0].Msg, pos, msg)
	}
}

// TestParseErrors: syntax errors are positioned at the token at fault.
func TestParseErrors(t *testing.T) {
	deep := strings.Repeat("(", abductive.MaxNesting+1) + "1" + strings.Repeat(")", abductive.MaxNesting+1)
	chain := "f" + strings.Repeat(" x", abductive.MaxNesting)
	for _, tt := range []struct{ src, pos, msg string }{
		{`1 +`, "1:4", "expected an expression"},
		{`{x}`, "1:2", "a numeral in the provisional constant"},
		{`{1`, "1:3", "} after the provisional constant"},
		{`abduct f p. p`, "1:10", "expected ','"},
		{`let f @ = 1 in f`, "1:9", "the parameters' name after @"},
		{`let f x = 1 in f`, "1:9", "':' and the type of x"},
		{`\x. x`, "1:3", "the parameter needs a type"},
		{`let x:F = 1 in x`, "1:6", "a let takes no type"},
		{`\x:Int. x`, "1:4", "expected a type"},
		{`1e999`, "1:1", "out of range"},
		{`1 # 2`, "1:3", `unexpected character '#'`},
		{`(1`, "1:3", "expected ), found end of input"},
		{"1\x00", "1:2", "illegal NUL character"},
		{deep, "1:65537", "nests too deeply"},
		{chain, "1:1", "nests too deeply"},
	} {
		_, err := abductive.Parse([]byte(tt.src))
		wantError(t, tt.src[:min(len(tt.src), 40)], err, tt.pos, tt.msg)
	}
}

// TestTypeErrors: a program without a type is an error at the subterm at fault
// (positions counted by hand: a decoupling's is its let's or abduct's).
func TestTypeErrors(t *testing.T) {
	for _, tt := range []struct{ src, pos, msg string }{
		{`1 2`, "1:1", "applied, but of type F, not a function"},
		{`x`, "1:1", "unbound variable x"},
		// The optimiser escapes: f's type V_p -> F mentions V_p.
		{`let f @ p = {1} in f`, "1:1", "V_p escapes it: its body has type V_p -> F"},
		{`let f @ p = {1} in p`, "1:1", "V_p escapes it: its body has type V_p"},
		{`let opt = \m:F. (let f @ p = m in f) in opt {1}`, "1:18", "V_p escapes"},
		// Two decouplings' vectors mixed: q (1:43) has type V_q, p has V_p.
		{`let f @ p = {1} in let g @ q = {2} in p . q`, "1:43", "the vectors of two decouplings are mixed"},
		{`let f @ p = {1} in let g @ q = {2} in f q`, "1:41", "the vectors of two decouplings are mixed"},
		// v is free in the decoupling, and v + p makes its type V_p.
		{`\v:V. let f @ p = {1} in (v + p) . p`, "1:7", "the free variable v has type V_p"},
		{`\x:F. x . x`, "1:7", "an operand of . has type F, not a vector type"},
		{`let f @ p = {1} in f 2`, "1:22", "the argument has type F, but the function takes V_p"},
		{`let f @ p = {1} in p - p`, "1:20", "an operand of - has type V_p, not F"},
		{`let f @ p = {1} in p * p . p`, "1:20", "an operand of * has type V_p, not F"},
		{`\g:V -> V. g +L 1`, "1:17", "an operand of +L has type F, not a vector type"},
		{`let f @ p = {1} in (\e:V. e . p) +L p`, "1:21", "an operand of +L has type V_p -> F, not V_p -> V_p"},
		{`let f @ p = {1} in (\e:V. e) *L p`, "1:21", "an operand of *L has type V_p -> V_p, not V_p -> F"},
		{`(\x:V. x) 1`, "1:11", "the argument has type F, but the function takes V"},
	} {
		_, err := abductive.TypeOf(parse(t, tt.src))
		wantError(t, tt.src, err, tt.pos, tt.msg)
	}
}

// TestTypeOf: the types of well-typed programs, by the rules of doc.go.
func TestTypeOf(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`{1} + 2`, "F"},
		{`let f @ p = {1} + 2 in f p`, "F"},
		{`let y = {2} + 1 in let m x:F = {3} + y + x in let f @ p = m in f p 7`, "F"},
		{`let f @ p = \x:F. {1} * x in f (2 * p)`, "F -> F"},
		{`\x:V. x`, "V -> V"},
		// The model's type is known from the body: f p + 1 is on F.
		{`abduct f, p. f p + 1`, "F -> F"},
		{`let f @ p = {1} in ((\e:V. e) +L p) . p`, "F"},
		{`let f @ p = {1} in (\e:V. e . p) *L p . p`, "F"},
		// A model that is a vector of an outer decoupling (V_q is not the inner one's).
		{`let g @ q = {1} in let f @ p = q in (f p) . q`, "F"},
		{`let g @ q = (let f @ p = {1} in f ({2} * p)) in g q`, "F"},
	} {
		ty, err := abductive.TypeOf(parse(t, tt.src))
		if err != nil || abductive.FormatType(ty) != tt.want {
			t.Errorf("%s : %v (%v), want %s", tt.src, ty, err, tt.want)
		}
	}
}

// Values built by hand, for the meta-level pieces.
func num(v float64, foot ...int) *abductive.Num {
	return &abductive.Num{V: v, Foot: abductive.Footprint(foot)}
}

func label(n int) *abductive.Label { return &abductive.Label{N: n, Foot: abductive.Single(n)} }

func vec(foot abductive.Footprint, elems ...abductive.Expr) *abductive.Vec {
	return &abductive.Vec{Elems: elems, Foot: foot}
}

// TestDelta: δ on ground values and vectors (results computed by hand).
func TestDelta(t *testing.T) {
	for _, tt := range []struct {
		name string
		op   abductive.Op
		x, y abductive.Expr
		want string
	}{
		{"numbers", abductive.OpAdd, num(1), num(2), "3"},
		{"residual", abductive.OpAdd, label(1), num(2), "⟨ℓ1 + 2⟩"},
		{"footprints-union", abductive.OpMul, num(2, 3), num(3), "6^{ℓ3}"},
		{"nested-residual", abductive.OpMul, &abductive.Resid{Op: abductive.OpAdd, X: label(1), Y: num(2), Foot: abductive.Single(1)}, label(2), "⟨(ℓ1 + 2) * ℓ2⟩"},
		{"divide", abductive.OpDiv, num(1), num(4), "0.25"},
		// 1*3 + 2*4 = 11
		{"dot", abductive.OpDot, vec(nil, num(1), num(2)), vec(nil, num(3), num(4)), "11"},
		{"dot-empty", abductive.OpDot, vec(nil), vec(nil), "0"},
		{"dot-footprint", abductive.OpDot, vec(abductive.Single(1), num(1)), vec(nil, num(1)), "1^{ℓ1}"},
		{"dot-residual", abductive.OpDot, vec(abductive.Single(1), label(1)), vec(nil, num(1)), "⟨ℓ1 * 1⟩"},
		{"vector-sum", abductive.OpAdd, vec(abductive.Single(2), num(1), label(2)), vec(abductive.Single(1), num(3), num(4)), "[4, ⟨ℓ2 + 4⟩]^{ℓ1, ℓ2}"},
		{"scaling", abductive.OpMul, label(2), vec(abductive.Single(1), num(1)), "[⟨ℓ2 * 1⟩]^{ℓ1, ℓ2}"},
	} {
		got, ok := abductive.Delta(abductive.Pos{}, tt.op, tt.x, tt.y)
		if !ok || abductive.Format(got) != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, abductive.Format(got), tt.want)
		}
	}
	for _, tt := range []struct {
		name string
		op   abductive.Op
		x, y abductive.Expr
	}{
		{"lengths", abductive.OpAdd, vec(nil, num(1)), vec(nil)},
		{"vector-minus", abductive.OpSub, vec(nil), vec(nil)},
		{"scaling-right", abductive.OpMul, vec(nil), num(1)},
		{"dot-numbers", abductive.OpDot, num(1), num(1)},
	} {
		if got, ok := abductive.Delta(abductive.Pos{}, tt.op, tt.x, tt.y); ok {
			t.Errorf("%s: %v, want no δ", tt.name, got)
		}
	}
}

// TestDecouple: the parameterised model and the parameters (doc.go, "Decoupling").
func TestDecouple(t *testing.T) {
	resid := func(op abductive.Op, x, y abductive.Expr) *abductive.Resid {
		r, _ := abductive.Delta(abductive.Pos{}, op, x, y)
		return r.(*abductive.Resid)
	}
	// E3's model: \x:F. {3} + y + x with y := ⟨ℓ1 + 1⟩; {3} is ℓ2. σ = [2, 3].
	m3 := &abductive.Lam{Param: "x", T: abductive.Field, Body: &abductive.Binary{Op: abductive.OpAdd,
		X: &abductive.Binary{Op: abductive.OpAdd, X: &abductive.Param{R: 3, Label: 2}, Y: resid(abductive.OpAdd, label(1), num(1))},
		Y: &abductive.Var{Name: "x"}}}
	for _, tt := range []struct {
		name    string
		sigma   abductive.Store
		m       abductive.Expr
		f, p    string
		summary string
	}{
		{"E1", abductive.Store{1}, resid(abductive.OpAdd, label(1), num(2)), `\y:V. y . [1] + 2`, `[1]^{ℓ1}`, ""},
		{"E5a", abductive.Store{1}, num(0, 1), `\y:V. 0`, `[1]^{ℓ1}`, ""},
		{"E5b", nil, num(0), `\y:V. 0`, `[]`, ""},
		{"E4b", abductive.Store{1, 1}, resid(abductive.OpAdd, label(1), label(2)), `\y:V. y . [1, 0] + y . [0, 1]`, `[1, 1]^{ℓ1, ℓ2}`, ""},
		{"E3", abductive.Store{2, 3}, m3, `\y:V. \x:F. y . [0, 1] + (y . [1, 0] + 1) + x`, `[2, 3]^{ℓ1, ℓ2}`, ""},
		// y is taken in the model: y'.
		{"fresh", abductive.Store{1}, &abductive.Lam{Param: "y", T: abductive.Field, Body: &abductive.Param{R: 1, Label: 1}}, `\y':V. \y:F. y' . [1]`, `[1]^{ℓ1}`, ""},
	} {
		f, p := abductive.Decouple(abductive.Pos{}, tt.sigma, tt.m)
		if got := abductive.Format(f); got != tt.f {
			t.Errorf("%s: the model is %s, want %s", tt.name, got, tt.f)
		}
		if got := abductive.Format(p); got != tt.p {
			t.Errorf("%s: the parameters are %s, want %s", tt.name, got, tt.p)
		}
		if len(abductive.FootprintOf(f)) != 0 {
			t.Errorf("%s: the model has footprint %v", tt.name, abductive.FootprintOf(f))
		}
	}
}

// TestIterate: the unfoldings of an iterator (doc.go, "iterate").
func TestIterate(t *testing.T) {
	g := parse(t, `\e:V. e`)
	g5 := parse(t, `\e:V. {5} . e`) // footprint {ℓ1}
	for _, tt := range []struct {
		name  string
		op    abductive.Op
		from  int
		g, v0 abductive.Expr
		want  string
	}{
		{"first", abductive.OpIterAdd, 0, g, vec(nil, num(5), num(6)), `(\e:V. e) [1, 0] + ((\e:V. e) +L[1] [5, 6])`},
		{"second", abductive.OpIterAdd, 1, g, vec(nil, num(5), num(6)), `(\e:V. e) [0, 1] + ((\e:V. e) +L[2] [5, 6])`},
		{"base", abductive.OpIterAdd, 2, g, vec(nil, num(5), num(6)), `[5, 6]`},
		{"base-footprint", abductive.OpIterMul, 0, g5, vec(nil), `[]^{ℓ1}`},
		{"scaling", abductive.OpIterMul, 0, g5, vec(nil, num(7)), `(\e:V. {5} . e) [1] * ((\e:V. {5} . e) *L[1] [7])`},
	} {
		got, ok := abductive.Iterate(abductive.Pos{}, tt.op, tt.from, tt.g, tt.v0)
		if !ok || abductive.Format(got) != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, abductive.Format(got), tt.want)
		}
	}
}

// TestObserve: what a run prints (doc.go, "Observation").
func TestObserve(t *testing.T) {
	r, _ := abductive.Delta(abductive.Pos{}, abductive.OpAdd, label(1), num(2))
	for _, tt := range []struct {
		name  string
		v     abductive.Expr
		sigma abductive.Store
		want  string
	}{
		{"residual", r, abductive.Store{1}, "3"},
		{"label", label(2), abductive.Store{1, 0.5}, "0.5"},
		{"vector", vec(abductive.Single(1), label(1), num(2)), abductive.Store{-1}, "[-1, 2]"},
		{"function", parse(t, `\x:F. x`), nil, "function"},
		{"abduct", parse(t, `abduct f, p. p . p`), nil, "function"},
		{"infinity", num(math.Inf(1)), nil, "+Inf"},
		{"negative-zero", num(math.Copysign(0, -1)), nil, "-0"},
	} {
		if got := (abductive.Answer{Value: tt.v, Sigma: tt.sigma}).Observe(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestFootprintOf: a function's footprint is its body's labels and its captured
// values' footprints.
func TestFootprintOf(t *testing.T) {
	body := &abductive.Binary{Op: abductive.OpAdd, X: &abductive.Param{R: 5, Label: 3}, Y: num(1, 1)}
	l := &abductive.Lam{Param: "x", T: abductive.Field, Body: body, Foot: abductive.Single(2)}
	if got := abductive.FootprintOf(l).String(); got != "{ℓ1, ℓ2, ℓ3}" {
		t.Errorf("footprint %s, want {ℓ1, ℓ2, ℓ3}", got)
	}
	if got := abductive.Union(abductive.Footprint{1, 4}, abductive.Footprint{2, 4, 5}).String(); got != "{ℓ1, ℓ2, ℓ4, ℓ5}" {
		t.Errorf("union %s", got)
	}
}

// TestSubst: substitution of closed values stops where the variable is rebound.
func TestSubst(t *testing.T) {
	one := num(1)
	for _, tt := range []struct{ src, x, want string }{
		{`\y:F. x + y`, "x", `\y:F. 1 + y`},
		{`\x:F. x`, "x", `\x:F. x`},
		{`let x = x in x`, "x", `let x = 1 in x`},
		{`abduct x, p. x p`, "x", `abduct x, p. x p`},
		{`abduct f, x. x`, "x", `abduct f, x. x`},
		{`abduct f, p. x`, "x", `abduct f, p. 1`},
		{`let f @ p = x in x`, "x", `let f @ p = 1 in 1`},
	} {
		if got := abductive.Format(abductive.Subst(parse(t, tt.src), tt.x, one)); got != tt.want {
			t.Errorf("(%s)[%s := 1] = %s, want %s", tt.src, tt.x, got, tt.want)
		}
	}
}

// TestAlphaEqual: equality up to renaming of bound variables.
func TestAlphaEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{`\x:F. x`, `\y:F. y`, true},
		{`\x:F. \y:F. x`, `\x:F. \y:F. y`, false},
		{`\x:F. x`, `\x:V. x`, false},
		{`abduct f, p. f p`, `abduct g, q. g q`, true},
		{`abduct f, p. f p`, `abduct p, f. f p`, false},
		{`abduct f, f. f`, `abduct g, q. q`, true},
		{`{1}`, `{2}`, false},
		{`{1} + {1}`, `{1} + {1}`, true},
		{`1 + 2`, `1 - 2`, false},
	} {
		if got := abductive.AlphaEqual(parse(t, tt.a), parse(t, tt.b)); got != tt.want {
			t.Errorf("AlphaEqual(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
}

// TestFreeVars: the free variables, by the binders of doc.go.
func TestFreeVars(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`\x:F. x + y`, "y"},
		{`let x = x in x z`, "x z"},
		{`abduct f, p. f p q`, "q"},
		{`let f @ p = f in p`, "f"},
	} {
		fv := abductive.FreeVars(parse(t, tt.src))
		names := strings.Fields(tt.want)
		for _, x := range names {
			if !fv[x] {
				t.Errorf("%s: %s is not free (%v)", tt.src, x, fv)
			}
		}
		if len(fv) != len(names) {
			t.Errorf("%s: free %v, want %v", tt.src, fv, names)
		}
	}
}

// FuzzParse: the parser never panics; what it accepts prints as a program that parses
// back to it; the type checker never panics either.
func FuzzParse(f *testing.F) {
	testenv.AddFiles(f, "../testdata/abductive/*.abd")
	f.Add([]byte(`let g @ q = (let f @ p = {1} in f ({2} * p)) in g q`))
	f.Add([]byte(`let f @ p = {1} in ((\e:V. e) +L p) . p`))
	f.Fuzz(func(t *testing.T, src []byte) {
		e, err := abductive.Parse(src)
		if err != nil {
			return
		}
		_, _ = abductive.TypeOf(e)
		text := abductive.Format(e)
		back, err := abductive.Parse([]byte(text))
		if err != nil || !abductive.AlphaEqual(e, back) {
			t.Fatalf("%q prints as %q, which reads back as %v (%v)", src, text, back, err)
		}
	})
}

// TestCorpusStatic: every corpus program parses, and type-checks exactly when it does
// not expect a type error (the runs are the stages' and the calculus's tests).
func TestCorpusStatic(t *testing.T) {
	files, err := filepath.Glob("../testdata/abductive/*.abd")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		e, err := abductive.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		_, err = abductive.TypeOf(e)
		if want := strings.Contains(string(src), "-- expect: type error"); (err != nil) != want {
			t.Errorf("%s: type error %v, want one: %v", file, err, want)
		}
	}
}
