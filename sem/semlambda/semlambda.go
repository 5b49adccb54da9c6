// Package semlambda translates the λ-calculus's syntax (package lambda) into the
// generic terms of a rule-defined calculus (testdata/rules/cbv.sem, cbn.sem), so that
// the programs of testdata/lambda run on the stages derived from a rule file, and
// their derived runs compare with the hand-derived stages of lambda.
//
// A typed language (cbv.sem) keeps the annotations as constructor arguments:
// \x:S. e is (lam x S e), letrec f:T = \x:S. e in b is (letrec f T x S e b), Int is
// (int) and S -> T is (arrow S T). An untyped one (cbn.sem) has (lam x e) and
// (letrec f x e b): the types are erased.
package semlambda

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/sem"
)

// Constructors are the constructors a language must declare for the translation,
// with their arguments: lam x t, app t t, add t t, sub t t, mul t t, if0 t t t,
// let x t t, letrec x x t t (the function's name, its parameter, its body, the
// letrec's body), untyped; or, typed, lam x T t and letrec x T x T t t (the
// function's type and its parameter's after their names), with the types int and
// arrow T T.
var Constructors = []string{"lam", "app", "add", "sub", "mul", "if0", "let", "letrec"}

// untyped and typed are the arities of the constructors in the two forms of the
// translation.
var (
	untyped = map[string]int{"lam": 2, "app": 2, "add": 2, "sub": 2, "mul": 2, "if0": 3, "let": 3, "letrec": 4}
	typed   = map[string]int{"lam": 3, "app": 2, "add": 2, "sub": 2, "mul": 2, "if0": 3, "let": 3, "letrec": 6, "int": 0, "arrow": 2}
)

// Translator translates λ-terms into one language's terms.
type Translator struct {
	cons  map[string]*sem.Con
	typed bool
}

// New checks that l declares the constructors, with the arities of one form of the
// translation (typed when its lam has 3 arguments, untyped otherwise), and returns
// the translator into l.
func New(l *sem.Language) (*Translator, error) {
	arity := untyped
	if c, ok := l.Con("lam"); ok && len(c.Args) == typed["lam"] {
		arity = typed
	}
	tr := &Translator{cons: map[string]*sem.Con{}, typed: len(arity) == len(typed)}
	names := Constructors
	if tr.typed {
		names = append(names[:len(names):len(names)], "int", "arrow")
	}
	for _, n := range names {
		c, ok := l.Con(n)
		if !ok || len(c.Args) != arity[n] {
			return nil, fmt.Errorf("language %s has no constructor %s of %d arguments", l.Name, n, arity[n])
		}
		tr.cons[n] = c
	}
	return tr, nil
}

// Typed reports whether the translation keeps the types (the language's lam has a
// type argument).
func (tr *Translator) Typed() bool { return tr.typed }

// Term translates e, keeping its types if the language has them and erasing them
// otherwise; every node keeps its position (a type, the position of the node that
// carries it). It recurses as deep as e nests (lambda.MaxNesting at most for a parsed
// program).
func (tr *Translator) Term(e lambda.Expr) (*sem.Term, error) {
	var err error
	t := tr.term(e, &err)
	return t, err
}

func (tr *Translator) term(e lambda.Expr, err *error) *sem.Term {
	c := tr.cons
	switch e := e.(type) {
	case *lambda.IntLit:
		return sem.Int(e.P, e.N)
	case *lambda.Var:
		return sem.Var(e.P, e.Name)
	case *lambda.Lam:
		if tr.typed {
			return sem.App(e.P, c["lam"], sem.Var(e.P, e.Param), tr.typ(e.P, e.T, err), tr.term(e.Body, err))
		}
		return sem.App(e.P, c["lam"], sem.Var(e.P, e.Param), tr.term(e.Body, err))
	case *lambda.App:
		return sem.App(e.P, c["app"], tr.term(e.Fun, err), tr.term(e.Arg, err))
	case *lambda.Binary:
		op := map[lambda.Op]string{lambda.OpAdd: "add", lambda.OpSub: "sub", lambda.OpMul: "mul"}[e.Op]
		if op == "" {
			break
		}
		return sem.App(e.P, c[op], tr.term(e.X, err), tr.term(e.Y, err))
	case *lambda.If0:
		return sem.App(e.P, c["if0"], tr.term(e.Cond, err), tr.term(e.Then, err), tr.term(e.Else, err))
	case *lambda.Let:
		return sem.App(e.P, c["let"], sem.Var(e.P, e.Name), tr.term(e.Bound, err), tr.term(e.Body, err))
	case *lambda.Letrec:
		if tr.typed {
			return sem.App(e.P, c["letrec"], sem.Var(e.P, e.Name), tr.typ(e.P, e.T, err),
				sem.Var(e.Fun.P, e.Fun.Param), tr.typ(e.Fun.P, e.Fun.T, err),
				tr.term(e.Fun.Body, err), tr.term(e.Body, err))
		}
		return sem.App(e.P, c["letrec"], sem.Var(e.P, e.Name), sem.Var(e.Fun.P, e.Fun.Param), tr.term(e.Fun.Body, err), tr.term(e.Body, err))
	}
	if *err == nil {
		*err = fmt.Errorf("semlambda: unknown term %T", e)
	}
	return sem.Int(e.Pos(), 0)
}

// typ translates the type ty, at the position p of the node that carries it.
func (tr *Translator) typ(p interderive.Pos, ty lambda.Type, err *error) *sem.Term {
	switch ty := ty.(type) {
	case lambda.IntType:
		return sem.App(p, tr.cons["int"])
	case *lambda.Arrow:
		return sem.App(p, tr.cons["arrow"], tr.typ(p, ty.From, err), tr.typ(p, ty.To, err))
	}
	if *err == nil {
		*err = fmt.Errorf("semlambda: unknown type %T", ty)
	}
	return sem.App(p, tr.cons["int"])
}
