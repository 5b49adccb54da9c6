// Package lambdagen generates random closed, well-typed programs of the λ-calculus for
// property tests and fuzzing (rapid): every form of the calculus, so that every rule
// fires, and shadowing of every kind, so that every rule that puts a term under a
// binder (substitution, unfolding, environments) meets capture.
package lambdagen

import (
	"fmt"

	"github.com/interderive/interderive/lambda"
	"pgregory.net/rapid"
)

// DefaultDepth is the depth of a program when Config.Depth is zero.
const DefaultDepth = 5

// Config selects what the generator may produce.
type Config struct {
	// Depth bounds the term's depth (DefaultDepth when zero).
	Depth int
}

// NodeBudget bounds the number of compound terms a program of the given depth draws:
// past it every term is a leaf. A term's size is otherwise exponential in its depth
// (each form has up to three subterms), so that a large depth would exhaust memory;
// the budget makes size linear in depth, and leaves the default depth's programs as
// they are (they stay well under it).
func NodeBudget(depth int) int { return 100 * max(depth, 1) }

// Program draws a closed, well-typed program: mostly of type Int (so that it runs to
// a number), sometimes of a function type (so that answers compare closures read
// back).
func Program(t *rapid.T, cfg Config) lambda.Expr {
	if cfg.Depth <= 0 {
		cfg.Depth = DefaultDepth
	}
	gen := &generator{t: t, budget: NodeBudget(cfg.Depth)}
	ty := lambda.Int
	if gen.draw("program-type", 4) == 2 {
		ty = gen.typ(1, "program-fun-type")
	}
	return gen.term(scope{}, ty, cfg.Depth)
}

// ProgramGen is Program as a rapid generator.
func ProgramGen(cfg Config) *rapid.Generator[lambda.Expr] {
	return rapid.Custom(func(t *rapid.T) lambda.Expr { return Program(t, cfg) })
}

// scope is the generator's typing environment, innermost last; letrec marks the
// letrec functions.
type scope struct {
	names  []string
	types  []lambda.Type
	letrec []bool
}

// bind extends the scope with x:ty, which hides an earlier x whatever its type.
func (sc scope) bind(x string, ty lambda.Type) scope { return sc.add(x, ty, false) }

// bindRec extends the scope with the letrec function f:ty.
func (sc scope) bindRec(f string, ty lambda.Type) scope { return sc.add(f, ty, true) }

func (sc scope) add(x string, ty lambda.Type, letrec bool) scope {
	out := sc.hide(x)
	out.names, out.types, out.letrec = append(out.names, x), append(out.types, ty), append(out.letrec, letrec)
	return out
}

// hide is the scope without x.
func (sc scope) hide(x string) scope {
	n := len(sc.names) + 1
	out := scope{names: make([]string, 0, n), types: make([]lambda.Type, 0, n), letrec: make([]bool, 0, n)}
	for i, y := range sc.names {
		if y != x {
			out.names, out.types, out.letrec = append(out.names, y), append(out.types, sc.types[i]), append(out.letrec, sc.letrec[i])
		}
	}
	return out
}

type generator struct {
	t      *rapid.T
	budget int
	nodes  int // the compound terms drawn so far, against budget
	fresh  int // variables x1, x2, ...
}

// draw draws an integer in [0, n).
func (gen *generator) draw(name string, n int) int {
	return rapid.IntRange(0, n-1).Draw(gen.t, name)
}

func (gen *generator) name() string {
	gen.fresh++
	return fmt.Sprintf("x%d", gen.fresh)
}

// binder draws the name of a new binder: usually fresh, about one time in four a name
// in scope, whatever its type and whatever bound it (half of those times a letrec
// function's, if there is one), which the new binder hides.
func (gen *generator) binder(sc scope, name string) string {
	if len(sc.names) == 0 || gen.draw(name+"-shadow", 4) != 2 {
		return gen.name()
	}
	var recs []string
	for i, f := range sc.names {
		if sc.letrec[i] {
			recs = append(recs, f)
		}
	}
	if len(recs) > 0 && gen.draw(name+"-shadow-letrec", 2) == 1 {
		return recs[gen.draw(name+"-shadowed", len(recs))]
	}
	return sc.names[gen.draw(name+"-shadowed", len(sc.names))]
}

