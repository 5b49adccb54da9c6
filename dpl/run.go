package dpl

import (
	"errors"

	"github.com/interderive/interderive"
)

// Run is the state of one run of a stage of the language that every stage keeps alike,
// whatever its shape: the differentiation strategy, the fuel counter and the budget
// that R is held to, the supply of fresh names, the nodes of the terms the run builds
// (traces, the variables of Figure 5), the observer of rd, and the nesting of layers.
// A stage keeps one, by value, beside its own state (contexts, frames, continuations),
// and evaluates as its artefact does; Run holds none of that.
type Run struct {
	// AD is the differentiation strategy.
	AD Differentiator
	// Fuel counts the run's contractions against its budgets: every contraction of
	// every layer is one Fuel.Contract, named by its layer's mode (Mode.Rule).
	Fuel *interderive.Counter
	// Names supplies the fresh names: Figure 5's variables, and R's.
	Names *Names
	// Nodes makes the nodes of the terms the run builds.
	Nodes Nodes
	// OnRd, if not nil, receives every rd once its contraction is complete: the trace
	// term of its body and its derivative term (ReportRd).
	OnRd func(trace, derivative Term)

	budget int // the fuel of the run: R's budget is what is left of it
	layers int // the nesting of layers, for the stages whose layers are Go calls
}

// NewRun starts a run of the elaborated program prog under the strategy ad and the
// budgets of opts, reporting every rd to onRd (nil: nowhere). It refuses a run
// without a strategy, and a program deeper than MaxDepth (an
// *interderive.DepthError): the stages share the meta-level functions that recurse
// over terms.
func NewRun(ad Differentiator, prog Term, opts interderive.Options, onRd func(trace, derivative Term)) (Run, error) {
	if ad == nil {
		return Run{}, interderive.Stuck("", "no differentiation strategy")
	}
	if err := CheckDepth("term", prog); err != nil {
		return Run{}, err
	}
	return Run{AD: ad, Fuel: interderive.NewCounter(opts), Names: NewNames(prog), OnRd: onRd, budget: opts.Budget()}, nil
}

// NewOpenRun is NewRun for the symbolic evaluation ρ ⊢ M ⇝ C of a stage's TraceDiff:
// the open term m whose free variables rho maps to closed values. The fresh names
// avoid rho's variables and values too.
func NewOpenRun(ad Differentiator, rho map[string]Term, m Term, opts interderive.Options) (Run, error) {
	r, err := NewRun(ad, m, opts, nil)
	if err != nil {
		return Run{}, err
	}
	roots := []Term{m}
	for x, v := range rho {
		roots = append(roots, &Var{Name: x}, v)
	}
	r.Names = NewNames(roots...)
	return r, nil
}

// TraceOf is the outcome of a symbolic evaluation that ended with the trace c or the
// error err, as a stage's TraceDiff returns it: an error carrying a *Undefined (a
// condition, or the trace of a redex in a nontrivial context, is undefined) is no
// trace and says why; any other error is returned as it is.
func TraceOf(c Term, err error) (Term, *Undefined, error) {
	var undef *Undefined
	if errors.As(err, &undef) {
		return nil, undef, nil
	}
	return c, nil, err
}

// MaxLayers bounds the nesting of layers — symbolic evaluations (of rd bodies, and of
// the redexes of Figure 5) and the ordinary evaluations of their traces — on every
// stage alike, so that a run that nests too deeply ends the same way on each.
const MaxLayers = 10_000

// LayerError is the error of a run whose layers would nest deeper than MaxLayers.
func LayerError() error {
	return &interderive.DepthError{What: "rd and symbolic evaluation", Limit: MaxLayers}
}

// CheckLayers is the bound on layers for a stage that keeps them as data: n layers
// are nested already (the program's own layer not counted), and one more would pass
// MaxLayers.
func CheckLayers(n int) error {
	if n >= MaxLayers {
		return LayerError()
	}
	return nil
}

// Enter starts a nested layer, for a stage whose layers are Go calls; past
// MaxLayers it is an error (LayerError). Leave ends it.
func (r *Run) Enter() error {
	if err := CheckLayers(r.layers); err != nil {
		return err
	}
	r.layers++
	return nil
}

// Leave ends the layer Enter started.
func (r *Run) Leave() { r.layers-- }

// Layer is the nesting of the current layer that Enter counts: 0 for the program's.
func (r *Run) Layer() int { return r.layers }

// Derive is the contractum of an rd, W.R_V(x:T. C) by the run's strategy (the
// package's Derive): R holds the derivative to the fuel left, and types types the
// free variables of W, V and C other than x.
func (r *Run) Derive(types TypeEnv, w, v Term, x string, t Type, c Term) (Term, error) {
	steps := r.Fuel.Steps()
	return Derive(r.AD, DiffEnv{Types: types, Names: r.Names, Budget: r.budget - steps}, steps, w, v, x, t, c)
}

// An RdReport is an rd whose contraction is not complete yet (Figure 5 still
// evaluates its derivative): the trace term of its body and its derivative term, to
// report once it is.
type RdReport struct{ Trace, Derivative Term }

// ReportRd reports an rd whose contraction is complete to OnRd, if set.
func (r *Run) ReportRd(trace, derivative Term) {
	if r.OnRd != nil {
		r.OnRd(trace, derivative)
	}
}

// BindFresh is the end of Figure 5 once C ⇒ V: the trace lets grows by
// let x:T_V = C, x fresh, and x (at p) is returned: what the redex leaves in its
// context, standing for V.
func (r *Run) BindFresh(lets *[]*Let, p Pos, c, v Term) *Var {
	x, tv := r.fresh(v)
	*lets = append(*lets, r.Nodes.Let(p, x, tv, c))
	return r.Nodes.Var(p, x)
}

// fresh is the variable of Figure 5's binding for the value v: a fresh name, and T_V.
func (r *Run) fresh(v Term) (string, Type) {
	tv, _ := TypeOfValue(v)
	return r.Names.Fresh("s"), tv
}

// Traced is a stage's evaluation of a program (EvalDiffTraced) that reports every rd,
// once its contraction is complete, to onRd (nil: nowhere).
type Traced func(ad Differentiator, prog Term, opts interderive.Options, onRd func(trace, derivative Term)) (Answer, error)

// Eval makes f the Stage of an evaluator that has no steps of its own to show: it
// reports every rd to opts.Observer, if set (RdReporter).
func (f Traced) Eval(ad Differentiator, prog Term, opts interderive.Options) (Answer, error) {
	return f(ad, prog, opts, RdReporter(opts))
}

// RdReporter is the onRd of a stage that reports every rd to opts.Observer: its trace
// and derivative, printed within the run's budgets, with the contraction it completes
// left for the observer to place (0). It is nil when opts has no observer.
func RdReporter(opts interderive.Options) func(trace, derivative Term) {
	obs := opts.Observer
	if obs == nil {
		return nil
	}
	s := NewShower(opts, interderive.NewLimits(opts, nil))
	return func(trace, derivative Term) { s.ReportRd(obs, 0, "", trace, derivative) }
}
