package driver

import (
	"fmt"
	"io"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// The side-by-side trace of the differentiable language. The lanes are cut at the
// contraction events (opts.OnContract), as for the gradual calculus, but the stages
// of this language report a contraction after counting it: the reduction semantics'
// Redex hook right after, the calculus of closures' Step hook once the contraction is
// complete, which for a contraction that runs nested layers (rd, and the redexes of
// Figure 5) is after the contractions of those layers. So a line about contraction n
// goes to n's own row when no other contraction came since (dplLane.attach), and
// otherwise to the row being built, headed "contraction n (rule) completes".
//
// Every stage reports an rd, with the trace term of its body and its derivative term,
// when its contraction is complete: after the contractions of its nested layer and
// before the next one. Those two lines always go to the row being built, so that they
// stand in the same row in every lane.

// dplLane collects a stage's steps between contractions.
type dplLane struct{ *lane }

// attach adds a line about contraction n (1-based) to n's row if n is the last
// contraction so far, else to the row being built.
func (l dplLane) attach(n int, line string) {
	if n > 0 && n == l.n {
		if r := l.row(n); r != nil {
			r.lines = append(r.lines, line)
			return
		}
	}
	l.cur = append(l.cur, line)
}

// completes says, in the row being built, which earlier contraction the lines that
// follow complete, unless they complete the last one (which has its own row).
func (l dplLane) completes(n int, indent, rule string, rd bool) {
	if rd || n != l.n {
		l.cur = append(l.cur, fmt.Sprintf("%scontraction %d (%s) completes", indent, n, rule))
	}
}

// completion adds a line about completed contraction n: to the row being built when
// the contraction is an rd (its trace and derivative precede it there), else as attach.
func (l dplLane) completion(n int, rd bool, line string) {
	if rd {
		l.cur = append(l.cur, line)
		return
	}
	l.attach(n, line)
}

// rd shows an rd whose contraction is complete: the trace term of its body and its
// derivative term.
func (l dplLane) rd(indent string, trace, derivative dpl.Term) {
	l.step("%strace:      %s", indent, l.pr.dplTerm(trace))
	l.step("%sderivative: %s", indent, l.pr.dplTerm(derivative))
}

// indentLayer marks the lines of a nested layer (symbolic evaluation inside rd, or
// Figure 5's nested evaluations), as trace does.
func indentLayer(layer int) string { return strings.Repeat("| ", layer) }

// dplLanes are the stages of the differentiable language as lanes, under ad.
func (p dplProgram) dplLanes(ad dpl.Differentiator, stages []DPLStage) []laneRun {
	var runs []laneRun
	for _, st := range stages {
		runs = append(runs, laneRun{stage: st.Name, run: func(l *lane, o interderive.Options) (Outcome, error) {
			a, err := p.runLane(dplLane{l}, st, ad, o)
			if err == nil {
				err = l.pr.err
			}
			if err != nil {
				return Outcome{Steps: l.n}, interderive.InStage(err, st.Name)
			}
			return l.pr.dplAnswer(a, l.n)
		}})
	}
	return runs
}

// sideBySide prepares the side-by-side trace: its header and the lanes.
func (p dplProgram) sideBySide(variant string, opts interderive.Options) (SideBySide, []laneRun, error) {
	ad, ok := dpl.LookupDifferentiator(variant)
	if !ok {
		return SideBySide{}, nil, fmt.Errorf("unknown differentiation strategy %q", variant)
	}
	s := SideBySide{Program: newPrinter(opts, interderive.NewLimits(opts, nil)).dplTerm(p.term), Variant: ad.Name(), Parameter: "ad"}
	return s, p.dplLanes(ad, DPLStages()), nil
}

// SideBySide runs the program on every stage under one differentiation strategy and
// records each stage's own steps: the reduction semantics' decompositions, contractums
// and symbolic steps (what the trace grows by), the calculus of closures' environment
// steps too, the machine's states with their layers; and, on every stage, the trace
// term and the derivative term of every rd. As for the gradual calculi (see
// SideBySider), the stages run at once within the same budgets, every item printed
// within the output budget.
func (p dplProgram) SideBySide(variant string, opts interderive.Options) (SideBySide, error) {
	s, runs, err := p.sideBySide(variant, opts)
	if err != nil {
		return s, err
	}
	return collect(s, opts, runs), nil
}

// WriteSideBySide is SideBySide written as the stages go.
func (p dplProgram) WriteSideBySide(w io.Writer, variant string, opts interderive.Options) error {
	s, runs, err := p.sideBySide(variant, opts)
	if err != nil {
		return err
	}
	return stream(w, s, opts, runs)
}

// runLane runs the program on one stage and records the stage's own steps in l, cut at
// its contractions (see SideBySide); opts.OnContract, if set, is called after l has
// recorded the contraction.
func (p dplProgram) runLane(l dplLane, st DPLStage, ad dpl.Differentiator, opts interderive.Options) (dpl.Answer, error) {
	on := opts.OnContract
	opts.OnContract = func(rule string) {
		l.contract(rule)
		if on != nil {
			on(rule)
		}
	}
	onRd := func(c, d dpl.Term) { l.rd("", c, d) }
	var a dpl.Answer
	var err error
	switch st.Name {
	case "reduction":
		a, err = reduction.EvalDiffHooks(ad, p.term, opts, sideReductionDPL(l))
	case "closures":
		a, err = closures.EvalDiffHooks(ad, p.term, opts, sideClosuresDPL(l))
	case "machine":
		m := machine.NewDiff(ad, opts, onRd)
		m.Trace = func(s *machine.DiffState) { l.step("%s", s) }
		a, err = m.Run(p.term)
	default: // cps2, interp: no intermediate states to show, only the rd
		a, err = st.Traced(ad, p.term, opts, onRd)
	}
	return a, err
}

// sideReductionDPL shows the reduction semantics' steps: at each contraction the
// context and the redex; when it is complete the contractum and the whole term
// (ordinary evaluation), what the trace grows by (symbolic evaluation), and for rd
// the trace and the derivative.
func sideReductionDPL(l dplLane) reduction.DiffHooks {
	pr := l.pr
	return reduction.DiffHooks{
		Redex: func(ev reduction.DiffEvent) {
			in := indentLayer(ev.Layer)
			where := ""
			if ev.Layer > 0 {
				where = fmt.Sprintf("   (layer %d, %s)", ev.Layer, ev.Mode)
			}
			l.attach(ev.Step, fmt.Sprintf("%sdecompose: %s  with redex  %s%s", in, pr.dplContext(ev.Context), pr.dplTerm(ev.Redex.Term()), where))
		},
		Step: func(ev reduction.DiffEvent) {
			in := indentLayer(ev.Layer)
			rd := ev.Trace != nil
			l.completes(ev.Step, in, ev.Rule, rd)
			add := func(line string) { l.completion(ev.Step, rd, line) }
			if rd {
				l.rd(in, ev.Trace, ev.Derivative)
			}
			switch {
			case ev.Finished != nil:
				add(in + "finished:  " + pr.dplTerm(ev.Finished))
				return
			case ev.Mode == reduction.DiffSymbolic:
				if ev.Binding != nil {
					add(in + "trace +=   " + pr.binding(ev.Binding))
				}
				add(in + "term:      " + pr.dplTerm(ev.Next))
			default:
				add(in + "contract:  " + pr.dplTerm(ev.Contractum))
				add(in + "plug:      " + pr.dplTerm(ev.Next))
			}
		},
	}
}

// sideClosuresDPL shows the calculus of closures' steps: its environment steps (expand,
// lookup: no contractions), and each contraction once complete: the context, the
// redex, the contractum and the closure read back.
func sideClosuresDPL(l dplLane) closures.DiffHooks {
	pr := l.pr
	return closures.DiffHooks{Step: func(ev closures.DiffEvent) {
		in := indentLayer(ev.Layer)
		if ev.Rule == "" {
			l.step("%s%s: %s  ~>  %s", in, ev.Env, pr.diffClosure(ev.Mode, ev.Redex), pr.diffClosure(ev.Mode, ev.Contractum))
			return
		}
		rd := ev.Trace != nil
		l.completes(ev.Step, in, ev.Rule, rd)
		add := func(line string) { l.completion(ev.Step, rd, line) }
		where := ""
		if ev.Layer > 0 {
			where = fmt.Sprintf("   (layer %d, %s)", ev.Layer, ev.Mode)
		}
		add(fmt.Sprintf("%sdecompose: %s  with redex  %s%s", in, pr.diffContext(ev.Context), pr.diffClosure(ev.Mode, ev.Redex), where))
		if rd {
			l.rd(in, ev.Trace, ev.Derivative)
		}
		if ev.Finished != nil {
			add(in + "finished:  " + pr.dplTerm(ev.Finished))
			return
		}
		if ev.Binding != nil {
			add(in + "trace +=   " + pr.binding(ev.Binding))
		}
		add(in + "contract:  " + pr.diffClosure(ev.Mode, ev.Contractum))
		if ev.Next != nil {
			add(in + "closure:   " + pr.dplTerm(closures.DiffSigma(ev.Mode, ev.Next)))
		}
	}}
}

// binding is let x:T = C in, the body to come.
func (p *printer) binding(b *dpl.Let) string {
	return "let " + b.Name + ":" + p.dplType(b.T) + " = " + p.dplTerm(b.Bound) + " in"
}

// diffContext prints a closure context of the differentiable language, read back, with
// [] for its hole, as closures.DiffContext.String.
func (p *printer) diffContext(E closures.DiffContext) string {
	hole := &dpl.Var{Name: contexts.Hole}
	return p.dplTerm(closures.DiffSigma(closures.DiffSymbolic, E.Plug(&closures.DiffValue{Term: hole, Val: hole})))
}

// diffClosure shows a closure: a term with its value environment, M[x ↦ V, ...]
// ((x ↦ V)_sym for a symbolic binding; innermost first; ε when empty; M in parentheses
// unless it is atomic or an application), or anything else read back.
func (p *printer) diffClosure(mode closures.DiffMode, cl closures.DiffClosure) string {
	c, ok := cl.(*closures.DiffClo)
	if !ok {
		return p.dplTerm(closures.DiffSigma(mode, cl))
	}
	const most = 8
	var env []string
	for rho := c.Env; rho != nil; rho = rho.Next {
		if len(env) == most {
			env = append(env, "…")
			break
		}
		b := rho.Name + " ↦ " + p.dplTerm(rho.Val)
		if rho.Sym {
			b = "(" + b + ")_sym"
		}
		env = append(env, b)
	}
	if len(env) == 0 {
		env = []string{"ε"}
	}
	m := p.dplTerm(c.M)
	switch c.M.(type) {
	case *dpl.Var, *dpl.RealLit, *dpl.UnitLit, *dpl.BoolLit, *dpl.Pair, *dpl.OpApp, *dpl.Fst, *dpl.Snd, *dpl.Call:
	default:
		m = "(" + m + ")"
	}
	return p.whole(m + "[" + strings.Join(env, ", ") + "]")
}
