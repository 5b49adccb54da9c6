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
	fmt.Fprintf(w, "term       %s\n", g.Format(e))
	switch stage {
	case "reduction":
		return traceReduction(w, sem, e, opts)
	case "closures":
		return traceClosures(w, sem, e, opts)
	}
	steps := 0
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
	fmt.Fprintf(w, "answer     %s\n", a)
	return outcomeOf(a, steps), nil
}

func traceReduction(w io.Writer, sem g.Semantics, e g.Expr, opts interderive.Options) (Outcome, error) {
	fuel := interderive.NewCounter(opts)
	r := reduction.Cast{Sem: sem, Merge: opts.Merging.Merge(false)}
	for {
		step, done, err := r.Reduce(e)
		if err != nil {
			return Outcome{Steps: fuel.Steps()}, err
		}
		if done {
			fmt.Fprintf(w, "answer     %s\n", step.Answer)
			return outcomeOf(step.Answer, fuel.Steps()), nil
		}
		if err := fuel.Contract(step.Redex.Rule()); err != nil {
			return Outcome{Steps: fuel.Steps()}, err
		}
		fmt.Fprintf(w, "\nstep %d: %s\n", fuel.Steps(), step.Redex.Rule())
		fmt.Fprintf(w, "  context    %s\n", step.Context)
		fmt.Fprintf(w, "  redex      %s\n", g.Format(step.Redex.Term()))
		if r, ok := step.Redex.(*reduction.StepCst); ok {
			fmt.Fprintf(w, "  coercion   %s\n", contexts.Coercion(r.CContext))
			fmt.Fprintf(w, "  c-redex    %s  ->%s  %s\n", g.FormatCoercion(r.CRedex), sem.Name(), g.FormatCoercion(r.CContractum))
		}
		fmt.Fprintf(w, "  contractum %s\n", g.Format(step.Contractum))
		fmt.Fprintf(w, "  term       %s\n", g.Format(step.Next))
		e = step.Next
	}
}

func traceClosures(w io.Writer, sem g.Semantics, e g.Expr, opts interderive.Options) (Outcome, error) {
	fuel := interderive.NewCounter(opts)
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
			fmt.Fprintf(w, "answer     %s\n", a)
			return outcomeOf(a, fuel.Steps()), nil
		}
		if step.Rule == "" {
			fmt.Fprintf(w, "  (%s) %s  ~>  %s\n", step.Env, closures.Format(step.Redex), closures.Format(step.Contractum))
		} else {
			if err := fuel.Contract(step.Rule); err != nil {
				return Outcome{Steps: fuel.Steps()}, err
			}
			fmt.Fprintf(w, "\nstep %d: %s\n", fuel.Steps(), step.Rule)
			fmt.Fprintf(w, "  context    %s\n", step.Context)
			fmt.Fprintf(w, "  redex      %s\n", closures.Format(step.Redex))
			fmt.Fprintf(w, "  contractum %s\n", closures.Format(step.Contractum))
		}
		cl = step.Next()
		if step.Rule != "" {
			fmt.Fprintf(w, "  closure    %s\n", closures.Format(cl))
		}
	}
}
