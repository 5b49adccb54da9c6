package redex

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/interderive/interderive/sem"
)

// The translation of a model's judgment forms and of its tests.

// judgments translates the model's judgment forms (define-judgment-form): each
// position's sort from the contract, each rule's conclusion and premises read by the
// modes, as the rule language runs them: an input of the conclusion and an output of
// a premise are patterns (a metavariable already bound is renamed, with the
// condition that the two are equal); an input of a premise and an output of the
// conclusion are built from what is bound.
func (t *translator) judgments() []string {
	// A judgment left out leaves out those whose premises name it: translate until
	// no more is left out.
	failed := map[string]error{}
	for changed := true; changed; {
		changed = false
		t.failedJudgments = failed
		for _, j := range t.m.Judgments {
			if failed[j.Name] != nil {
				continue
			}
			if _, err := t.judgment(j); err != nil {
				failed[j.Name], changed = err, true
			}
		}
	}
	var out []string
	for _, j := range t.m.Judgments {
		if err := failed[j.Name]; err != nil {
			t.skip(j.P, "judgment form %s: %v", j.Name, err)
			continue
		}
		text, _ := t.judgment(j)
		out = append(out, text)
	}
	return out
}

// tjudg is a judgment form's signature.
type tjudg struct {
	sorts []*tsort
	metas []string
	out   []bool
}

func (t *translator) signature(j *Judgment) (*tjudg, error) {
	if j.Relation || j.Mode == nil {
		return nil, errAt(j.P, "%s has no mode (define-relation): the rule language runs judgments by their modes", j.Name)
	}
	contract := j.Contract
	if contract == nil {
		contract = t.inferContract(j)
	}
	if contract == nil || len(contract.List) != len(j.Mode)+1 {
		return nil, errAt(j.P, "%s has no #:contract, and its conclusions do not name each position's non-terminal", j.Name)
	}
	sig := &tjudg{}
	for i, d := range contract.List[1:] {
		so, m, err := t.sortOfName(d, t.intSort())
		if err != nil {
			return nil, err
		}
		sig.sorts, sig.metas, sig.out = append(sig.sorts, so), append(sig.metas, m), append(sig.out, j.Mode[i] == "O")
	}
	return sig, nil
}

// inferContract reads a judgment's contract off its conclusions: each position's
// non-terminal, the first that a conclusion names there (Γ in (typeof Γ number
// int)); a position no conclusion names a non-terminal at takes the first sort its
// data fit. Nil if a position stays unknown.
func (t *translator) inferContract(j *Judgment) *Datum {
	n := len(j.Mode)
	out := &Datum{P: j.P, Kind: List, List: make([]*Datum, n+1)}
	out.List[0] = &Datum{Kind: Symbol, Text: j.Name}
	for i := range n {
		for _, r := range j.Rules {
			c := r.Conclusion
			if len(c.List) != n+1 || out.List[i+1] != nil {
				continue
			}
			d := c.List[i+1]
			if nt := t.ref(d); nt != nil && nt.sort != nil && nt.role != roleContext {
				base, _ := splitName(d.Text)
				out.List[i+1] = &Datum{P: d.P, Kind: Symbol, Text: base}
			}
		}
		for _, r := range j.Rules {
			// number names the sort with integers: the terms of the position may be
			// any of that sort's, as other rules' conclusions show.
			if c := r.Conclusion; len(c.List) == n+1 && out.List[i+1] == nil && c.List[i+1].Kind == Symbol && isIntName(c.List[i+1].Text) && t.intSort() != nil {
				out.List[i+1] = &Datum{Kind: Symbol, Text: t.intSort().metas[0]}
			}
		}
		for _, r := range j.Rules {
			if out.List[i+1] != nil || len(r.Conclusion.List) != n+1 {
				continue
			}
			for _, so := range t.sorts {
				if t.fits(r.Conclusion.List[i+1], so, 0) {
					out.List[i+1] = &Datum{Kind: Symbol, Text: so.metas[0]}
					break
				}
			}
		}
		if out.List[i+1] == nil {
			return nil
		}
	}
	t.notes = append(t.notes, fmt.Sprintf("judgment %s has no contract: its positions' sorts are read off its conclusions, %s", j.Name, out))
	return out
}

