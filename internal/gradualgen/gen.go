// Package gradualgen generates random well-typed types, coercions and programs of the
// gradual calculi for property tests (rapid). Generators are type-directed, so every
// program they produce type-checks by construction; rapid shrinks failures through
// the choices they draw.
package gradualgen

import (
	"fmt"

	g "github.com/interderive/interderive/gradual"
	"pgregory.net/rapid"
)

// Type draws a type of at most the given depth. (rapid favours small draws, so the
// arrow, which makes the interesting casts, comes first.)
func Type(t *rapid.T, depth int, label string) g.Type {
	k := rapid.IntRange(0, 3).Draw(t, label)
	if depth <= 0 && k == 0 {
		k = rapid.IntRange(1, 3).Draw(t, label+"-base")
	}
	switch k {
	case 1:
		return g.Int
	case 2:
		return g.Bool
	case 3:
		return g.Dyn
	}
	return g.Fn(Type(t, depth-1, label+"-dom"), Type(t, depth-1, label+"-cod"))
}

// TypeGen is Type as a rapid generator.
func TypeGen(depth int) *rapid.Generator[g.Type] {
	return rapid.Custom(func(t *rapid.T) g.Type { return Type(t, depth, "type") })
}

// Consistent draws a type consistent with t.
func Consistent(t *rapid.T, ty g.Type, depth int, label string) g.Type {
	if rapid.IntRange(0, 4).Draw(t, label) == 4 {
		return g.Dyn
	}
	switch ty := ty.(type) {
	case g.DynType:
		return Type(t, depth, label+"-any")
	case *g.Arrow:
		return g.Fn(Consistent(t, ty.From, depth-1, label+"-dom"), Consistent(t, ty.To, depth-1, label+"-cod"))
	}
	return ty
}

// Injectable tells which types a strategy injects into Dyn.
type Injectable func(g.Type) bool

// D injects every type but Dyn; UD only the ground types.
var (
	D  Injectable = func(t g.Type) bool { return t != g.Dyn }
	UD Injectable = g.IsGround
)

// For returns the injectable types of a standard semantics.
func For(sem g.Semantics) Injectable {
	if sem == g.LUD || sem == g.EUD {
		return UD
	}
	return D
}

var labels = []g.Label{"l1", "l2", "l3"}

// Label draws a blame label.
func Label(t *rapid.T, name string) g.Label {
	return rapid.SampledFrom(labels).Draw(t, name)
}

// Coercion draws a well-typed coercion c : s => u, using only the injections inj
// allows.
func Coercion(t *rapid.T, s, u g.Type, inj Injectable, depth int) g.Coercion {
	type option func() g.Coercion
	var opts []option
	if g.Identical(s, u) {
		opts = append(opts, func() g.Coercion { return g.Id })
	}
	if u == g.Dyn && s != g.Dyn && inj(s) {
		opts = append(opts, func() g.Coercion { return &g.Inj{T: s} })
	}
	if s == g.Dyn && u != g.Dyn && inj(u) {
		opts = append(opts, func() g.Coercion { return &g.Proj{T: u, L: Label(t, "proj")} })
	}
	sa, sArrow := s.(*g.Arrow)
	ua, uArrow := u.(*g.Arrow)
	if sArrow && uArrow {
		opts = append(opts, func() g.Coercion {
			return &g.Func{Dom: Coercion(t, ua.From, sa.From, inj, depth-1), Cod: Coercion(t, sa.To, ua.To, inj, depth-1)}
		})
	}
	if depth > 0 {
		if s == g.Dyn && uArrow && !inj(u) { // through the ground type Dyn -> Dyn
			opts = append(opts, func() g.Coercion {
				return g.Then(&g.Proj{T: g.DynDyn, L: Label(t, "proj")}, Coercion(t, g.DynDyn, u, inj, depth-1))
			})
		}
		if u == g.Dyn && sArrow && !inj(s) {
			opts = append(opts, func() g.Coercion {
				return g.Then(Coercion(t, s, g.DynDyn, inj, depth-1), &g.Inj{T: g.DynDyn})
			})
		}
		opts = append(opts, func() g.Coercion {
			m := Consistent(t, s, 2, "middle")
			if rapid.Bool().Draw(t, "middle-from-target") {
				m = Consistent(t, u, 2, "middle")
			}
			return g.Then(Coercion(t, s, m, inj, depth-1), Coercion(t, m, u, inj, depth-1))
		})
	}
	// fail^l has every type: it is always possible, but drawn rarely unless nothing
	// else fits.
	fail := func() g.Coercion { return &g.Fail{L: Label(t, "fail")} }
	if len(opts) == 0 || rapid.IntRange(0, 15).Draw(t, "fail?") == 15 {
		return fail()
	}
	return opts[rapid.IntRange(0, len(opts)-1).Draw(t, "coercion")]()
}

