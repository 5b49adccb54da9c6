package sem

import (
	"fmt"

	"github.com/interderive/interderive"
	"slices"
	"strings"
)

// Properties: what a rule file claims of its semantics, which fuzz checks on
// generated programs (the metatheory Redex's users state with redex-check):
//
//	(property progress)        a well-typed program is a value or an answer, or steps
//	(property preservation)    a well-typed program's every step keeps its type
//	(property type-soundness)  a well-typed program does not get stuck within the fuel
//	(property determinism)     each term decomposes one way (the static checks prove it)
//	(property NAME (e) PREMISE ...)      PREMISE ... hold of every generated program e
//	(property NAME (e e_2) PREMISE ...)  ... of every step e → e_2 of a generated program
//
// The first three need the file's typing judgment ((typing ...)). A property of
// one's own names the program (e, a metavariable of the programs' sort) and, for a
// property of steps, the term after a step; its premises are a judgment rule's:
// judgments, their negations, side conditions, read by the modes with e (and e_2)
// bound. It is a judgment of its own, named as the property, with one rule: judge
// runs it on a term of one's choosing.

// Property is a property a rule file states.
type Property struct {
	Name string
	P    Pos
	// Standard is a standard property's name ("progress", ...); "" for one of the
	// file's own, whose premises are Judgment's one rule.
	Standard string
	Judgment *Judgment
	// Steps marks a property of steps (e e_2): its judgment takes the term before and
	// the term after.
	Steps bool
}

// StandardProperties are the properties a rule file names without stating them, and
// whether each needs the typing judgment.
var StandardProperties = map[string]bool{"progress": true, "preservation": true, "type-soundness": true, "determinism": false}

// standardNames lists them, sorted, for an error.
func standardNames() string {
	var ns []string
	for n := range StandardProperties {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return strings.Join(ns, ", ")
}

// propertyHeader reads a property's declaration: a standard one is recorded; one of
// the file's own is returned as the judgment declaration it stands for, (judgment
// NAME (e ...) (I ...) (infer NAME (NAME e ...) PREMISE ...)), which the caller reads
// as the file's judgments are read.
func (p *langParser) propertyHeader(s *SExpr) *SExpr {
	const usage = "(property STANDARD) or (property NAME (e [e_2]) PREMISE ...)"
	if !p.form(s, 2, -1, usage) {
		return nil
	}
	n, ok := p.name(s.List[1], "the property's name")
	if !ok {
		return nil
	}
	if slices.ContainsFunc(p.l.Properties, func(q *Property) bool { return q.Name == n }) {
		p.errorf(s.List[1].P, "property %s stated twice", n)
		return nil
	}
	if len(s.List) == 2 {
		if _, ok := StandardProperties[n]; !ok {
			p.errorf(s.List[1].P, "unknown property %s: a property without premises is a standard one (%s); one of the file's own is %s", n, standardNames(), usage)
			return nil
		}
		p.l.Properties = append(p.l.Properties, &Property{Name: n, P: s.P, Standard: n})
		return nil
	}
	if _, ok := StandardProperties[n]; ok {
		p.errorf(s.List[1].P, "%s is a standard property: state it as (property %s)", n, n)
		return nil
	}
	terms := s.List[2]
	if terms.Kind != SList || len(terms.List) < 1 || len(terms.List) > 2 {
		p.errorf(terms.P, "expected (e) or (e e_2), the program and the term after a step, not %s: %s", token(terms), usage)
		return nil
	}
	prog := p.l.Sorts[0]
	for _, x := range terms.List {
		ms, ok := p.metaOf(x)
		if !ok || ms.Kind != MetaTerm || ms.Sort != prog {
			p.errorf(x.P, "%s: a property's terms are metavariables of the programs' sort %s (%s)", token(x), prog.Name, strings.Join(prog.Metas, ", "))
			return nil
		}
	}
	if len(s.List) == 3 {
		p.errorf(s.P, "property %s states no premise: %s", n, usage)
		return nil
	}
	sorts := &SExpr{P: terms.P, Kind: SList}
	modes := &SExpr{P: terms.P, Kind: SList}
	for range terms.List {
		sorts.List = append(sorts.List, &SExpr{P: terms.P, Kind: SSym, Sym: prog.Metas[0]})
		modes.List = append(modes.List, &SExpr{P: terms.P, Kind: SSym, Sym: "I"})
	}
	concl := &SExpr{P: terms.P, Kind: SList, List: append([]*SExpr{s.List[1]}, terms.List...)}
	rule := &SExpr{P: s.P, Kind: SList, List: append([]*SExpr{{P: s.P, Kind: SSym, Sym: "infer"}, s.List[1], concl}, s.List[3:]...)}
	p.l.Properties = append(p.l.Properties, &Property{Name: n, P: s.P, Steps: len(terms.List) == 2})
	return &SExpr{P: s.P, Kind: SList, List: []*SExpr{{P: s.P, Kind: SSym, Sym: "judgment"}, s.List[1], sorts, modes, rule}}
}

// checkProperties checks, once the typing judgment is read, that each standard
// property that needs it has it, and ties each property of the file's own to its
// judgment.
func (p *langParser) checkProperties() {
	for _, q := range p.l.Properties {
		if q.Standard != "" {
			if StandardProperties[q.Standard] && p.l.Typing == nil {
				p.errorf(q.P, "property %s is of well-typed programs: the file names no typing judgment ((typing (JUDGMENT ...)))", q.Name)
			}
			continue
		}
		q.Judgment = p.l.judgments[q.Name]
	}
}

// Property is the property named name.
func (l *Language) Property(name string) (*Property, bool) {
	i := slices.IndexFunc(l.Properties, func(q *Property) bool { return q.Name == name })
	if i < 0 {
		return nil, false
	}
	return l.Properties[i], true
}

// Holds reports whether a property of the file's own holds of a program t (and,
// for a property of steps, of the term after, next): its judgment has a derivation.
// Failures say, if not, which premise no derivation satisfies.
func (l *Language) Holds(q *Property, t, next *Term, opts interderive.Options) (bool, []Failure, error) {
	if q.Judgment == nil {
		return false, nil, fmt.Errorf("property %s is a standard one: its check is the workbench's", q.Name)
	}
	in := []*Term{t}
	if q.Steps {
		in = append(in, next)
	}
	out, err := l.Judge(q.Judgment, in, 1, opts)
	if err != nil {
		return false, nil, err
	}
	return len(out.Derivations) > 0, out.Failures, nil
}
