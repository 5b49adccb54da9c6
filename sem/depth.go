package sem

import (
	"fmt"

	"github.com/interderive/interderive"
)

// MaxTermDepth bounds the recursions over a term that a run built: a value
// metavariable matched against a value whose own value patterns match values in turn,
// a class whose alternatives use the class, a substitution. Runs build terms deeper
// than any program can be written (a rule that wraps its argument each step:
// testdata/hostile/tower.sem, or the body of a function: binder.sem), and these
// recurse as deep as the term. The bound is derived from the Go stack, as the
// parsers' are (interderive.StackLimit): a level of the deepest such recursion (the
// stages over closures': a class's membership, memoized, through the match of its
// alternative) takes at most TermFrame bytes, and MaxTermDepth levels at most half the
// stack. So 2^29 / 2 / 2048 = 131,072 levels on 64-bit platforms. (TestTermDepth runs
// the recursions to the bound with a stack of StackLimit/2.) The other walks over
// terms (printing, free variables, α-equivalence, fresh names) use no recursion.
const MaxTermDepth = interderive.StackLimit / 2 / TermFrame

// TermFrame bounds the bytes of Go stack one level of a recursion over a term takes,
// in the engine's matcher (under either discipline) and substitution.
const TermFrame = 2048

// tooDeep is what a recursion nested deeper than MaxTermDepth panics with, for Guard
// to turn into an error: the matchers answer yes or no and substitution a term, and
// have no error to return.
type tooDeep struct{}

// checkTermDepth panics with tooDeep past MaxTermDepth, for Guard.
func checkTermDepth(depth int) {
	if depth > MaxTermDepth {
		panic(tooDeep{})
	}
}

// TooDeep is the error of a run whose match or substitution nested deeper than
// MaxTermDepth: a resource limit (exit status 3).
func TooDeep() error {
	return &interderive.DepthError{What: "a term the rules built (matched, or substituted in)", Limit: MaxTermDepth,
		Hint: fmt.Sprintf("the stages match and substitute in terms at most %d levels deep", MaxTermDepth)}
}

// Guard runs a stage's evaluation, and returns TooDeep() if a match or a
// substitution in it nested deeper than MaxTermDepth; any other panic goes on.
func Guard(eval func() (Answer, error)) (a Answer, err error) {
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(tooDeep); !ok {
				panic(p)
			}
			a, err = Answer{}, TooDeep()
		}
	}()
	return eval()
}

// guarded is a stage whose evaluation is guarded (Guard), with the stage's other
// interfaces (Describer, Stepper) kept.
type guarded struct{ s Stage }

// Eval runs the stage, guarded. (The run's engine, sem.NewRun, carries its time
// and memory budgets, which its functions' calls watch.)
func (g guarded) Eval(l *Language, t *Term, opts interderive.Options) (Answer, error) {
	return Guard(func() (Answer, error) { return g.s.Eval(l, t, opts) })
}

// guardedDescriber is guarded for a stage that is a Describer.
type guardedDescriber struct {
	guarded
	d Describer
}

// Describe is the stage's.
func (g guardedDescriber) Describe(l *Language) string { return g.d.Describe(l) }

// guard is s guarded, with its Describer or Stepper method.
func guard(s Stage) Stage {
	g := guarded{s}
	switch st := s.(type) {
	case Describer:
		return guardedDescriber{g, st}
	case Stepper:
		return guardedStepper{g, st}
	}
	return g
}

// guardedStepper is guarded for a stage that is a Stepper.
type guardedStepper struct {
	guarded
	st Stepper
}

// Step is the stage's, guarded.
func (g guardedStepper) Step(l *Language, t *Term) (next *Term, rule string, done bool, err error) {
	_, err = Guard(func() (Answer, error) {
		var err error
		next, rule, done, err = g.st.Step(l, t)
		return Answer{}, err
	})
	return next, rule, done, err
}
