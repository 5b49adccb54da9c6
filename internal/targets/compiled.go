package targets

import (
	"fmt"
	"time"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/workbench"
)

// TargetCompiledFib runs fully typed fib on the compiled stage, on interp (whose own
// target is TargetNativeFib's) and in Go: the compiled stage within 5× of Go. Each
// stage runs the program as the workbench runs a stage without an observer: the
// compiled stage's time includes compiling the program, every run.
func TargetCompiledFib(c Config) (Target, error) {
	const n = 25
	t := Target{Name: fmt.Sprintf("compiled typed fib %d against Go", n), Bound: "compile ≤ 5× native Go"}
	p, err := c.program("fib-typed.gtlc")
	if err != nil {
		return t, err
	}
	prog, err := p.Calculus.Load(p.Lang, []byte(p.Source(fmt.Sprint(n))))
	if err != nil {
		return t, err
	}
	cast, ok := prog.(interface{ Term() g.Expr })
	if !ok {
		return t, fmt.Errorf("%s is not a program of the gradual calculi", p.Name)
	}
	e := g.Translate(g.ED, cast.Term())
	native, _ := workbench.TimeIt(func() error {
		if NativeFib(n) != 75025 {
			return fmt.Errorf("native fib")
		}
		return nil
	})
	t.Details = append(t.Details, fmt.Sprintf("%-9s %12s", "native Go", native))
	times := map[string]time.Duration{}
	for _, name := range []string{"interp", "compile"} {
		st, ok := g.StageOf(stageNamed(name))
		if !ok {
			return t, fmt.Errorf("the %s stage does not run the gradual calculi", name)
		}
		d, err := workbench.TimeIt(func() error {
			a, err := st.Eval(g.ED, e, interderive.Options{})
			if err == nil && a.Observe() != "75025" {
				err = fmt.Errorf("fib %d on %s answers %s", n, name, a.Observe())
			}
			return err
		})
		if err != nil {
			return t, err
		}
		times[name] = d
		line := fmt.Sprintf("%-9s %12s  %.1f× native", name, d.Round(time.Microsecond), d.Seconds()/native.Seconds())
		c.logf("  %s", line)
		t.Details = append(t.Details, line)
	}
	ratio := times["compile"].Seconds() / native.Seconds()
	t.Measured = fmt.Sprintf("compile %.1f× native (interp %.1f×, %.1f× compile)", ratio,
		times["interp"].Seconds()/native.Seconds(), times["interp"].Seconds()/times["compile"].Seconds())
	t.Met = ratio <= 5
	return t, nil
}
