package handlers

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	rh "github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/gen/handlersgen"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// The metatheory of the paper that fuzz checks besides lockstep and preservation:
// the reverse-handler theorem, the static elaboration of rev handle, and gradients
// against finite differences.

// propertyFuel bounds the contractions of each run a property makes.
const propertyFuel = 20_000

// elaborationLimit bounds the size of a static elaboration (handlers.Elaborate).
const elaborationLimit = 200_000

// theoremTolerance is the reverse-handler theorem's tolerance, relative (absolute
// below 1): the handler and the term-level rd compute the same derivative by the
// chain rule in different orders, a few roundings apart.
const theoremTolerance = 1e-12

// Finite differences: the central difference D(h) = (f(v + h) - f(v - h)) / 2h is
// within h²|f⁽³⁾|/6 of f'(v) (truncation) and ε|f|/h of its computed value (rounding,
// ε = 2.2e-16). With h = 1e-6 that is about 1e-13 |f⁽³⁾| + 2e-10 |f|: below
// fdTolerance = 1e-5 relative to the largest of 1, |f'(v)| and |f(v)| where f and its
// first three derivatives are of one magnitude, but not where squares chained into a
// sin or cos make |f⁽³⁾| large (cos(sin(2x) · (2x)⁶) at x = 2). So the check also
// allows for the truncation it measures: D(2h) - D(h) is 3h²f⁽³⁾/6 to first order,
// three times D(h)'s truncation, and is added to the tolerance with the rounding of
// both differences (a wrong gradient differs from D(h) by far more than D(h) moves
// when h doubles).
const (
	fdStep      = 1e-6
	fdTolerance = 1e-5
)

var theoremProperties = []workbench.Property{
	{Name: "reverse-handler", Failure: "the reverse-handler theorem fails",
		Doc:   "the reverse-handler theorem, run: for a random smooth body handled by a handler whose backward clauses are the reverse derivatives of its forward clauses, rev handle's gradient is the term-level rd of the body to 1e-12, and the heap is untouched",
		Check: checkReverseHandler},
	{Name: "elaboration", Failure: "the static elaboration disagrees",
		Doc:   "Def. 5.7: a random program with every rev handle elaborated statically into RH and RH expanded by Fig. 7 before the run (handlers.Elaborate) has the answer of its dynamic reduction",
		Check: checkElaboration},
	{Name: "fd-gradients", Failure: "a gradient disagrees with finite differences",
		Doc:   "a random smooth body's gradient by rev handle agrees with central finite differences of its forward run (h = 1e-6, 1e-5 relative)",
		Check: checkFiniteDifferences},
}

// runSource loads and runs a program on a stage under the strategy variant.
func runSource(src, variant string, stage interderive.Stage) (rh.Answer, error) {
	p, err := Calculus.Load(ext, []byte(src))
	if err != nil {
		return rh.Answer{}, fmt.Errorf("%v\n%s", err, src)
	}
	return runProgram(p.(program), variant, stage)
}

func runProgram(p program, variant string, stage interderive.Stage) (rh.Answer, error) {
	out, err := p.Run(stage, variant, interderive.Options{Fuel: propertyFuel})
	if err != nil {
		return rh.Answer{}, err
	}
	return out.Answer.(rh.Answer), nil
}

// reals is the reals of a value, in order.
func reals(t dpl.Term) []float64 {
	var out []float64
	var walk func(t dpl.Term)
	walk = func(t dpl.Term) {
		switch t := t.(type) {
		case *dpl.RealLit:
			out = append(out, t.R)
		case *dpl.Pair:
			walk(t.X)
			walk(t.Y)
		}
	}
	walk(t)
	return out
}

// near reports whether a and b agree to tol relative to the largest of 1, |a|, |b|
// and scale.
func near(a, b, tol, scale float64) bool {
	return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b), scale)
}

func counterexample(src string, err error) *workbench.Counterexample {
	return &workbench.Counterexample{Lang: ext, Source: src, Comment: strings.Split(err.Error(), "\n"), Err: err}
}

// resource reports whether err is a resource limit, which decides nothing.
func resource(err error) bool { return errors.Is(err, interderive.ErrResourceLimit) }

// gradient runs the handled smooth program on the stage: its gradient, after checking
// that the heap is untouched.
func gradient(s handlersgen.Smooth, variant string, stage interderive.Stage) ([]float64, error) {
	a, err := runSource(s.Handled, variant, stage)
	if err != nil {
		return nil, err
	}
	if a.Undefined != nil {
		return nil, fmt.Errorf("%s: the handled body is undefined: %s", stage.Name(), a)
	}
	if len(a.Heap) != 1 || a.Heap[0].Name != handlersgen.SmoothHeap || dpl.Format(a.Heap[0].Value) != handlersgen.SmoothHeapInit {
		return nil, fmt.Errorf("%s: the heap changed: %s", stage.Name(), a)
	}
	return reals(a.Value), nil
}

