package sem

import (
	"fmt"

	"github.com/interderive/interderive"
)

// Judgments: relations defined by inference rules, as Redex's define-judgment-form,
// run by their modes.
//
//	(judgment NAME (SORT ...) (MODE ...) RULE ...)   MODE: I (an input) or O (an output)
//	(infer RULE-NAME (NAME ARG ...) PREMISE ...)      a rule: its conclusion, its premises
//
// A premise is a judgment (NAME ARG ...), its negation (not (NAME ARG ...)), or a side
// condition (where C). The modes are
// checked as the rule is read, in the order a derivation is searched: the
// conclusion's inputs are patterns, binding their metavariables; each premise, left to
// right, takes inputs built from what is bound (templates, as right-hand sides are),
// and matches its outputs against patterns that bind new metavariables; a side
// condition uses what is bound; the conclusion's outputs are built from what is bound
// last. A metavariable used before a pattern binds it is an ill-moded rule: a
// positioned error that names it. Judgments may use one another, and themselves.

// Judgment is a judgment form.
type Judgment struct {
	Name   string
	P      Pos
	Params []Arg  // the sorts of its positions
	Out    []bool // by position: an output (O), else an input (I)
	Rules  []*Inference
}

// Inference is an inference rule of a judgment.
type Inference struct {
	Name string
	P    Pos
	// Conclusion is the rule's conclusion, by position: a pattern at an input, a
	// template at an output.
	Conclusion []*Pattern
	Premises   []*Premise
	Metas      int // metavariable slots
}

// Premise is a premise of an inference rule: a side condition (Cond), or a judgment
// (Judgment, with Args by position: templates at its inputs, patterns at its
// outputs), or, Negated, a judgment that must have no derivation, (not (NAME ARG
// ...)): decidable by the search where every position is known before it, so its
// outputs are templates too.
type Premise struct {
	P        Pos
	Cond     *Cond
	Judgment *Judgment
	Args     []*Pattern
	Negated  bool
}

// Judgment is the judgment form named name.
func (l *Language) Judgment(name string) (*Judgment, bool) {
	j, ok := l.judgments[name]
	return j, ok
}

// judgmentHeader reads (judgment NAME (SORT ...) (MODE ...) RULE ...)'s name, sorts
// and modes, so that rules may use judgments declared after them.
func (p *langParser) judgmentHeader(s *SExpr) *Judgment {
	const usage = "(judgment NAME (SORT ...) (MODE ...) (infer RULE-NAME (NAME ARG ...) PREMISE ...) ...)"
	if !p.form(s, 4, -1, usage) {
		return nil
	}
	n, ok := p.name(s.List[1], "the judgment's name")
	if !ok {
		return nil
	}
	switch {
	case p.l.cons[n] != nil:
		p.errorf(s.List[1].P, "%s is a constructor", n)
		return nil
	case p.l.funcs[n] != nil:
		p.errorf(s.List[1].P, "%s is a function", n)
		return nil
	case p.l.judgments[n] != nil:
		p.errorf(s.List[1].P, "judgment %s declared twice", n)
		return nil
	}
	sorts, modes := s.List[2], s.List[3]
	if sorts.Kind != SList || len(sorts.List) == 0 {
		p.errorf(sorts.P, "expected the judgment's sorts, a list (SORT ...), not %s: expected %s", token(sorts), usage)
		return nil
	}
	if modes.Kind != SList || len(modes.List) != len(sorts.List) {
		p.errorf(modes.P, "expected the judgment's modes, a list of %d I and O, one a position, not %s", len(sorts.List), token(modes))
		return nil
	}
	j := &Judgment{Name: n, P: s.P}
	for i, a := range sorts.List {
		arg, ok := p.argSort(a)
		if !ok {
			return nil
		}
		if arg.Kind == ArgVar {
			arg.Kind = ArgTerm // a position holds terms: a variable is a term
		}
		j.Params = append(j.Params, arg)
		switch m := modes.List[i]; {
		case isSym(m, "I"):
			j.Out = append(j.Out, false)
		case isSym(m, "O"):
			j.Out = append(j.Out, true)
		default:
			p.errorf(m.P, "expected a mode, I (an input) or O (an output), not %s", token(m))
			return nil
		}
	}
	if p.l.judgments == nil {
		p.l.judgments = map[string]*Judgment{}
	}
	p.l.judgments[n] = j
	p.l.Judgments = append(p.l.Judgments, j)
	return j
}

// judgmentBody reads a judgment's rules.
func (p *langParser) judgmentBody(j *Judgment, s *SExpr) {
	for _, r := range s.List[4:] {
		if in := p.inference(j, r); in != nil {
			j.Rules = append(j.Rules, in)
		}
	}
	if len(j.Rules) == 0 && len(p.errs) == 0 {
		p.errorf(s.P, "judgment %s has no rule", j.Name)
	}
}

