package contexts

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive/sem"
)

// Entered is γ of the direct-style stages derived from a rule file (interp/rules.go,
// compile/rules.go): the frames entered, the context a rule is contracted in. γ grows
// as the evaluator descends and shrinks as it returns, so it is a stack beside the Go
// stack: a call pushes the frame it enters (Enter) before it evaluates the frame's
// hole and pops it after (Leave); (f, n) : γ is that push. An inner layer's step
// starts from the empty context: Begin opens its γ above the frames under way, and End
// closes it. Only the files with a context rule or an answer need γ
// (sem.Language.SeesContext); for the others (Track false) it stays empty.
type Entered struct {
	Track  bool
	frames Rules // outermost first, for the run and the inner layers' steps under way
	base   int   // where the innermost of those began: γ is frames[base:]
}

// Enter pushes the frame f, entered from the expanded closure n, when γ is kept.
func (g *Entered) Enter(f *sem.Frame, n *sem.Term) {
	if g.Track {
		g.frames = append(g.frames, RulesFrame{Frame: f, Term: n})
	}
}

// Leave pops γ back to d frames.
func (g *Entered) Leave(d int) { g.frames = g.frames[:g.base+d] }

// Depth is the number of frames of γ (sem.Context).
func (g *Entered) Depth() int { return len(g.frames) - g.base }

// Frame is γ's i-th frame from the innermost, with the closure it was entered from
// (sem.Context).
func (g *Entered) Frame(i int) (*sem.Frame, *sem.Term) { return g.frames[g.base:].Frame(i) }

// Context is γ as the context of a redex: nil, the empty context, when γ is not kept.
func (g *Entered) Context() sem.Context {
	if !g.Track {
		return nil
	}
	return g
}

// Begin opens the γ of an inner layer's step, empty, above the frames under way; End
// closes it, with what Begin returned.
func (g *Entered) Begin() int {
	base := g.base
	g.base = len(g.frames)
	return base
}

// End closes the γ of an inner layer's step (Begin).
func (g *Entered) End(base int) { g.frames, g.base = g.frames[:g.base], base }

// Abort is a context rule's early return in direct style: the contractum, its kind,
// the event, and the depth of γ at the call that catches it, the one whose term the
// contractum replaces (the call that entered the delimiter's frame; depth 0, the
// outermost call, for an abort to the root). It is an error value only to travel up
// the Go stack, never a run's error: the outermost call catches every abort that gets
// that far.
type Abort struct {
	Term  *sem.Term
	Kind  *sem.Kind
	Event string
	Depth int
}

// Error says where the abort goes.
func (a *Abort) Error() string { return fmt.Sprintf("an abort to depth %d (%s)", a.Depth, a.Event) }

// Caught is the abort err carries if the call at depth d of γ catches it.
func Caught(err error, d int) (*Abort, bool) {
	if err == nil {
		return nil, false // at every return of a frame: errors.As's target would escape
	}
	var a *Abort
	if errors.As(err, &a) && a.Depth == d {
		return a, true
	}
	return nil, false
}