func (t *translator) judgment(j *Judgment) (string, error) {
	sig, err := t.signature(j)
	if err != nil {
		return "", err
	}
	modes := make([]string, len(sig.out))
	for i, o := range sig.out {
		modes[i] = map[bool]string{false: "I", true: "O"}[o]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; %s, line %d\n(judgment %s (%s) (%s)", j.Name, j.P.Line, j.Name, strings.Join(sig.metas, " "), strings.Join(modes, " "))
	for k, r := range j.Rules {
		name := strings.Join(strings.Fields(r.Name), "-")
		if name == "" {
			name = fmt.Sprintf("%s-%d", j.Name, k+1)
		}
		c := r.Conclusion
		if head(c) != j.Name || len(c.List) != len(sig.out)+1 {
			return "", errAt(c.P, "%s: the conclusion of a rule of %s", c, j.Name)
		}
		sc := newScope()
		args := make([]string, len(sig.out))
		for i, a := range c.List[1:] {
			if sig.out[i] {
				continue
			}
			if args[i], err = t.pattern(a, sig.sorts[i], sc, 0); err != nil {
				return "", err
			}
		}
		premises := whereText(sc.conds)
		sc.conds = nil
		for _, p := range r.Premises {
			text, err := t.premise(p, sc)
			if err != nil {
				return "", err
			}
			premises += " " + text + whereText(sc.conds)
			sc.conds = nil
		}
		for i, a := range c.List[1:] {
			if !sig.out[i] {
				continue
			}
			if args[i], err = t.builder(a, sig.sorts[i], sc, 0); err != nil {
				return "", err
			}
		}
		fmt.Fprintf(&b, "\n  (infer %s (%s %s)%s)", name, j.Name, strings.Join(args, " "), strings.TrimRight(premises, " "))
	}
	b.WriteString(")\n")
	return b.String(), nil
}

// premise translates a premise of an inference rule.
func (t *translator) premise(p *Cond, sc *scope) (string, error) {
	if p.Kind != "judgment" {
		cs, err := t.conds([]*Cond{p}, sc)
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(whereText(cs)), nil
	}
	d := p.Args[0]
	var j *Judgment
	for _, x := range t.m.Judgments {
		if x.Name == head(d) {
			j = x
		}
	}
	if j == nil {
		return "", errAt(d.P, "%s: a premise naming no judgment form of the model", d)
	}
	if t.failedJudgments[j.Name] != nil {
		return "", errAt(d.P, "%s: a premise naming %s, which is left out", d, j.Name)
	}
	sig, err := t.signature(j)
	if err != nil {
		return "", err
	}
	if len(d.List) != len(sig.out)+1 {
		return "", errAt(d.P, "%s: %s takes %d arguments", d, j.Name, len(sig.out))
	}
	args := make([]string, len(sig.out))
	for i, a := range d.List[1:] {
		if !sig.out[i] {
			if args[i], err = t.builder(a, sig.sorts[i], sc, 0); err != nil {
				return "", err
			}
		}
	}
	for i, a := range d.List[1:] {
		if sig.out[i] {
			if args[i], err = t.pattern(a, sig.sorts[i], sc, 0); err != nil {
				return "", err
			}
		}
	}
	return fmt.Sprintf("(%s %s)", j.Name, strings.Join(args, " ")), nil
}

// tests translates the tests of the relation: test-->> with one expected normal
// form is a program of the corpus that expects it, its answer read as a term of the
// rule file and written as the stages print it. The others are Skipped, each with
// its reason.
func (t *translator) tests(im *Imported, rel *Relation, l *sem.Language) {
	for _, ts := range t.m.Tests {
		skip := func(format string, args ...any) { t.skip(ts.P, format, args...) }
		where, name := fmt.Sprintf("%s:%d", filepath.Base(t.file), ts.P.Line), fmt.Sprintf("line-%d.term", ts.P.Line)
		if ts.From != "" {
			// A test a macro of a required module wrote: positioned at the macro's
			// call, named after its module and line there.
			from := strings.TrimSuffix(filepath.Base(ts.From), ".rkt")
			skip = func(format string, args ...any) {
				t.skip(ts.Call, "%s:%d: %s", filepath.Base(ts.From), ts.P.Line, fmt.Sprintf(format, args...))
			}
			where, name = fmt.Sprintf("%s:%d (by the call at %s:%d)", filepath.Base(ts.From), ts.P.Line, filepath.Base(t.file), ts.Call.Line), fmt.Sprintf("%s-line-%d.term", from, ts.P.Line)
		}
		switch ts.Kind {
		case "-->>":
		case "-->":
			skip("test-->: a test of one step (the corpus's expectations are of whole runs)")
			continue
		case "equal":
			skip("test-equal %s: a test of Racket or meta-function values, not a program's run", clip(ts.Term.String()))
			continue
		default:
			skip("test-%s: not translated", ts.Kind)
			continue
		}
		if ts.Relation.Kind != Symbol || ts.Relation.Text != rel.Name {
			skip("test-->> of %s, not of the relation translated (%s)", ts.Relation, nameOr(rel.Name))
			continue
		}
		if ts.Equiv != nil {
			skip("test-->> #:equiv %s: its normal forms are compared by Racket code", ts.Equiv)
			continue
		}
		if len(ts.Expected) != 1 || ts.Cycles {
			skip("test-->> with %d normal forms: a relation with several is not deterministic, which the rule language's stages are", len(ts.Expected))
			continue
		}
		prog, ok1 := unterm(ts.Term)
		want, ok2 := unterm(ts.Expected[0])
		if !ok1 || !ok2 {
			skip("test-->>: a term that is not (term T) or a literal")
			continue
		}
		if _, err := l.ReadTerm([]byte(plainText(prog))); err != nil {
			skip("test-->>: the program %s is not a program of the rule file: %v", clip(prog.String()), err)
			continue
		}
		a, err := l.ReadTermOf([]byte(plainText(want)), l.Sorts[0], false)
		if err != nil {
			skip("test-->>: the normal form %s is not a term of the rule file: %v", clip(want.String()), err)
			continue
		}
		text := fmt.Sprintf("; %s: %s\n; expect: %s\n%s\n", where, clip(testText(ts)), sem.Format(a), plainText(prog))
		im.Tests = append(im.Tests, &TermFile{Name: name, Text: text, Expect: want.String(), Program: plainText(prog), Line: int(ts.P.Line)})
	}
}

// plainText writes a datum as a rule file's programs are written: every list in
// parentheses (Racket's [C @ σ] is (C @ σ)).
func plainText(d *Datum) string {
	if d.Kind == Symbol && (d.Text == "#t" || d.Text == "#f") {
		return d.Text // a boolean, a literal of the rule file (translate_seq.go)
	}
	if d.Kind != List || d.Quote != "" {
		return d.String()
	}
	parts := make([]string, len(d.List))
	for i, x := range d.List {
		parts[i] = plainText(x)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// unterm is the datum a test gives: T of (term T), or a literal.
func unterm(d *Datum) (*Datum, bool) {
	if head(d) == "term" && len(d.List) == 2 {
		return d.List[1], true
	}
	if d.Kind == Number || d.Kind == String {
		return d, true
	}
	if d.Kind == Bool { // #t: the literal Redex prints (translate_seq.go)
		return boolSym(d), true
	}
	if d.Kind == List && d.Quote == "'" && len(d.List) == 2 {
		return d.List[1], true
	}
	return nil, false
}

// testText writes a test back, on one line.
func testText(ts *Test) string {
	parts := []string{"test" + ts.Kind, ts.Relation.String(), ts.Term.String()}
	for _, e := range ts.Expected {
		parts = append(parts, e.String())
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// clip shortens a text for a message or a comment to 200 characters.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		return string(r[:199]) + "…"
	}
	return s
}
