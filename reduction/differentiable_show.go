package reduction

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
)

// Differentiable is the reduction semantics of the differentiable language
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

// showDiff are hooks that show the reduction semantics' steps to obs: at each
// contraction the context and the redex; when it is complete the contractum and the
// whole term (ordinary evaluation), what the trace grows by (symbolic evaluation), and
// for rd its trace and derivative (reports). Nested layers are indented.
func showDiff(obs interderive.Observer, s dpl.Shower) DiffHooks {
	return DiffHooks{
		Redex: func(ev DiffEvent) {
			obs.About(ev.Step, dpl.Indent(ev.Layer)+"decompose: "+s.Term(ev.Context.Plug(&dpl.Var{Name: contexts.Hole}))+
				"  with redex  "+s.Term(ev.Redex.Term())+dpl.Where(ev.Layer, ev.Mode.String()))
		},
		Step: func(ev DiffEvent) {
			in := dpl.Indent(ev.Layer)
			if ev.Trace != nil {
				s.ReportRd(obs, ev.Step, in, ev.Trace, ev.Derivative)
			}
			switch {
			case ev.Finished != nil:
				obs.About(ev.Step, in+"finished:  "+s.Term(ev.Finished))
			case ev.Mode == dpl.Symbolic:
				if ev.Binding != nil {
					obs.About(ev.Step, in+"trace +=   "+s.Binding(ev.Binding))
				}
				obs.About(ev.Step, in+"term:      "+s.Term(ev.Next))
			default:
				obs.About(ev.Step, in+"contract:  "+s.Term(ev.Contractum))
				obs.About(ev.Step, in+"plug:      "+s.Term(ev.Next))
			}
		},
	}
}