// inference reads (infer RULE-NAME (NAME ARG ...) PREMISE ...), its modes checked in
// the order of the search.
func (p *langParser) inference(j *Judgment, s *SExpr) *Inference {
	if s.Kind != SList || len(s.List) < 3 || !isSym(s.List[0], "infer") {
		p.errorf(s.P, "expected a rule of %s, (infer RULE-NAME (%s ARG ...) PREMISE ...), not %s", j.Name, j.Name, token(s))
		return nil
	}
	name, ok := p.name(s.List[1], "the rule's name")
	if !ok {
		return nil
	}
	concl := p.judgmentArgs(j, s.List[2])
	if concl == nil {
		return nil
	}
	in := &Inference{Name: name, P: s.P, Conclusion: make([]*Pattern, len(j.Params))}
	ps := newPatScope(patLHS, nil)
	ps.unbound = "bound yet: the conclusion's inputs and the outputs of the premises before bind, in that order (the modes), and the conclusion's outputs come last"
	if !p.judgmentPositions(j, concl, in.Conclusion, ps, false, true) { // the inputs bind
		return nil
	}
	for _, x := range s.List[3:] {
		pr := p.premise(x, ps)
		if pr == nil {
			return nil
		}
		in.Premises = append(in.Premises, pr)
	}
	if !p.judgmentPositions(j, concl, in.Conclusion, ps, true, false) { // the outputs are built
		return nil
	}
	in.Metas = len(ps.slots)
	return in
}

// judgmentArgs checks that s is (NAME ARG ...) of the judgment j, and gives its
// arguments.
func (p *langParser) judgmentArgs(j *Judgment, s *SExpr) []*SExpr {
	if s.Kind != SList || len(s.List) == 0 || !isSym(s.List[0], j.Name) {
		p.errorf(s.P, "expected a judgment (%s ARG ...), not %s", j.Name, token(s))
		return nil
	}
	if len(s.List)-1 != len(j.Params) {
		p.errorf(s.P, "%s takes %d arguments, not %d", j.Name, len(j.Params), len(s.List)-1)
		return nil
	}
	return s.List[1:]
}

// judgmentPositions reads the positions of j among args whose mode is O (outputs
// true) or I, as patterns that bind (bind true) or templates.
func (p *langParser) judgmentPositions(j *Judgment, args []*SExpr, out []*Pattern, ps *patScope, outputs, bind bool) bool {
	mode := ps.mode
	defer func() { ps.mode = mode }()
	ps.mode = patRHS
	if bind {
		ps.mode = patLHS
	}
	for i, a := range args {
		if j.Out[i] != outputs {
			continue
		}
		if out[i] = p.pattern(a, j.Params[i], ps); out[i] == nil {
			return false
		}
	}
	return true
}

// premise reads a premise: (where C), or a judgment (NAME ARG ...), its inputs
// templates of what is bound, its outputs patterns that bind.
func (p *langParser) premise(s *SExpr, ps *patScope) *Premise {
	if s.Kind == SList && len(s.List) > 0 && isSym(s.List[0], "where") {
		mode := ps.mode
		ps.mode = patCond
		c := p.cond(s, ps)
		ps.mode = mode
		if c == nil {
			return nil
		}
		if c.Kind == CondStep {
			p.errorf(c.P, "a judgment's premise takes no step: a step is a rule's")
			return nil
		}
		return &Premise{P: s.P, Cond: c}
	}
	negated := false
	if s.Kind == SList && len(s.List) == 2 && isSym(s.List[0], "not") {
		negated, s = true, s.List[1]
	}
	if s.Kind != SList || len(s.List) == 0 || s.List[0].Kind != SSym {
		p.errorf(s.P, "expected a premise, a judgment (NAME ARG ...), its negation (not (NAME ARG ...)) or (where CONDITION), not %s", token(s))
		return nil
	}
	j, ok := p.l.judgments[s.List[0].Sym]
	if !ok {
		p.errorf(s.List[0].P, "unknown judgment %s%s", s.List[0].Sym, p.judgmentNames())
		return nil
	}
	args := p.judgmentArgs(j, s)
	if args == nil {
		return nil
	}
	pr := &Premise{P: s.P, Judgment: j, Args: make([]*Pattern, len(j.Params)), Negated: negated}
	if negated {
		// Every position is built from what is bound: the search decides it, and it
		// binds nothing.
		if !p.judgmentPositions(j, args, pr.Args, ps, false, false) || !p.judgmentPositions(j, args, pr.Args, ps, true, false) {
			return nil
		}
		return pr
	}
	if !p.judgmentPositions(j, args, pr.Args, ps, false, false) || !p.judgmentPositions(j, args, pr.Args, ps, true, true) {
		return nil
	}
	return pr
}