// checkReverseHandler: rev handle with derivative clauses computes the term-level rd.
func checkReverseHandler(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
	s := handlersgen.DrawSmooth(t, size)
	for _, stage := range stages {
		g, err := gradient(s, variant, stage)
		if resource(err) {
			continue
		}
		if err != nil {
			return counterexample(s.Handled, err)
		}
		a, err := runSource(s.RdProgram(), variant, stage)
		if resource(err) {
			continue
		}
		if err != nil {
			return counterexample(s.RdProgram(), err)
		}
		want := reals(a.Value)
		if a.Undefined != nil || len(want) != len(g) {
			return counterexample(s.Handled, fmt.Errorf("%s: the handler gives %v, the term-level rd %s", stage.Name(), g, a))
		}
		for i := range g {
			if !near(g[i], want[i], theoremTolerance, 0) {
				return counterexample(s.Handled, fmt.Errorf("%s: component %d of the gradient: the handler gives %v, the term-level rd %v (%s)",
					stage.Name(), i+1, g[i], want[i], strings.TrimSpace(s.RdProgram())))
			}
		}
	}
	return nil
}

// checkFiniteDifferences: rev handle's gradient against central differences of the
// body's forward run.
func checkFiniteDifferences(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
	s := handlersgen.DrawSmooth(t, size)
	for _, stage := range stages {
		g, err := gradient(s, variant, stage)
		if resource(err) {
			continue
		}
		if err != nil {
			return counterexample(s.Handled, err)
		}
		f := func(v []float64) (float64, error) {
			a, err := runSource(s.ForwardProgram(v), variant, stage)
			if err != nil {
				return 0, err
			}
			if r := reals(a.Value); a.Undefined == nil && len(r) == 1 {
				return r[0], nil
			}
			return 0, fmt.Errorf("%s: the forward run answers %s", stage.Name(), a)
		}
		fv, err := f(s.Point)
		if resource(err) {
			continue
		}
		if err != nil {
			return counterexample(s.ForwardProgram(s.Point), err)
		}
		for i := range s.Point {
			if len(g) != len(s.Point) {
				return counterexample(s.Handled, fmt.Errorf("%s: a gradient of %d components, for %d inputs", stage.Name(), len(g), len(s.Point)))
			}
			ok, diff, err := agreesWithDifferences(g[i], f, s.Point, i, s.Cot, fv)
			if resource(err) {
				return nil
			}
			if err != nil {
				return counterexample(s.ForwardProgram(s.Point), err)
			}
			if !ok {
				return counterexample(s.Handled, fmt.Errorf("%s: component %d of the gradient is %v, central differences give %v",
					stage.Name(), i+1, g, diff))
			}
		}
	}
	return nil
}

// epsilon is float64's unit roundoff.
const epsilon = 0x1p-52

// agreesWithDifferences reports whether g, component i of the gradient of cot · f at
// v (where f is fv), agrees with the central difference D(h), within fdTolerance and
// the slack the differences measure: |D(2h) - D(h)| and the rounding of both. It also
// returns D(h).
func agreesWithDifferences(g float64, f func([]float64) (float64, error), v []float64, i int, cot, fv float64) (bool, float64, error) {
	d, err := central(f, v, i, fdStep)
	if err != nil {
		return false, 0, err
	}
	d2, err := central(f, v, i, 2*fdStep)
	if err != nil {
		return false, 0, err
	}
	d, d2 = cot*d, cot*d2
	slack := math.Abs(d2-d) + 4*epsilon*math.Abs(cot*fv)/fdStep
	return math.Abs(g-d) <= fdTolerance*max(1, math.Abs(g), math.Abs(d), math.Abs(cot*fv))+slack, d, nil
}

// central is the central difference of f in coordinate i at v with step h.
func central(f func([]float64) (float64, error), v []float64, i int, h float64) (float64, error) {
	up, down := slices.Clone(v), slices.Clone(v)
	up[i] += h
	down[i] -= h
	fu, err1 := f(up)
	fd, err2 := f(down)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return (fu - fd) / (2 * h), nil
}

// checkElaboration: a random program elaborated statically answers as it reduces, on
// the reference stage (the elaborated program has no rev handle: lockstep says more of
// the other stages).
func checkElaboration(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
	stages = stages[:1]
	p := Calculus.Generate(t, size, variant).(program)
	e, err := rh.Elaborate(p.prog, elaborationLimit)
	if err != nil {
		return nil // past the size bound: decides nothing
	}
	if _, err := rh.Check(e); err != nil {
		return counterexample(rh.Format(p.prog), fmt.Errorf("the elaboration is ill-typed: %v\n%s", err, rh.Format(e)))
	}
	for _, stage := range stages {
		want, err := runProgram(p, variant, stage)
		if resource(err) {
			continue
		}
		if err != nil {
			return counterexample(rh.Format(p.prog), err)
		}
		got, err := runProgram(program{prog: e}, variant, stage)
		if resource(err) {
			continue
		}
		if err != nil {
			return counterexample(rh.Format(p.prog), fmt.Errorf("%s: the elaboration: %v", stage.Name(), err))
		}
		if (got.Undefined == nil) != (want.Undefined == nil) || got.Undefined == nil && !SameAnswer(got, want) {
			return counterexample(rh.Format(p.prog), fmt.Errorf("%s: the elaboration answers %s, the reduction %s", stage.Name(), got, want))
		}
	}
	return nil
}
