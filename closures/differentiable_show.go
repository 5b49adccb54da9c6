package closures

import (
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
)

// Differentiable is the calculus of closures of the differentiable language
// (dpl.StageOf).
func (Stage) Differentiable() dpl.Stage { return diffStage{} }

type diffStage struct{}

// Eval is EvalDiffHooks, with hooks that show the run to opts.Observer, if set: its
// steps and its reports, or its reports alone (interderive.ReportObserver).
func (diffStage) Eval(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	var hooks DiffHooks
	switch obs := opts.Observer; {
	case obs == nil:
	case opts.StepObserver() == nil:
		hooks = reportDiff(obs, dpl.NewShower(opts, interderive.NewLimits(opts, nil)))
	default:
		hooks = showDiff(obs, dpl.NewShower(opts, interderive.NewLimits(opts, nil)))
	}
	return EvalDiffHooks(ad, prog, opts, hooks)
}

// reportDiff are hooks that report every rd to obs, as showDiff does, and show nothing
// else.
func reportDiff(obs interderive.Observer, s dpl.Shower) DiffHooks {
	return DiffHooks{Step: func(ev DiffEvent) {
		if ev.Trace != nil {
			s.ReportRd(obs, ev.Step, dpl.Indent(ev.Layer), ev.Trace, ev.Derivative)
		}
	}}
}

// showDiff are hooks that show the calculus of closures' steps to obs: its environment
// steps (expand, lookup: no contractions), and each contraction once complete: the
// context, the redex, the contractum and the closure read back; for rd its trace and
// derivative (reports). Nested layers are indented.
func showDiff(obs interderive.Observer, s dpl.Shower) DiffHooks {
	return DiffHooks{Step: func(ev DiffEvent) {
		in := dpl.Indent(ev.Layer)
		if ev.Rule == "" {
			obs.Step(in + string(ev.Env) + ": " + showClosure(s, ev.Mode, ev.Redex) + "  ~>  " + showClosure(s, ev.Mode, ev.Contractum))
			return
		}
		if ev.Trace != nil {
			s.ReportRd(obs, ev.Step, in, ev.Trace, ev.Derivative)
		}
		hole := &dpl.Var{Name: contexts.Hole}
		context := s.Term(DiffSigma(dpl.Symbolic, ev.Context.Plug(&DiffValue{Term: hole, Val: hole})))
		obs.About(ev.Step, in+"decompose: "+context+"  with redex  "+showClosure(s, ev.Mode, ev.Redex)+dpl.Where(ev.Layer, ev.Mode.String()))
		if ev.Finished != nil {
			obs.About(ev.Step, in+"finished:  "+s.Term(ev.Finished))
			return
		}
		if ev.Binding != nil {
			obs.About(ev.Step, in+"trace +=   "+s.Binding(ev.Binding))
		}
		obs.About(ev.Step, in+"contract:  "+showClosure(s, ev.Mode, ev.Contractum))
		if ev.Next != nil {
			obs.About(ev.Step, in+"closure:   "+s.Term(DiffSigma(ev.Mode, ev.Next)))
		}
	}}
}

// showClosure shows a closure: a term with its value environment, M[x ↦ V, ...]
// ((x ↦ V)_sym for a symbolic binding; innermost first, the first eight; ε when
// empty; M in parentheses unless it is atomic or an application), or anything else
// read back.
func showClosure(s dpl.Shower, mode dpl.Mode, cl DiffClosure) string {
	c, ok := cl.(*DiffClo)
	if !ok {
		return s.Term(DiffSigma(mode, cl))
	}
	const most = 8
	var env []string
	for rho := c.Env; rho != nil; rho = rho.Next {
		if len(env) == most {
			env = append(env, "…")
			break
		}
		b := rho.Name + " ↦ " + s.Term(rho.Val)
		if rho.Sym {
			b = "(" + b + ")_sym"
		}
		env = append(env, b)
	}
	if len(env) == 0 {
		env = []string{"ε"}
	}
	m := s.Term(c.M)
	switch c.M.(type) {
	case *dpl.Var, *dpl.RealLit, *dpl.UnitLit, *dpl.BoolLit, *dpl.Pair, *dpl.OpApp, *dpl.Fst, *dpl.Snd, *dpl.Call:
	default:
		m = "(" + m + ")"
	}
	return s.Whole(m + "[" + strings.Join(env, ", ") + "]")
}