// judgmentNames lists the judgments, for an error that expected one.
func (p *langParser) judgmentNames() string {
	if len(p.l.Judgments) == 0 {
		return ": the file declares no judgment"
	}
	return " (" + known("judgments", p.l.JudgmentNames()) + ")"
}

// Mode is the mode of j's position i: I, an input, or O, an output.
func (j *Judgment) Mode(i int) string {
	if j.Out[i] {
		return "O"
	}
	return "I"
}

// JudgmentNames are the names of the file's judgments, in declaration order.
func (l *Language) JudgmentNames() []string {
	names := make([]string, len(l.Judgments))
	for i, j := range l.Judgments {
		names[i] = j.Name
	}
	return names
}

// Typing is the judgment a rule file types its programs with, (typing (JUDGMENT ARG
// ...)): at one input position a metavariable of the programs' sort, where the program
// goes; at each other input a closed term (the empty environment); at the output a
// metavariable, the program's type.
type Typing struct {
	P        Pos
	Judgment *Judgment
	Args     []*Pattern // the closed terms at the other inputs; nil at the program's and the type's
	Program  int        // the program's position
	Type     int        // the type's position
}

// typing reads (typing (JUDGMENT ARG ...)).
func (p *langParser) typing(s *SExpr) {
	const usage = "(typing (JUDGMENT ARG ...)): a metavariable of the programs' sort where the program goes, closed terms at the other inputs, a metavariable at the output"
	if !p.form(s, 2, 2, usage) {
		return
	}
	if p.l.Typing != nil {
		p.errorf(s.P, "a second (typing ...): the programs are typed by %s", p.l.Typing.Judgment.Name)
		return
	}
	g := s.List[1]
	if g.Kind != SList || len(g.List) == 0 || g.List[0].Kind != SSym {
		p.errorf(g.P, "expected a judgment, not %s: %s", token(g), usage)
		return
	}
	j, ok := p.l.judgments[g.List[0].Sym]
	if !ok {
		p.errorf(g.List[0].P, "unknown judgment %s%s", g.List[0].Sym, p.judgmentNames())
		return
	}
	args := p.judgmentArgs(j, g)
	if args == nil {
		return
	}
	ty := &Typing{P: s.P, Judgment: j, Args: make([]*Pattern, len(args)), Program: -1, Type: -1}
	ps := newPatScope(patRHS, nil)
	ps.unbound = "a program's or a type's place: the other inputs are closed terms"
	for i, a := range args {
		_, meta := p.metaOf(a)
		switch {
		case j.Out[i] && (!meta || ty.Type >= 0):
			p.errorf(a.P, "expected a metavariable at the output, the program's type, not %s (one output: %s)", token(a), usage)
			return
		case j.Out[i]:
			ty.Type = i
		case meta && ty.Program < 0 && j.Params[i].Sort == p.l.Sorts[0]:
			ty.Program = i
		default:
			if ty.Args[i] = p.pattern(a, j.Params[i], ps); ty.Args[i] == nil {
				return
			}
		}
	}
	if ty.Program < 0 || ty.Type < 0 {
		p.errorf(g.P, "%s has no place for the program (a metavariable of sort %s at an input) or for its type: %s", token(g), p.l.Sorts[0].Name, usage)
		return
	}
	p.l.Typing = ty
}

// TypeOf types the program t by the file's typing judgment (Typing): its type, from
// the first derivation; nil and why when there is none.
func (l *Language) TypeOf(t *Term, opts interderive.Options) (*Term, []Failure, error) {
	ty := l.Typing
	if ty == nil {
		return nil, nil, fmt.Errorf("the rule file types no program: it has no (typing ...)")
	}
	in, err := l.TypingInputs(t)
	if err != nil {
		return nil, nil, err
	}
	out, err := l.Judge(ty.Judgment, in, 1, opts)
	if err != nil || len(out.Derivations) == 0 {
		return nil, out.Failures, err
	}
	return out.Derivations[0].Args[ty.Type], nil, nil
}

// TypingInputs are the inputs of the typing judgment (Typing) for the program t: the
// file's closed terms, and t at the program's place (nil at the type's).
func (l *Language) TypingInputs(t *Term) ([]*Term, error) {
	ty := l.Typing
	if ty == nil {
		return nil, fmt.Errorf("the rule file types no program: it has no (typing ...)")
	}
	e := &Engine{l: l}
	in := make([]*Term, len(ty.Args))
	for i, a := range ty.Args {
		if a == nil {
			continue
		}
		c, err := e.instantiate(a, nil, t.P, 0)
		if err != nil {
			return nil, err
		}
		in[i] = c
	}
	in[ty.Program] = t
	return in, nil
}
