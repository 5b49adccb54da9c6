package sem

import (
	"errors"
	"slices"

	"github.com/interderive/interderive"
)

// Stage is a derived stage of a rule-defined calculus: it runs a closed term of the
// language to its answer. Every contraction goes to opts.OnContract (the rule's name),
// the stage's own steps to opts.Observer.
type Stage interface {
	Eval(l *Language, t *Term, opts interderive.Options) (Answer, error)
}

// A Describer is a derived stage that shows what it derived from a rule file, for a
// person (interderive derive): its transitions, its equations.
type Describer interface {
	Describe(l *Language) string
}

// StageOf is the derived artefact of the stage s, if s has one: a stage derives
// rule-defined calculi by a method Rules() Stage, in a file rules.go of its package.
// Its runs are guarded (Guard): a match or a substitution nested past MaxTermDepth is
// an error, and a function's evaluation watches the run's budgets.
func StageOf(s interderive.Stage) (Stage, bool) {
	r, ok := s.(interface{ Rules() Stage })
	if !ok {
		return nil, false
	}
	return guard(r.Rules()), true
}

// A Refuser is a derived stage that does not run every rule file: Refuses says why it
// does not run l, nil when it does (the stages over environments refuse the files
// that do not qualify for them: internal/values/semval.NotQualified). The workbench
// asks before running, so that a refusal is a skip, not a failure.
type Refuser interface {
	Refuses(l *Language) error
}

// A Stepper is a stage that takes one step at a time: the derived reduction
// semantics, whose steps the lockstep tests follow term by term.
type Stepper interface {
	// Step decomposes t, contracts the redex and plugs the contractum back: the term
	// after the step and the rule it contracted by; done (and t's answer) when t is
	// an answer.
	Step(l *Language, t *Term) (next *Term, rule string, done bool, err error)
}

// Answer is the outcome of a run: a value of the root kind.
type Answer struct{ Value *Term }

// String prints the answer.
func (a Answer) String() string { return Format(a.Value) }

// PlugAt is t with its subterm at path (argument indices from the root) replaced by
// u: a frame plugged. It recurses as deep as the path, a frame's pattern's depth.
func PlugAt(t *Term, path []int, u *Term) *Term {
	if len(path) == 0 {
		return u
	}
	args := make([]*Term, len(t.Args))
	copy(args, t.Args)
	args[path[0]] = PlugAt(t.Args[path[0]], path[1:], u)
	return &Term{P: t.P, Op: TermCon, Con: t.Con, Args: args}
}

// At is t's subterm at path.
func At(t *Term, path []int) *Term {
	for _, i := range path {
		t = t.Args[i]
	}
	return t
}

// FindFrame is the first frame of kind k, from index from on in the search order,
// that t matches (its hole holding anything): the elementary decomposition of t.
func (l *Language) FindFrame(t *Term, k *Kind, from int) (*Frame, bool) {
	for _, i := range k.frames.candidates(t) {
		if i < from {
			continue
		}
		f := k.Frames[i]
		if l.Match(f.Pat, t, make([]*Term, f.Metas)) {
			return f, true
		}
	}
	return nil, false
}

// A LayerStep takes one step of an inner layer for a rule's (step K a b): the
// stage's own decomposition of t in kind k, contraction and plugging. ok is false
// when t is a value of k (it does not step); event is the inner contraction's event.
type LayerStep func(t *Term, k *Kind) (next *Term, event string, ok bool, err error)

// Context is the context of a potential redex as a stage holds it: its frames,
// innermost first, each with the term it was entered from (its hole's contents may
// be stale; a delimiter's hole matches anything).
type Context interface {
	Depth() int
	Frame(i int) (*Frame, *Term)
}

// Contraction is a redex contracted.
type Contraction struct {
	Term  *Term
	Rule  *Rule
	Event string // the rule's name; Name/<inner event> for a rule that stepped a layer
	// Pop is the number of frames of the context that the contraction discards (a
	// context rule's): the contractum replaces the term of the last one popped, and
	// is of its kind (Kind).
	Pop  int
	Kind *Kind
}

// Contract contracts the potential redex t of kind k in the context E (nil: the empty
// context): the first rule (in order) whose left-hand side matches, whose context
// fits (a context rule's: a non-empty context, or a delimiter in it) and whose side
// conditions hold gives the contractum, a step condition stepping its inner layer
// with step. If none does, t is stuck: a declared stuck shape it matches is the
// program's run-time error (*interderive.RuntimeError, with the shape's reason),
// anything else a stuck run (*interderive.StuckError: the rule file's checks missed
// it).
func (l *Language) Contract(t *Term, k *Kind, E Context, step LayerStep) (Contraction, error) {
	depth := 0
	if E != nil {
		depth = E.Depth()
	}
	for _, i := range k.rules.candidates(t) {
		r := k.Rules[i]
		b := make([]*Term, r.Metas)
		if !l.Match(r.LHS, t, b) {
			continue
		}
		out := Contraction{Rule: r, Kind: k}
		if r.Context {
			if out.Pop = l.contextFits(r, E, depth, b); out.Pop == 0 {
				continue
			}
			if r.Delimiter == nil {
				out.Kind = l.Root()
			} else {
				f, _ := E.Frame(out.Pop - 1)
				out.Kind = f.Kind
			}
		}
		ok, inner, err := l.conditions(r.Where, b, step)
		if err != nil {
			return Contraction{}, err
		}
		if !ok {
			continue
		}
		out.Event = r.Name
		if r.Layer != nil {
			out.Event = r.Name + "/" + inner
		}
		at := t.P
		if out.Pop > 0 {
			_, ft := E.Frame(out.Pop - 1)
			at = ft.P
		}
		c, err := l.Instantiate(r.RHS, b, at)
		if err != nil {
			return Contraction{}, RuleError(r, FormatShort(t, interderive.MaxStuckShown), err)
		}
		out.Term = c
		return out, nil
	}
	for _, i := range k.stucks.candidates(t) {
		s := k.Stucks[i]
		if l.Match(s.Pat, t, make([]*Term, s.Metas)) {
			return Contraction{}, interderive.Runtime(t.P, FormatShort(t, interderive.MaxStuckShown), s.Reason)
		}
	}
	return Contraction{}, interderive.Stuck(FormatShort(t, interderive.MaxStuckShown), "no rule applies")
}

// RuleError is the error of a rule r whose right-hand side could not be built (err,
// from Instantiate) for the redex printed: a meta-function's failure is the rule
// file's (*FunctionError, which is told the rule); anything else, a prim undefined
// there, a stuck run.
func RuleError(r *Rule, redex string, err error) error {
	var fe *FunctionError
	if errors.As(err, &fe) {
		if fe.Rule == "" {
			fe.Rule = r.Name
		}
		return fe
	}
	if errors.Is(err, interderive.ErrResourceLimit) {
		return err // the run's time or memory, spent in a function's evaluation
	}
	return interderive.Stuck(redex, "rule %s: %v", r.Name, err)
}

// contextFits is the number of frames of E a context rule r discards, 0 if its
// context does not fit: all of a non-empty context for an abort to the root; for a
// delimited rule, the frames up to the innermost that matches the delimiter (whose
// metavariables it binds in b).
func (l *Language) contextFits(r *Rule, E Context, depth int, b []*Term) int {
	if r.Delimiter == nil {
		return depth
	}
	for i := range depth {
		f, ft := E.Frame(i)
		if !slices.Equal(f.Path, r.DelimiterPath) {
			continue
		}
		if l.Match(r.Delimiter, ft, b) {
			return i + 1
		}
	}
	return 0
}
