// Package rules is the calculi defined by rule files (docs/rules.md) as the workbench
// sees them: a family (workbench.Family) whose programs, *.term files, are closed
// terms of a rule file's grammar, run on every stage that derives a rule-defined
// calculus (sem.StageOf). The rule file of a program is the one --rules names, else
// the one the program names in a "; semantics: FILE.sem" line (relative to the
// program's directory), else DIR.sem for a program in DIR (testdata/rules/cbn/*.term
// are cbn.sem's).
package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// Family is the rule-defined calculi: registered as one calculus, each program in
// the calculus its rule file defines. Its rule files run on their tables only
// (WithCompiled gives it the compiled engine).
var Family workbench.Family = family{}

// WithCompiled is the family whose rule files also run on the compiled engine c
// (--engine compiled): the workbench's registry (internal/calculi) makes it so.
func WithCompiled(c sem.Compiled) workbench.Family { return family{compiled: c} }

// The language's extension, the rule files', the one value of the variant
// parameter, and the flag that names a rule file.
const (
	ext     = "term"
	semExt  = "sem"
	variant = "file"
	flag    = "rules"
	header  = "semantics"
)

type family struct {
	compiled sem.Compiled // the compiled engine, if any
}

func (family) Name() string { return "rules" }

func (family) Doc() string {
	return "a calculus defined by a rule file (*.sem, docs/rules.md): its programs, *.term, run with --rules FILE.sem, a \"; semantics: FILE.sem\" line, or DIR.sem beside their directory"
}

func (family) Languages() []workbench.Language {
	return []workbench.Language{{Ext: ext, Doc: "a closed term of the rule file's grammar, as an s-expression"}}
}

// Variant: a rule file gives one semantics, the file itself, which the one value
// stands for (the workbench needs a variant parameter); a trace's header and compare
// name the file's language and the file instead (workbench.VariantLabel).
func (family) Variant() workbench.Parameter {
	return workbench.Parameter{Flag: "rules-variant", Noun: "variant", Doc: "the semantics: the rule file itself (--rules, or the one the program names), which its one value stands for",
		Values: []string{variant}, Default: variant}
}

// Modes: one, which changes nothing.
func (family) Modes(string) []workbench.Mode {
	return []workbench.Mode{{Name: "default", Reference: true, Apply: func(*interderive.Options) {}}}
}

// Supports: the stages that derive a rule-defined calculus.
func (family) Supports(s interderive.Stage) bool {
	_, ok := sem.StageOf(s)
	return ok
}

// Load refuses: a program needs its rule file (the workbench loads it in the
// calculus Define makes).
func (family) Load(string, []byte) (workbench.Program, error) {
	return nil, errNoRules
}

var errNoRules = fmt.Errorf("a program of a rule-defined calculus needs its rule file: --%s FILE.%s, a \"; %s: FILE.%s\" line, or DIR.%s beside its directory DIR", flag, semExt, header, semExt, semExt)

// Generate fails: random programs need a grammar (fuzz --rules FILE.sem).
func (family) Generate(t *rapid.T, _ int, _ string) workbench.Program {
	t.Fatalf("%v", errNoRules)
	return nil
}

func (family) Properties() []workbench.Property { return nil }

// Equal compares answers (sem.Answer): terms equal up to α-renaming.
func (family) Equal(a, b any) bool {
	x, ok1 := a.(sem.Answer)
	y, ok2 := b.(sem.Answer)
	return ok1 && ok2 && x.Value != nil && y.Value != nil && sem.AlphaEqual(x.Value, y.Value)
}

// LineComment: programs are s-expressions, whose comments start with ";".
func (family) LineComment() string { return ";" }

// DefinitionExt is the extension of a rule file (interderive derive).
func (family) DefinitionExt() string { return semExt }

// Derive loads a rule file and prints what the stages derive from it (Derive).
func (family) Derive(def string, stages []interderive.Stage) (string, error) {
	l, err := LoadFile(def)
	if err != nil {
		return "", err
	}
	return Derive(l, stages), nil
}

func (family) DefinitionFlag() (string, string) {
	return flag, fmt.Sprintf("the rule file (*.%s) of the *.%s programs (default: the one a program names in a \"; %s: FILE\" line, else DIR.%s for a program in DIR)", semExt, ext, header, semExt)
}

