package driver

import (
	"fmt"
	"io"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/contexts"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// Trace shows the steps of a run as the stage itself takes them: for the reduction
// semantics the decomposition into context and redex (for StepCst also the coercion
// context and coercion redex), the rule, the contractum and the term after plugging;
// for the calculus of closures the same over closures, with its environment steps; for
// the machine every state. The CPS evaluator and the interpreter have no
// intermediate states to show but their contractions, which are listed.
func (p gradualProgram) Trace(w io.Writer, stage, variant string, opts interderive.Options) (Outcome, error) {
	st, sem, e, err := p.prepare(stage, variant)
	if err != nil {
		return Outcome{}, err
	}
	fmt.Fprintf(w, "semantics %s, stage %s\n", sem.Name(), stage)
	fmt.Fprintf(w, "term       %s\n", newPrinter(opts, interderive.NewLimits(opts, nil)).term(e))
	switch stage {
	case "reduction":
		return traceReduction(w, sem, e, opts)
	case "closures":
		return traceClosures(w, sem, e, opts)
	}
	steps := 0
	limits := interderive.NewLimits(opts, func() int { return steps })
	pr := newPrinter(opts, limits)
	on := opts.OnContract
	opts.OnContract = func(rule string) {
		steps++
		fmt.Fprintf(w, "contraction %d: %s\n", steps, rule)
		if on != nil {
			on(rule)
		}
	}
	var a g.Answer
	if stage == "machine" {
		m := machine.New(sem, opts)
		m.Trace = func(s *machine.State) { fmt.Fprintf(w, "  %s\n", s) }
		var ans interface{ ToAnswer() g.Answer }
		ans, err = m.Run(e)
		if err == nil {
			a = ans.ToAnswer()
		}
	} else {
		a, err = st.Eval(sem, e, opts)
	}
	if err != nil {
		return Outcome{Steps: steps}, err
	}
	return traceAnswer(w, pr, a, steps)
}

// traceAnswer prints a trace's last line, the answer, within the printer's budgets,
// and returns the outcome (or why the answer does not print).
func traceAnswer(w io.Writer, pr *printer, a g.Answer, steps int) (Outcome, error) {
	out, err := pr.castAnswer(a, steps)
	if err == nil {
		fmt.Fprintf(w, "answer     %s\n", out.Value)
	}
	return out, err
}

// traceReduction prints every step of the reduction semantics. Every term and context
// is printed within the output budget (cut and marked beyond it), and printing stops
// the trace when the time or memory budget runs out.
func traceReduction(w io.Writer, sem g.Semantics, e g.Expr, opts interderive.Options) (Outcome, error) {
	fuel := interderive.NewCounter(opts)
	pr := newPrinter(opts, fuel.Limits())
	r := reduction.Cast{Sem: sem, Merge: opts.Merging.Merge(false)}
	for {
		step, done, err := r.Reduce(e)
		if err != nil {
			return Outcome{Steps: fuel.Steps()}, err
		}
		if done {
			return traceAnswer(w, pr, step.Answer, fuel.Steps())
		}
		if err := fuel.Contract(step.Redex.Rule()); err != nil {
			return Outcome{Steps: fuel.Steps()}, err
		}
		fmt.Fprintf(w, "\nstep %d: %s\n", fuel.Steps(), step.Redex.Rule())
		fmt.Fprintf(w, "  context    %s\n", pr.castContext(step.Context))
		fmt.Fprintf(w, "  redex      %s\n", pr.term(step.Redex.Term()))
		if r, ok := step.Redex.(*reduction.StepCst); ok {
			fmt.Fprintf(w, "  coercion   %s\n", contexts.Coercion(r.CContext))
			fmt.Fprintf(w, "  c-redex    %s  ->%s  %s\n", g.FormatCoercion(r.CRedex), sem.Name(), g.FormatCoercion(r.CContractum))
		}
		fmt.Fprintf(w, "  contractum %s\n", pr.term(step.Contractum))
		fmt.Fprintf(w, "  term       %s\n", pr.term(step.Next))
		if pr.err != nil {
			return Outcome{Steps: fuel.Steps()}, pr.err
		}
		e = step.Next
	}
}

// traceClosures prints every step of the calculus of closures, environment steps
// included. Environments are named (closures.Printer): a line "ρ4 = (x ↦ cl) : ρ2"
// defines one before the first line that uses it, so that the trace is linear in the
// run; every closure is printed within the output budget, and printing stops the trace
// when the time or memory budget runs out.
func traceClosures(w io.Writer, sem g.Semantics, e g.Expr, opts interderive.Options) (Outcome, error) {
	fuel := interderive.NewCounter(opts)
	pr := newPrinter(opts, fuel.Limits())
	cp := closures.NewPrinter(pr.budget)
	show := func(cl closures.Closure) string { return pr.item(cp.Closure(cl)) }
	lines := func(ls ...string) {
		for _, d := range cp.Defs() {
			fmt.Fprintf(w, "  %s\n", d)
		}
		for _, l := range ls {
			fmt.Fprint(w, l)
		}
	}
	calc := closures.Calculus{Sem: sem, Merge: opts.Merging.Merge(false)}
	var cl closures.Closure = &closures.Clo{E: e}
	for {
		step, err := calc.Decompose(cl)
		if err != nil {
			return Outcome{Steps: fuel.Steps()}, err
		}
		if step.Done {
			a := g.Answer{Blamed: step.Blamed, Blame: step.Label}
			if !step.Blamed {
				a.Value = closures.Sigma(cl)
			}
			return traceAnswer(w, pr, a, fuel.Steps())
		}
		if step.Rule == "" {
			redex, contractum := show(step.Redex), show(step.Contractum)
			lines(fmt.Sprintf("  (%s) %s  ~>  %s\n", step.Env, redex, contractum))
		} else {
			if err := fuel.Contract(step.Rule); err != nil {
				return Outcome{Steps: fuel.Steps()}, err
			}
			fmt.Fprintf(w, "\nstep %d: %s\n", fuel.Steps(), step.Rule)
			context, redex, contractum := pr.item(cp.Context(step.Context)), show(step.Redex), show(step.Contractum)
			lines("  context    "+context+"\n", "  redex      "+redex+"\n", "  contractum "+contractum+"\n")
		}
		cl = step.Next()
		if step.Rule != "" {
			lines("  closure    " + show(cl) + "\n")
		}
		if pr.err != nil {
			return Outcome{Steps: fuel.Steps()}, pr.err
		}
	}
}
