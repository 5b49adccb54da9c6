package semval

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive/sem"
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
	What string  // the declaration: "rule eta", "value of E", "class c"
	P    sem.Pos // the metavariable's position in the rule file
	Meta string  // the metavariable that matches the variable occurrence
	File string  // the rule file, when the caller knows it ("" otherwise)
}

func (e *Unqualified) Error() string {
	at := e.P.String() + " of the rule file"
	if e.File != "" {
		at = e.File + ":" + e.P.String()
	}
	return fmt.Sprintf("the pattern of %s matches a variable occurrence (%s, at %s) in a term position, where the stages over environments look variables up (docs/rules.md)",
		e.What, e.Meta, at)
}

// Unwrap makes errors.Is(err, ErrNotQualified) hold.
func (e *Unqualified) Unwrap() error { return ErrNotQualified }

// Qualifies reports whether l qualifies for environments: no pattern matches a
// variable occurrence in a term position (NotQualified says which does).
func Qualifies(l *sem.Language) bool { return NotQualified(l) == nil }

// Discipline is the discipline the derived stages run l under: environments when it
// qualifies for them and does not ask for substitution (sem.Language.Substitute),
// substitution otherwise.
func Discipline(l *sem.Language) sem.Discipline {
	if !l.Substitute && Qualifies(l) {
		return sem.Environments
	}
	return sem.Substitution
}

// WhySubstitution says, for an observer, why the stages run l by substitution: the
// pattern that matches a variable occurrence, or that substitution was asked for; ""
// when they run it under environments.
func WhySubstitution(l *sem.Language) string {
	if err := NotQualified(l); err != nil {
		return err.Error()
	}
	if l.Substitute {
		return "substitution asked for"
	}
	return ""
}

// NotQualified is why l does not qualify for environments (an *Unqualified): the first
// pattern, in the file's order of declarations by kind, that matches a variable
// occurrence in a term position; nil when l qualifies.
func NotQualified(l *sem.Language) error {
	var find func(p *sem.Pattern, term bool) *sem.Pattern
	find = func(p *sem.Pattern, term bool) *sem.Pattern {
		if p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaVar && term {
			return p
		}
		for i, a := range p.Args {
			if bad := find(a, p.Kind == sem.PatCon && p.Con.Args[i].Kind == sem.ArgTerm); bad != nil {
				return bad
			}
		}
		return nil
	}
	type decl struct {
		what string
		pat  *sem.Pattern
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