// Normal draws a well-typed coercion s => u and normalises it under sem: a random
// well-typed normal form of sem.
func Normal(t *rapid.T, sem g.Semantics, s, u g.Type, depth int) g.Coercion {
	c := Coercion(t, s, u, For(sem), depth)
	n, _, ok := g.Normalize(sem, c, 10_000)
	if !ok {
		t.Fatalf("%s: coercion %s does not normalise", sem.Name(), g.FormatCoercion(c))
	}
	return n
}

// scope is the generator's typing environment.
type scope struct {
	names []string
	types []g.Type
}

func (sc scope) bind(x string, ty g.Type) scope {
	return scope{names: append(append([]string(nil), sc.names...), x), types: append(append([]g.Type(nil), sc.types...), ty)}
}

// Config selects what a program generator may produce.
type Config struct {
	// Cast allows the cast calculus' own forms: type-based casts, explicit coercions
	// (with the injections of Inj) and blame. Without it the program is GTLC.
	Cast bool
	Inj  Injectable
	// Depth bounds the term's depth.
	Depth int
}

// Program draws a closed well-typed program. For GTLC it returns a source term (to be
// checked with g.InsertCasts); for the cast calculus a term that g.TypeOf accepts.
func Program(t *rapid.T, cfg Config) g.Expr {
	if cfg.Inj == nil {
		cfg.Inj = D
	}
	gen := &generator{t: t, cfg: cfg}
	ty := Type(t, 1, "program-type")
	return gen.term(scope{}, ty, cfg.Depth)
}

type generator struct {
	t     *rapid.T
	cfg   Config
	fresh int
}

func (gen *generator) name() string {
	gen.fresh++
	return fmt.Sprintf("x%d", gen.fresh)
}

