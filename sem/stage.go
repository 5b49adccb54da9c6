package sem

import "github.com/interderive/interderive"

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
func StageOf(s interderive.Stage) (Stage, bool) {
	r, ok := s.(interface{ Rules() Stage })
	if !ok {
		return nil, false
	}
	return r.Rules(), true
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

// Contract contracts the potential redex t of kind k: the first rule (in order) whose
// left-hand side matches and whose side conditions hold gives the contractum; if none
// does, t is stuck: a declared stuck shape it matches is the program's run-time error
// (*interderive.RuntimeError, with the shape's reason), anything else a stuck run
// (*interderive.StuckError: the rule file's checks missed it).
func (l *Language) Contract(t *Term, k *Kind) (*Term, *Rule, error) {
	for _, i := range k.rules.candidates(t) {
		r := k.Rules[i]
		b := make([]*Term, r.Metas)
		if !l.Match(r.LHS, t, b) || !l.Conditions(r, b) {
			continue
		}
		c, err := l.Instantiate(r.RHS, b, t.P)
		if err != nil {
			return nil, r, interderive.Stuck(FormatShort(t, interderive.MaxStuckShown), "rule %s: %v", r.Name, err)
		}
		return c, r, nil
	}
	for _, i := range k.stucks.candidates(t) {
		s := k.Stucks[i]
		if l.Match(s.Pat, t, make([]*Term, s.Metas)) {
			return nil, nil, interderive.Runtime(t.P, FormatShort(t, interderive.MaxStuckShown), s.Reason)
		}
	}
	return nil, nil, interderive.Stuck(FormatShort(t, interderive.MaxStuckShown), "no rule applies")
}