// Define makes the calculus of a program: the rule file def, else the one its
// source names in a "; semantics: FILE" line (relative to its directory), else DIR.sem
// for a program in the directory DIR. The file is read and checked (sem.Load); its
// errors are rendered with the file's positions and carets.
func (f family) Define(def, path string, src []byte) (workbench.Calculus, error) {
	file, err := RuleFileOf(def, path, src)
	if err != nil {
		return nil, err
	}
	l, err := LoadFile(file)
	if err != nil {
		return nil, err
	}
	return Calculus{family: f, Lang: l, File: file, compiled: f.compiled}, nil
}

// RuleFileOf is the rule file of a program: def if not "", else the one src names in
// a "; semantics: FILE" line, relative to path's directory, else DIR.sem for path in
// DIR. A file named that does not exist is an error, and so is no rule file found.
func RuleFileOf(def, path string, src []byte) (string, error) {
	if def != "" {
		return def, nil
	}
	dir := "."
	if path != "" && path != "-" {
		dir = filepath.Dir(path)
	}
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), ";")
		if !ok {
			continue
		}
		if name, ok := strings.CutPrefix(strings.TrimSpace(rest), header+":"); ok {
			name = strings.TrimSpace(name)
			if name == "" {
				return "", fmt.Errorf("the \"; %s:\" line names no rule file", header)
			}
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			return name, nil
		}
	}
	if path == "" || path == "-" {
		return "", errNoRules
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	sibling := abs + "." + semExt
	if _, err := os.Stat(sibling); err != nil {
		return "", fmt.Errorf("%w (no %s beside the directory)", errNoRules, filepath.Join(filepath.Dir(dir), filepath.Base(abs)+"."+semExt))
	}
	return filepath.Join(filepath.Dir(dir), filepath.Base(abs)+"."+semExt), nil
}

// LoadFile reads and checks a rule file, at most workbench.MaxSource bytes; its
// errors are rendered with the file's positions and carets.
func LoadFile(file string) (*sem.Language, error) {
	src, err := workbench.ReadSource(file, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("rule file: %w", err)
	}
	l, err := sem.Load(src)
	if err != nil {
		return nil, errors.New(interderive.Describe(file, src, err))
	}
	l.File = file // for the errors of a run that are the file's (sem.FunctionError)
	return l, nil
}

// Calculus is the calculus a rule file defines: the family's name, language,
// variant and stages, with the file's grammar and rules. It is not a Family itself.
type Calculus struct {
	family   family
	Lang     *sem.Language
	File     string       // the rule file
	compiled sem.Compiled // the compiled engine (--engine compiled), if any
}

// Name is the family's.
func (c Calculus) Name() string { return c.family.Name() }

// Doc names the rule file.
func (c Calculus) Doc() string { return "the calculus of the rule file " + c.File }

// Defined names the rule file's language, (language NAME), and the file, which head
// a trace (workbench.Defined).
func (c Calculus) Defined() (language, file string) { return c.Lang.Name, c.File }

// Languages are the family's.
func (c Calculus) Languages() []workbench.Language { return c.family.Languages() }

// Variant is the family's.
func (c Calculus) Variant() workbench.Parameter { return c.family.Variant() }

// Modes are the family's.
func (c Calculus) Modes(v string) []workbench.Mode { return c.family.Modes(v) }

// Supports: the family's stages.
func (c Calculus) Supports(s interderive.Stage) bool { return c.family.Supports(s) }

// Equal compares answers up to α-renaming, as the family does.
func (c Calculus) Equal(a, b any) bool { return c.family.Equal(a, b) }

// ReadAnswer says why an expected answer does not read as a term of the rule file's
// grammar (workbench.AnswerReader), nil when it does.
func (c Calculus) ReadAnswer(expected string) error {
	_, err := c.Lang.ReadTerm([]byte(expected))
	return err
}

// MatchesAnswer reads an expected answer as a term of the rule file's grammar and
// compares it with the run's answer up to α-equivalence (workbench.AnswerMatcher), as
// Equal compares two stages' answers; an expectation that does not read as a term
// matches nothing.
func (c Calculus) MatchesAnswer(expected string, got workbench.Outcome) bool {
	a, ok := got.Answer.(sem.Answer)
	if !ok || a.Value == nil {
		return false
	}
	want, err := c.Lang.ReadTerm([]byte(expected))
	return err == nil && sem.AlphaEqual(want, a.Value)
}