// term draws a term of type ty (exactly, for the cast calculus; in GTLC the inserted
// casts make up the difference where the generator relies on consistency).
func (gen *generator) term(sc scope, ty g.Type, depth int) g.Expr {
	t := gen.t
	if depth <= 0 {
		return gen.leaf(sc, ty)
	}
	// rapid favours small draws: the forms that build structure come first.
	switch rapid.IntRange(0, 9).Draw(t, "form") {
	case 0: // application
		s := Type(t, 1, "arg-type")
		return &g.App{Fun: gen.term(sc, g.Fn(s, ty), depth-1), Arg: gen.term(sc, s, depth-1)}
	case 1: // if
		return &g.If{Cond: gen.term(sc, g.Bool, depth-1), Then: gen.term(sc, ty, depth-1), Else: gen.term(sc, ty, depth-1)}
	case 2: // let
		s := Type(t, 1, "let-type")
		x := gen.name()
		return &g.Let{Name: x, T: s, Bound: gen.term(sc, s, depth-1), Body: gen.term(sc.bind(x, s), ty, depth-1)}
	case 3: // a cast (or, in GTLC, an ascription) from a consistent type
		s := Consistent(t, ty, 2, "cast-source")
		x := gen.term(sc, s, depth-1)
		if gen.cfg.Cast {
			return &g.Cast{Target: ty, Source: s, L: Label(t, "cast"), X: x}
		}
		return &g.Asc{X: x, T: ty, L: Label(t, "asc")}
	case 4: // primitives
		switch ty {
		case g.Int:
			op := rapid.SampledFrom([]g.Op{g.OpInc, g.OpDec, g.OpAdd, g.OpSub, g.OpMul}).Draw(t, "int-op")
			if op.IsBinary() {
				return &g.Binary{Op: op, X: gen.term(sc, g.Int, depth-1), Y: gen.term(sc, g.Int, depth-1)}
			}
			return &g.Unary{Op: op, X: gen.term(sc, g.Int, depth-1)}
		case g.Bool:
			op := rapid.SampledFrom([]g.Op{g.OpZero, g.OpEq, g.OpLt}).Draw(t, "bool-op")
			if op.IsBinary() {
				return &g.Binary{Op: op, X: gen.term(sc, g.Int, depth-1), Y: gen.term(sc, g.Int, depth-1)}
			}
			return &g.Unary{Op: op, X: gen.term(sc, g.Int, depth-1)}
		}
		return gen.leaf(sc, ty)
	case 5: // letrec: a counting loop f n = if zero? n then base else f (dec n)
		a, ok := ty.(*g.Arrow)
		if !ok || a.From != g.Int {
			return gen.leaf(sc, ty)
		}
		f, n := gen.name(), gen.name()
		inner := sc.bind(f, a).bind(n, g.Int)
		body := &g.If{
			Cond: &g.Unary{Op: g.OpZero, X: &g.Var{Name: n}},
			Then: gen.term(inner, a.To, depth-1),
			Else: &g.App{Fun: &g.Var{Name: f}, Arg: &g.Unary{Op: g.OpDec, X: &g.Var{Name: n}}},
		}
		fun := &g.Lam{Param: n, T: g.Int, Body: body}
		return &g.Letrec{Name: f, T: a, Fun: fun, Body: gen.term(sc.bind(f, a), ty, depth-1)}
	case 6: // coercion or blame (cast calculus), else a lambda or leaf
		if gen.cfg.Cast {
			if rapid.IntRange(0, 4).Draw(t, "blame?") == 4 {
				return &g.Blame{L: Label(t, "blame")}
			}
			s := Consistent(t, ty, 2, "coerce-source")
			return &g.Coerce{C: Coercion(t, s, ty, gen.cfg.Inj, 2), X: gen.term(sc, s, depth-1)}
		}
		return gen.leaf(sc, ty)
	case 7, 8:
		if a, ok := ty.(*g.Arrow); ok {
			x := gen.name()
			return &g.Lam{Param: x, T: a.From, Body: gen.term(sc.bind(x, a.From), a.To, depth-1)}
		}
		return gen.leaf(sc, ty)
	default:
		return gen.leaf(sc, ty)
	}
}

// leaf draws a variable of type ty if one is in scope, else a constant, a lambda, or
// (for Dyn) an injected constant.
func (gen *generator) leaf(sc scope, ty g.Type) g.Expr {
	t := gen.t
	var vars []string
	for i, s := range sc.types {
		if g.Identical(s, ty) {
			vars = append(vars, sc.names[i])
		}
	}
	if len(vars) > 0 && rapid.IntRange(0, 2).Draw(t, "use-var") < 2 {
		return &g.Var{Name: rapid.SampledFrom(vars).Draw(t, "var")}
	}
	switch ty := ty.(type) {
	case g.Base:
		if ty == g.Int {
			return &g.IntLit{N: int64(rapid.IntRange(0, 5).Draw(t, "int"))}
		}
		return &g.BoolLit{B: rapid.Bool().Draw(t, "bool")}
	case *g.Arrow:
		x := gen.name()
		return &g.Lam{Param: x, T: ty.From, Body: gen.leaf(sc.bind(x, ty.From), ty.To)}
	}
	// Dyn: a value of some other type, cast (or ascribed) to Dyn.
	s := rapid.SampledFrom([]g.Type{g.Int, g.Bool, g.Fn(g.Int, g.Int), g.DynDyn}).Draw(t, "dyn-source")
	x := gen.leaf(sc, s)
	if gen.cfg.Cast {
		return &g.Cast{Target: g.Dyn, Source: s, L: Label(t, "inject"), X: x}
	}
	return &g.Asc{X: x, T: g.Dyn, L: Label(t, "inject")}
}
