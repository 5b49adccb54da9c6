// Package semlambda translates the λ-calculus's syntax (package lambda) into the
// generic terms of a rule-defined calculus (testdata/rules/cbv.sem, cbn.sem), so that
// the programs of testdata/lambda run on the stages derived from a rule file, and
// their derived runs compare with the hand-derived stages of lambda. Types are erased.
package semlambda

import (
	"fmt"

	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/sem"
)

// Constructors are the constructors a language must declare for the translation,
// with their arguments: lam x t, app t t, add t t, sub t t, mul t t, if0 t t t,
// let x t t, letrec x x t t (the function's name, its parameter, its body, the
// letrec's body).
var Constructors = []string{"lam", "app", "add", "sub", "mul", "if0", "let", "letrec"}

// Translator translates λ-terms into one language's terms.
type Translator struct {
	cons map[string]*sem.Con
}

// New checks that l declares the constructors (with their arities) and returns the
// translator into l.
func New(l *sem.Language) (*Translator, error) {
	arity := map[string]int{"lam": 2, "app": 2, "add": 2, "sub": 2, "mul": 2, "if0": 3, "let": 3, "letrec": 4}
	tr := &Translator{cons: map[string]*sem.Con{}}
	for _, n := range Constructors {
		c, ok := l.Con(n)
		if !ok || len(c.Args) != arity[n] {
			return nil, fmt.Errorf("language %s has no constructor %s of %d arguments", l.Name, n, arity[n])
		}
		tr.cons[n] = c
	}
	return tr, nil
}

// Term translates e, erasing its types; every node keeps its position. It recurses
// as deep as e nests (lambda.MaxNesting at most for a parsed program).
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
		return sem.App(e.P, c["lam"], sem.Var(e.P, e.Param), tr.term(e.Body, err))
	case *lambda.App:
		return sem.App(e.P, c["app"], tr.term(e.Fun, err), tr.term(e.Arg, err))
	case *lambda.Binary:
		op := map[lambda.Op]string{lambda.OpAdd: "add", lambda.OpSub: "sub", lambda.OpMul: "mul"}[e.Op]
		return sem.App(e.P, c[op], tr.term(e.X, err), tr.term(e.Y, err))
	case *lambda.If0:
		return sem.App(e.P, c["if0"], tr.term(e.Cond, err), tr.term(e.Then, err), tr.term(e.Else, err))
	case *lambda.Let:
		return sem.App(e.P, c["let"], sem.Var(e.P, e.Name), tr.term(e.Bound, err), tr.term(e.Body, err))
	case *lambda.Letrec:
		return sem.App(e.P, c["letrec"], sem.Var(e.P, e.Name), sem.Var(e.Fun.P, e.Fun.Param), tr.term(e.Fun.Body, err), tr.term(e.Body, err))
	}
	if *err == nil {
		*err = fmt.Errorf("semlambda: unknown term %T", e)
	}
	return sem.Int(e.Pos(), 0)
}