// typ draws a type of at most the given depth: mostly Int.
func (gen *generator) typ(depth int, name string) lambda.Type {
	if depth <= 0 || gen.draw(name, 3) != 1 {
		return lambda.Int
	}
	return lambda.Fn(gen.typ(depth-1, name+"-dom"), gen.typ(depth-1, name+"-cod"))
}

// small is the depth of the types a form introduces: 1, or 0 once ty is a function
// type already, so that types do not grow with the term.
func small(ty lambda.Type) int {
	if _, ok := ty.(*lambda.Arrow); ok {
		return 0
	}
	return 1
}

// term draws a term of type ty. Every node first draws whether to stop at a leaf,
// stopping at 0: rapid shrinks draws towards 0, so a failing program shrinks subterm
// by subterm to leaves, while the forms that build structure come first in the form
// draw.
func (gen *generator) term(sc scope, ty lambda.Type, depth int) lambda.Expr {
	gen.nodes++
	if depth <= 0 || gen.nodes > gen.budget || gen.draw("stop", 16) == 0 {
		return gen.leaf(sc, ty)
	}
	switch gen.draw("form", 10) {
	case 0: // an application of a function drawn at its type
		a := gen.typ(small(ty), "app-arg-type")
		return &lambda.App{Fun: gen.term(sc, lambda.Fn(a, ty), depth-1), Arg: gen.term(sc, a, depth-1)}
	case 1: // let
		s := gen.typ(small(ty), "let-type")
		x := gen.binder(sc, "let")
		return &lambda.Let{Name: x, Bound: gen.term(sc, s, depth-1), Body: gen.term(sc.bind(x, s), ty, depth-1)}
	case 2:
		return gen.letrec(sc, ty, depth, gen.binder(sc, "rec-fun"))
	case 3:
		return &lambda.If0{Cond: gen.term(sc, lambda.Int, depth-1), Then: gen.term(sc, ty, depth-1), Else: gen.term(sc, ty, depth-1)}
	case 4: // a function passed to a function that applies it: (\f:a -> ty. f x) g
		a := gen.typ(small(ty), "ho-arg-type")
		f := gen.binder(sc, "ho-param")
		inner := sc.bind(f, lambda.Fn(a, ty))
		body := &lambda.App{Fun: &lambda.Var{Name: f}, Arg: gen.term(inner, a, depth-1)}
		return &lambda.App{Fun: &lambda.Lam{Param: f, T: lambda.Fn(a, ty), Body: body}, Arg: gen.term(sc, lambda.Fn(a, ty), depth-1)}
	case 5: // a curried call: f a b
		a, b := gen.typ(small(ty), "curry-a"), gen.typ(0, "curry-b")
		f := gen.term(sc, lambda.Fn(a, lambda.Fn(b, ty)), depth-1)
		return &lambda.App{Fun: &lambda.App{Fun: f, Arg: gen.term(sc, a, depth-1)}, Arg: gen.term(sc, b, depth-1)}
	case 6, 7:
		if arrow, ok := ty.(*lambda.Arrow); ok {
			x := gen.binder(sc, "lambda")
			return &lambda.Lam{Param: x, T: arrow.From, Body: gen.term(sc.bind(x, arrow.From), arrow.To, depth-1)}
		}
		ops := []lambda.Op{lambda.OpAdd, lambda.OpSub, lambda.OpMul}
		op := ops[gen.draw("op", len(ops))]
		return &lambda.Binary{Op: op, X: gen.term(sc, lambda.Int, depth-1), Y: gen.term(sc, lambda.Int, depth-1)}
	}
	return gen.leaf(sc, ty)
}

