package closures

import (
	"strconv"
	"weak"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/internal/values/abductiveval"
)

// abductiveShow shows the steps of the calculus of closures to a run's observer: its
// environment steps and its contractions, every closure within the run's print budget,
// its environments named where they first appear (ρ1 = (x ↦ v) : ε) and by their
// names after; nil when nothing observes the run.
type abductiveShow struct {
	obs   interderive.Observer
	pr    *interderive.ItemPrinter
	names map[weak.Pointer[abductiveval.Env]]int
	steps bool // whether obs is shown the steps (not an observer of reports only)
	next  int
	defs  []string
	swept int
}

func newAbductiveShow(opts interderive.Options, fuel *interderive.Counter) *abductiveShow {
	if opts.Observer == nil {
		return nil
	}
	return &abductiveShow{obs: opts.Observer, steps: opts.StepObserver() != nil, pr: interderive.NewItemPrinter(opts, fuel.Limits()), names: map[weak.Pointer[abductiveval.Env]]int{}}
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
	for _, def := range s.defs {
		s.obs.Step(def)
	}
	s.defs = nil
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
		w.WriteString("[" + s.name(rho) + "]")
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

// name is the name of rho (ε for the empty environment), naming it and every
// environment its definition needs first, if it has none yet: depth first, with a
// stack of its own, since chains of environments are as long as the run makes them.
func (s *abductiveShow) name(rho *abductiveval.Env) string {
	if rho == nil {
		return "ε"
	}
	if n, ok := s.names[weak.Make(rho)]; ok {
		return "ρ" + strconv.Itoa(n)
	}
	type item struct {
		rho      *abductiveval.Env
		expanded bool
	}
	stack := []item{{rho: rho}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		r := top.rho
		if _, named := s.names[weak.Make(r)]; r == nil || named {
			stack = stack[:len(stack)-1]
			continue
		}
		if !top.expanded {
			top.expanded = true
			stack = append(stack, item{rho: r.Next}, item{rho: r.V.Env})
			continue
		}
		stack = stack[:len(stack)-1]
		s.define(r)
	}
	return "ρ" + strconv.Itoa(s.names[weak.Make(rho)])
}

// define names rho, whose definition refers only to named environments, and adds the
// definition.
func (s *abductiveShow) define(rho *abductiveval.Env) {
	s.next++
	n := s.next
	def := s.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		w.WriteString("ρ" + strconv.Itoa(n) + " = (" + rho.Name + " ↦ ")
		s.write(&w, abductiveVal(rho.V))
		w.WriteString(") : " + s.name(rho.Next))
		return w.Result()
	})
	s.names[weak.Make(rho)] = n
	s.defs = append(s.defs, def)
	if len(s.names) >= 2*max(s.swept, 1024) { // forget the environments the run no longer holds
		for k := range s.names {
			if k.Value() == nil {
				delete(s.names, k)
			}
		}
		s.swept = len(s.names)
	}
}