// Refuses says why the stage s does not run the rule file's programs
// (workbench.Refuser): it derives no stage from a rule file (sem.StageOf); nil when s
// runs them. Every derived stage runs every deterministic rule file, under
// environments or by substitution (sem.Language.Discipline); a file whose relation is
// non-deterministic ((nondeterministic), with a term that decomposes two ways) none.
func (c Calculus) Refuses(s interderive.Stage) error {
	if _, ok := sem.StageOf(s); !ok {
		return fmt.Errorf("the %s stage does not run rule-defined calculi", s.Name())
	}
	if len(c.Lang.Ambiguity) > 0 {
		// A derived stage takes one decomposition a step: of a non-deterministic
		// relation it would give one answer of several, as if it were the only one.
		return fmt.Errorf("the relation of %s is non-deterministic, and a derived stage follows one decomposition a step: %s (run --all and trace --graph explore the relation)", c.File, c.Lang.Ambiguity[0])
	}
	return nil
}

// RefusesOn says why the engine named engine does not run the stage s of the rule
// file (workbench.EngineRefuser): the compiled engine does not run a file the
// generator does not write.
func (c Calculus) RefusesOn(s interderive.Stage, _, engine string) error {
	return sem.RefusalOn(s, c.Lang, c.File, engine, c.compiled)
}

// LineComment: ";".
func (c Calculus) LineComment() string { return c.family.LineComment() }

// Load reads a program: one closed term of the grammar (a syntax error otherwise).
func (c Calculus) Load(lang string, src []byte) (workbench.Program, error) {
	if lang != ext {
		return nil, fmt.Errorf("no language %q in a rule-defined calculus", lang)
	}
	if err := workbench.CheckSize(src); err != nil {
		return nil, err
	}
	t, err := c.Lang.ReadTerm(src)
	if err != nil {
		return nil, &workbench.LoadError{Phase: "syntax", Err: err}
	}
	p := Program{calc: c, Term: t}
	if c.Lang.Typing != nil {
		// A file that names its typing judgment types its programs before any run.
		ty, why, err := c.Lang.TypeOf(t, interderive.Options{Timeout: typingTimeout})
		if err != nil {
			return nil, err
		}
		if ty == nil {
			return nil, &workbench.LoadError{Phase: "type", Err: typeError(c.Lang, t, why)}
		}
		p.Type = sem.Format(ty)
	}
	return p, nil
}

// typingTimeout bounds the search for a program's typing derivation.
const typingTimeout = 10 * time.Second

// typeError is the error of a program t that the file's typing judgment does not
// type: positioned at the program, it names the judgment and the premises that do
// not hold in the rules whose conclusion matches (or says that none matches).
func typeError(l *sem.Language, t *sem.Term, why []sem.Failure) error {
	var premises []string
	for _, f := range why {
		if f.Premise >= 0 {
			premises = append(premises, f.String())
		}
	}
	msg := "no rule of " + l.Typing.Judgment.Name + " concludes a judgment of this program"
	if len(premises) > 0 {
		msg = "the program has no type (" + l.Typing.Judgment.Name + "): " + strings.Join(premises, "; ")
	}
	return interderive.ErrorList{interderive.Errorf(t.P, "%s", msg)}
}

// Generate draws a closed term of the grammar of depth about size (Generator): for a
// file that names its typing judgment, one the judgment types (drawTyped; the last
// drawn if none is, which lockstep checks as well).
func (c Calculus) Generate(t *rapid.T, size int, _ string) workbench.Program {
	if c.Lang.Typing == nil {
		return Program{calc: c, Term: Generator{Lang: c.Lang, Depth: size}.Draw(t)}
	}
	p, ty := c.drawTyped(t, size)
	prog := Program{calc: c, Term: p}
	if ty != nil {
		prog.Type = sem.Format(ty)
	}
	return prog
}

// Program is a closed term of a rule-defined calculus, and its type when the file
// names its typing judgment (sem.Typing).
type Program struct {
	calc Calculus
	Term *sem.Term
	Type string
}