// letrec draws a loop named f,
//
//	letrec f:Int -> ty = \n:Int. if0 n then base else step (f (n - 1)) in use
//
// with step the identity (a tail call) or, for Int, an addition (a growing context),
// and use a call of f: direct, by a function that applies it, or bound by a let of
// f's name (which hides f), or another loop of the same name (which hides this one).
// The start is a small natural number, so the loop ends; one time in 24 it is -1, and
// the loop runs out of fuel. Sometimes (one time in four) the parameter is named like
// the function (\f:Int. ...): the body then sees the parameter, not the function, and
// makes no recursive call — the case of the erratum to the letrec rule.
func (gen *generator) letrec(sc scope, ty lambda.Type, depth int, f string) lambda.Expr {
	fty := lambda.Fn(lambda.Int, ty)
	n := gen.binder(sc, "rec-param")
	if gen.draw("rec-param-is-fun", 4) == 2 {
		n = f
	}
	inner := sc.bindRec(f, fty).bind(n, lambda.Int) // n hides f when they are one name
	var call lambda.Expr
	diverge := false
	if n == f {
		call = gen.term(inner, ty, depth-1)
	} else {
		dec := &lambda.Binary{Op: lambda.OpSub, X: &lambda.Var{Name: n}, Y: &lambda.IntLit{N: 1}}
		call = &lambda.App{Fun: &lambda.Var{Name: f}, Arg: dec}
		diverge = gen.draw("diverge", 24) == 12
		if lambda.Equal(ty, lambda.Int) && !diverge && gen.draw("rec-step", 2) == 0 {
			call = &lambda.Binary{Op: lambda.OpAdd, X: &lambda.Var{Name: n}, Y: call}
		}
	}
	// The base case sees the parameter but not the function (so that it does not loop).
	base := gen.term(sc.hide(f).bind(n, lambda.Int), ty, depth-1)
	fun := &lambda.Lam{Param: n, T: lambda.Int, Body: &lambda.If0{Cond: &lambda.Var{Name: n}, Then: base, Else: call}}
	start := lambda.Expr(&lambda.IntLit{N: int64(gen.draw("start", 5))})
	if diverge {
		start = &lambda.IntLit{N: -1}
	}
	outer := sc.bindRec(f, fty)
	var use lambda.Expr
	switch gen.draw("rec-use", 6) {
	case 0, 1:
		use = &lambda.App{Fun: &lambda.Var{Name: f}, Arg: start}
	case 2: // passed to a function that applies it
		h := gen.binder(outer, "rec-use-param")
		use = &lambda.App{Fun: &lambda.Lam{Param: h, T: fty, Body: &lambda.App{Fun: &lambda.Var{Name: h}, Arg: start}}, Arg: &lambda.Var{Name: f}}
	case 3: // the result bound by a let of the function's name, which hides it
		use = &lambda.Let{Name: f, Bound: &lambda.App{Fun: &lambda.Var{Name: f}, Arg: start}, Body: gen.term(outer.bind(f, ty), ty, depth-1)}
	case 4: // another loop of the same name, which hides this one
		if depth > 1 {
			use = gen.letrec(outer, ty, depth-1, f)
			break
		}
		fallthrough
	default:
		use = gen.term(outer, ty, depth-1)
	}
	return &lambda.Letrec{Name: f, T: fty, Fun: fun, Body: use}
}

// leaf draws a variable of type ty if one is in scope (two times in three), else a
// constant, or a lambda whose body uses its parameter when it can.
func (gen *generator) leaf(sc scope, ty lambda.Type) lambda.Expr {
	var vars []string
	for i, s := range sc.types {
		if lambda.Equal(s, ty) {
			vars = append(vars, sc.names[i])
		}
	}
	if len(vars) > 0 && gen.draw("use-var", 3) < 2 {
		return &lambda.Var{Name: vars[gen.draw("var", len(vars))]}
	}
	arrow, ok := ty.(*lambda.Arrow)
	if !ok {
		// Mostly small naturals; sometimes a negative number or the largest
		// integer, so that arithmetic wraps around.
		ns := []int64{0, 1, 2, 3, 4, 5, -3, 9223372036854775807}
		return &lambda.IntLit{N: ns[gen.draw("int", len(ns))]}
	}
	x := gen.binder(sc, "leaf-param")
	inner := sc.bind(x, arrow.From)
	var body lambda.Expr
	switch {
	case lambda.Equal(arrow.From, arrow.To) && gen.draw("leaf-identity", 2) == 0:
		body = &lambda.Var{Name: x}
	case lambda.Equal(arrow.From, lambda.Int) && lambda.Equal(arrow.To, lambda.Int):
		body = &lambda.Binary{Op: lambda.OpMul, X: &lambda.Var{Name: x}, Y: &lambda.IntLit{N: int64(gen.draw("leaf-factor", 4))}}
	default:
		body = gen.leaf(inner, arrow.To)
	}
	return &lambda.Lam{Param: x, T: arrow.From, Body: body}
}
