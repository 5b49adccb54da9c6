package sem

import (
	"errors"
	"fmt"
)

// ErrNotQualified is the error a stage over environments refuses a rule file with
// when the file does not qualify (Qualifies): errors.Is(err, ErrNotQualified) holds for
// its refusal, an *Unqualified.
var ErrNotQualified = errors.New("the rule file does not qualify for environments")

// Unqualified says why a rule file does not qualify for environments: a pattern of it
// (of a value, frame, rule, stuck shape, answer, delimiter or class alternative)
// matches a variable occurrence in a term position, where environments look the
// variable up instead.
type Unqualified struct {
	What string // the declaration: "rule eta", "value of E", "class c"
	P    Pos    // the metavariable's position in the rule file
	Meta string // the metavariable that matches the variable occurrence
	File string // the rule file, when the caller knows it ("" otherwise)
	// Why is the reason when it is not a pattern (What and Meta are then empty):
	// a kind whose values are its normal forms, a sequence of items that binds.
	Why string
}

func (e *Unqualified) Error() string {
	at := e.P.String() + " of the rule file"
	if e.File != "" {
		at = e.File + ":" + e.P.String()
	}
	if e.Why != "" {
		return fmt.Sprintf("%s (at %s) (docs/rules.md)", e.Why, at)
	}
	return fmt.Sprintf("the pattern of %s matches a variable occurrence (%s, at %s) in a term position, where the stages over environments look variables up (docs/rules.md)",
		e.What, e.Meta, at)
}

// Unwrap makes errors.Is(err, ErrNotQualified) hold.
func (e *Unqualified) Unwrap() error { return ErrNotQualified }

// Qualifies reports whether l qualifies for environments: no pattern matches a
// variable occurrence in a term position (NotQualified says which does).
func (l *Language) Qualifies() bool { return l.unqualified == nil }

// Discipline is the discipline the derived stages run l under: environments when it
// qualifies for them and does not ask for substitution (Language.Substitute),
// substitution otherwise.
func (l *Language) Discipline() Discipline {
	if !l.Substitute && l.Qualifies() {
		return Environments
	}
	return Substitution
}

// WhySubstitution says, for an observer, why the stages run l by substitution: the
// pattern that matches a variable occurrence, or that substitution was asked for; ""
// when they run it under environments.
func (l *Language) WhySubstitution() string {
	if err := l.NotQualified(); err != nil {
		return err.Error()
	}
	if l.Substitute {
		return "substitution asked for"
	}
	return ""
}

// NotQualified is why l does not qualify for environments (an *Unqualified, naming
// l's file): the first pattern, in the file's order of declarations by kind, that
// matches a variable occurrence in a term position; nil when l qualifies. It is found
// once, when the file is read (qualify).
func (l *Language) NotQualified() error {
	if l.unqualified == nil {
		return nil
	}
	u := *l.unqualified
	u.File = l.File
	return &u
}

// qualify finds why l does not qualify for environments, if it does not.
func (l *Language) qualify() *Unqualified {
	for _, k := range l.Kinds {
		if k.NormalForms {
			return &Unqualified{P: k.P, Why: "kind " + k.Name + "'s values are its normal forms: its search may reach open terms, whose variables the stages over environments would look up"}
		}
	}
	for _, c := range l.Cons {
		for _, bd := range c.Binds {
			if a := c.Args[bd.Binder]; isSeqArg(a) && a.Sort.Elem.Kind == ArgTerm {
				return &Unqualified{P: c.P, Why: "constructor " + c.Name + " binds by a sequence of items, which the stages over environments do not bind yet"}
			}
		}
	}
	var find func(p *Pattern, term bool) *Pattern
	find = func(p *Pattern, term bool) *Pattern {
		if p.Kind == PatMeta && p.Sort.Kind == MetaVar && term {
			return p
		}
		for i, a := range p.Args {
			term := p.Kind == PatCon && p.Con.Args[i].Kind == ArgTerm || p.Kind == PatSeq && p.Sort.Sort.Elem.Kind == ArgTerm
			if bad := find(a, term); bad != nil {
				return bad
			}
		}
		return nil
	}
	type decl struct {
		what string
		pat  *Pattern
	}
	var decls []decl
	for _, k := range l.Kinds {
		for _, v := range k.Values {
			decls = append(decls, decl{"a value of " + k.Name, v.Pat})
		}
		for _, f := range k.Frames {
			decls = append(decls, decl{"a frame of " + k.Name, f.Pat})
		}
		for _, r := range k.Rules {
			decls = append(decls, decl{"rule " + r.Name, r.LHS})
			if r.Delimiter != nil {
				decls = append(decls, decl{"the delimiter of rule " + r.Name, r.Delimiter})
			}
			for _, w := range r.Where {
				if w.Kind == CondMatch {
					decls = append(decls, decl{"a (match ...) of rule " + r.Name, w.Args[0]})
				}
			}
		}
		for _, s := range k.Stucks {
			decls = append(decls, decl{"a stuck shape of " + k.Name, s.Pat})
		}
		for _, a := range k.Answers {
			decls = append(decls, decl{"an answer of " + k.Name, a.Pat})
		}
	}
	for _, c := range l.Classes {
		for _, a := range c.Alts {
			decls = append(decls, decl{"class " + c.Name, a})
		}
	}
	for _, d := range decls {
		if bad := find(d.pat, true); bad != nil {
			return &Unqualified{What: d.what, P: bad.P, Meta: bad.Meta}
		}
	}
	return nil
}