// TypeOf is the program's type (workbench.Typed): false when the file types no
// program.
func (p Program) TypeOf() (string, bool) { return p.Type, p.calc.Lang.Typing != nil }

// Language is the rule file's language the program is of.
func (p Program) Language() *sem.Language { return p.calc.Lang }

func (Program) Lang() string { return ext }

// Source prints the program.
func (p Program) Source(b interderive.PrintBudget) (string, error) {
	return sem.FormatBounded(p.Term, b)
}

// Header is the "; semantics: FILE" line that names the program's rule file (as an
// absolute path), so that the command reads the program back in its calculus
// wherever fuzz writes it (workbench.Headed).
func (p Program) Header() []string {
	file, err := filepath.Abs(p.calc.File)
	if err != nil {
		file = p.calc.File
	}
	return []string{header + ": " + file}
}

// Run runs the program on the stage's artefact derived from the rule file.
func (p Program) Run(stage interderive.Stage, v string, opts interderive.Options) (workbench.Outcome, error) {
	if v != variant {
		return workbench.Outcome{}, fmt.Errorf("unknown variant %q (a rule file has %s)", v, variant)
	}
	st, ok, err := sem.StageOn(stage, p.calc.Lang, p.calc.File, opts.Engine, p.calc.compiled)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("the %s stage does not run rule-defined calculi", stage.Name())
	}
	if err != nil {
		return workbench.Outcome{}, err
	}
	steps := workbench.CountContractions(&opts)
	a, err := st.Eval(p.calc.Lang, p.Term, opts)
	if err != nil {
		return workbench.Outcome{Steps: *steps}, interderive.InStage(err, stage.Name())
	}
	s, err := sem.FormatBounded(a.Value, opts.PrintBudget(interderive.NewLimits(opts, func() int { return *steps })))
	if err != nil {
		if errors.Is(err, interderive.ErrOutputLimit) {
			err = &interderive.OutputError{What: "the value", Limit: opts.Output}
		}
		return workbench.Outcome{Steps: *steps}, err
	}
	return workbench.Outcome{Observation: s, Value: s, Answer: a, Steps: *steps}, nil
}

// Derive prints what the stages derive from a rule file, for a person: the
// decomposition tables (sem.FormatTables), then each stage's own description
// (sem.Describer), in the order given.
func Derive(l *sem.Language, stages []interderive.Stage) string {
	var b strings.Builder
	b.WriteString(sem.FormatTables(l))
	if len(l.Ambiguity) > 0 {
		fmt.Fprintf(&b, "\nthe relation is non-deterministic: the stages below derive one decomposition a step, and refuse the file's programs; run --all and trace --graph explore the relation. The witnesses of the static checks:\n")
		for _, w := range l.Ambiguity {
			fmt.Fprintf(&b, "  %s\n", w)
		}
	}
	b.WriteString("\n" + Discipline(l) + "\n")
	if len(l.Properties) > 0 {
		b.WriteString("\nproperties, which fuzz checks:\n")
		for _, q := range l.Properties {
			b.WriteString(q.String())
		}
	}
	if len(l.Judgments) > 0 {
		b.WriteString("\njudgments, searched by their modes (interderive judge):\n")
		for _, j := range l.Judgments {
			b.WriteString(j.String())
		}
		if ty := l.Typing; ty != nil {
			fmt.Fprintf(&b, "every program is typed by %s before it runs\n", ty.Judgment.Name)
		}
	}
	for _, s := range stages {
		st, ok := sem.StageOf(s)
		if !ok {
			continue
		}
		d, ok := st.(sem.Describer)
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "\n== %s (%s) ==\n%s", s.Name(), s.Doc(), d.Describe(l))
	}
	return b.String()
}

// Discipline says, for a person, the discipline the derived stages run l under, and
// why: environments when l qualifies for them, substitution otherwise, with the
// pattern that matches a variable occurrence.
func Discipline(l *sem.Language) string {
	if why := l.WhySubstitution(); why != "" {
		return "discipline: substitution, in every derived stage: " + why
	}
	return "discipline: environments, in every derived stage but the reduction semantics (no pattern matches a variable occurrence: (subst t x v) extends t's environment, a variable is looked up)"
}
