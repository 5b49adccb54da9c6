package closures

import (
	"strconv"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/internal/values/abductiveval"
	"github.com/interderive/interderive/internal/values/envnames"
)

// abductiveShow shows the steps of the calculus of closures to a run's observer: its
// environment steps and its contractions, every closure within the run's print budget,
// its environments named where they first appear (ρ1 = (x ↦ v) : ε) and by their
// names after; nil when nothing observes the run.
type abductiveShow struct {
	obs   interderive.Observer
	pr    *interderive.ItemPrinter
	envs  *envnames.Namer[abductiveval.Env]
	steps bool // whether obs is shown the steps (not an observer of reports only)
}

func newAbductiveShow(opts interderive.Options, fuel *interderive.Counter) *abductiveShow {
	if opts.Observer == nil {
		return nil
	}
	s := &abductiveShow{obs: opts.Observer, steps: opts.StepObserver() != nil, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
	s.envs = envnames.New(s.pr.Item, envnames.Binding[abductiveval.Env]{
		Next:  func(rho *abductiveval.Env) *abductiveval.Env { return rho.Next },
		Refs:  func(rho *abductiveval.Env) []*abductiveval.Env { return []*abductiveval.Env{rho.V.Env} },
		Var:   func(rho *abductiveval.Env) string { return rho.Name },
		Write: func(w *interderive.BoundedBuilder, rho *abductiveval.Env) { s.write(w, abductiveVal(rho.V)) },
	})
	return s
}

// step shows a step before it is taken: an environment step as ENV: redex ~>
// contractum; a contraction as its decomposition and its contractum; each after the
// definitions of the environments it names first.
func (s *abductiveShow) step(d abductiveDecomposition, next abductiveClosure) error {
	if s == nil || !s.steps {
		return nil
	}
	var lines []string
	if d.redex.rule == "" {
		lines = []string{d.redex.env + ": " + s.closure(d.redex.cl) + "  ~>  " + s.closure(next)}
	} else {
		hole := abductiveCalculus{}.plug(d.context, abductiveHole)
		lines = []string{"decompose: " + s.closure(hole) + "  with redex  " + s.closure(d.redex.cl), "contract:  " + s.closure(next)}
	}
	for _, def := range s.envs.Defs() {
		s.obs.Step(def)
	}
	for _, l := range lines {
		s.obs.Step(l)
	}
	return s.pr.Err()
}

// report reports contraction n's decoupling, if it was one.
func (s *abductiveShow) report(n int, d *abductive.Decoupling) {
	if s == nil || d == nil {
		return
	}
	s.obs.Report(n, "decoupling", *d, d.String())
}

// closure prints cl within the budget.
func (s *abductiveShow) closure(cl abductiveClosure) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		s.write(&w, cl)
		return w.Result()
	})
}

// write writes cl: e[ρ] (e in parentheses unless it is a variable or a provisional
// constant; [] alone for the
// hole; a ground value or a vector without its environment), cl · cl, cl $ cl,
// let x = cl in e[ρ], [cl, ...], (cl)^L.
func (s *abductiveShow) write(w *interderive.BoundedBuilder, cl abductiveClosure) {
	if w.Stopped() {
		return
	}
	term := func(e abductive.Expr) {
		t, err := abductive.FormatBounded(e, w.Left())
		w.WriteString(t)
		w.Fail(err)
	}
	withEnv := func(e abductive.Expr, rho *abductiveval.Env) {
		switch e := e.(type) {
		case *abductive.Var:
			if e.Name == contexts.Hole && rho == nil {
				w.WriteString(contexts.Hole)
				return
			}
			term(e)
		case *abductive.Param:
			term(e)
		case *abductive.Num, *abductive.Label, *abductive.Resid, *abductive.Vec:
			term(e)
			return
		default:
			w.WriteByte('(')
			term(e)
			w.WriteByte(')')
		}
		w.WriteString("[" + s.envs.Name(rho) + "]")
	}
	pair := func(x abductiveClosure, op string, y abductiveClosure) {
		w.WriteByte('(')
		s.write(w, x)
		w.WriteString(") " + op + " (")
		s.write(w, y)
		w.WriteByte(')')
	}
	switch cl := cl.(type) {
	case *abductiveClo:
		withEnv(cl.e, cl.env)
	case *abductiveValueCl:
		withEnv(cl.v.E, cl.v.Env)
	case *abductiveAppCl:
		pair(cl.fun, "·", cl.arg)
	case *abductiveBinaryCl:
		op := cl.op.String()
		if cl.from > 0 {
			op += "[" + strconv.Itoa(cl.from) + "]"
		}
		pair(cl.x, op, cl.y)
	case *abductiveLetCl:
		w.WriteString("let " + cl.name + " = ")
		s.write(w, cl.bound)
		w.WriteString(" in ")
		withEnv(cl.body, cl.env)
	case *abductiveVecCl:
		w.WriteByte('[')
		for i, x := range cl.elems {
			if i > 0 {
				w.WriteString(", ")
			}
			s.write(w, x)
		}
		w.WriteByte(']')
	case *abductiveMarkCl:
		w.WriteByte('(')
		s.write(w, cl.body)
		w.WriteString(")^" + cl.foot.String())
	}
}
