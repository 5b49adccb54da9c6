package gradual

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
)

// A cast semantics may be a rule file (gradual/rules/ld.sem, ...): --semantics
// FILE.sem. The file replaces only the semantics: the program is parsed, typed and
// cast-inserted by the gradual calculus's front end, then handed to the stages derived
// from the file (sem.StageOf) as a term of the file's grammar: binders' types erased,
// blame labels numbered in order of appearance, each type-based cast <T <= S>^l
// translated once, before the run, by the file's function translate (spec §4:
// "translate once, before running"). The answer is observed as the hand-written
// stages observe theirs (spec §4): a constant, function, dynamic, or blame l.
//
// What a rule file must declare for this (Load checks it): the term constructors
// true, false, lam, app, inc, dec, zero, add, sub, mul, eq, lt, if, let, letrec, crc
// and blame; the types Int, Bool, Dyn and fn; the coercions id, inj, proj, arrow,
// seq and fail; and the function translate from two types and a label to a coercion.

// RuleFileExt is the extension of a cast semantics given as a rule file.
const RuleFileExt = ".sem"

// IsRuleFile reports whether a semantics's name is a rule file's path.
func IsRuleFile(name string) bool { return strings.HasSuffix(name, RuleFileExt) }

// RuleSemantics is a cast semantics read from a rule file.
type RuleSemantics struct {
	Path      string
	Lang      *sem.Language
	translate *sem.Function
	con       map[string]*sem.Con
}

// required are the constructors a cast rule file declares, with their arities.
var required = map[string]int{
	"true": 0, "false": 0, "lam": 2, "app": 2, "inc": 1, "dec": 1, "zero": 1,
	"add": 2, "sub": 2, "mul": 2, "eq": 2, "lt": 2, "if": 3, "let": 3, "letrec": 4,
	"crc": 2, "blame": 1,
	"Int": 0, "Bool": 0, "Dyn": 0, "fn": 2,
	"id": 0, "inj": 1, "proj": 2, "arrow": 2, "seq": 2, "fail": 1,
}

// LoadRuleSemantics reads and checks a cast semantics's rule file.
func LoadRuleSemantics(path string) (*RuleSemantics, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseRuleSemantics(path, src)
}

// StandardRuleSemantics is the rule file of a standard semantics (ld, lud, ed, eud),
// as the binary embeds it (gradual.RuleFiles).
func StandardRuleSemantics(name string) (*RuleSemantics, error) {
	path := "rules/" + name + RuleFileExt
	src, err := g.RuleFiles.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("no rule file for the semantics %q", name)
	}
	return ParseRuleSemantics("gradual/"+path, src)
}

// ParseRuleSemantics reads and checks a cast semantics's rule file from its source;
// path names it in messages.
func ParseRuleSemantics(path string, src []byte) (*RuleSemantics, error) {
	l, err := sem.Load(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rs := &RuleSemantics{Path: path, Lang: l, con: map[string]*sem.Con{}}
	var missing []string
	for _, name := range slices.Sorted(maps.Keys(required)) {
		arity := required[name]
		c, ok := l.Con(name)
		if !ok || len(c.Args) != arity {
			missing = append(missing, fmt.Sprintf("%s/%d", name, arity))
			continue
		}
		rs.con[name] = c
	}
	f, ok := l.Function("translate")
	if !ok || len(f.Params) != 3 {
		missing = append(missing, "function translate (T T l) c")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s is not a cast semantics: it lacks %s", path, strings.Join(missing, ", "))
	}
	rs.translate = f
	return rs, nil
}

// ruleFiles caches the rule files the calculus reads, by path: fuzz and check run
// many programs under one file, and reading one runs its static checks. A file is
// read once per process: its edits show in the next run of the command.
type ruleFiles struct {
	mu       sync.Mutex
	files    map[string]*RuleSemantics
	compiled sem.Compiled // the compiled engine (--engine compiled), if any
}

// engine is the compiled engine the calculus runs rule files on, if any.
func (c *ruleFiles) engine() sem.Compiled {
	if c == nil {
		return nil
	}
	return c.compiled
}

func (c *ruleFiles) load(path string) (*RuleSemantics, error) {
	if c == nil {
		return LoadRuleSemantics(path)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if rs, ok := c.files[path]; ok {
		return rs, nil
	}
	rs, err := LoadRuleSemantics(path)
	if err != nil {
		return nil, err
	}
	if c.files == nil {
		c.files = map[string]*RuleSemantics{}
	}
	c.files[path] = rs
	return rs, nil
}

// stage is the stage s derived from the rule file rs (read from path), as engine
// runs it (interderive.Options.Engine).
func (c *ruleFiles) stage(s interderive.Stage, rs *RuleSemantics, path, engine string) (sem.Stage, error) {
	st, _, err := sem.StageOn(s, rs.Lang, path, engine, c.engine())
	return st, err
}

// runRuleFile runs the program on the stage's artefact derived from the rule file
// at path. A stage with none is workbench.ErrNoStage: check skips it and counts it.
func (p program) runRuleFile(stage interderive.Stage, path string, opts interderive.Options) (workbench.Outcome, error) {
	if _, ok := sem.StageOf(stage); !ok {
		return workbench.Outcome{}, fmt.Errorf("%w: the %s stage derives nothing from a rule file (take --stage reduction, closures, machine, cps2, interp or compile)", workbench.ErrNoStage, stage.Name())
	}
	rs, err := p.files.load(path)
	if err != nil {
		return workbench.Outcome{}, err
	}
	ds, err := p.files.stage(stage, rs, path, opts.Engine)
	if err != nil {
		return workbench.Outcome{}, err
	}
	var labels Labels
	t, err := rs.Term(p.term, &labels)
	if err != nil {
		return workbench.Outcome{}, err
	}
	steps := workbench.CountContractions(&opts)
	a, err := ds.Eval(rs.Lang, t, opts)
	if err != nil {
		return workbench.Outcome{Steps: *steps}, interderive.InStage(err, stage.Name())
	}
	v, err := sem.FormatBounded(a.Value, opts.PrintBudget(interderive.NewLimits(opts, func() int { return *steps })))
	if err != nil {
		return workbench.Outcome{Steps: *steps}, err
	}
	obs := rs.Observe(a.Value, &labels)
	return workbench.Outcome{Observation: obs, Value: v, Answer: RuleAnswer{Value: a.Value, Observation: obs}, Steps: *steps}, nil
}

// Labels numbers the blame labels of a program, in order of appearance.
type Labels struct {
	ids   map[g.Label]int64
	names []g.Label
}

func (ls *Labels) id(l g.Label) int64 {
	if n, ok := ls.ids[l]; ok {
		return n
	}
	if ls.ids == nil {
		ls.ids = map[g.Label]int64{}
	}
	ls.names = append(ls.names, l)
	ls.ids[l] = int64(len(ls.names))
	return ls.ids[l]
}

// Name is the label numbered n.
func (ls *Labels) Name(n int64) (g.Label, bool) {
	if n < 1 || n > int64(len(ls.names)) {
		return "", false
	}
	return ls.names[n-1], true
}

// Term is the program e of the cast calculus as a term of the rule file, its casts
// translated by the file's function translate; labels records the labels' numbers.
func (rs *RuleSemantics) Term(e g.Expr, labels *Labels) (*sem.Term, error) {
	app := func(p g.Pos, name string, args ...*sem.Term) *sem.Term {
		return sem.App(sem.Pos(p), rs.con[name], args...)
	}
	var conv func(e g.Expr, depth int) (*sem.Term, error)
	conv = func(e g.Expr, depth int) (*sem.Term, error) {
		if depth > sem.MaxNesting {
			return nil, &interderive.DepthError{What: "the program's nesting", Limit: sem.MaxNesting}
		}
		sub := func(xs ...g.Expr) ([]*sem.Term, error) {
			out := make([]*sem.Term, len(xs))
			for i, x := range xs {
				t, err := conv(x, depth+1)
				if err != nil {
					return nil, err
				}
				out[i] = t
			}
			return out, nil
		}
		switch e := e.(type) {
		case *g.IntLit:
			return sem.Int(sem.Pos(e.P), e.N), nil
		case *g.BoolLit:
			if e.B {
				return app(e.P, "true"), nil
			}
			return app(e.P, "false"), nil
		case *g.Var:
			return sem.Var(sem.Pos(e.P), e.Name), nil
		case *g.Lam:
			b, err := sub(e.Body)
			if err != nil {
				return nil, err
			}
			return app(e.P, "lam", sem.Var(sem.Pos(e.P), e.Param), b[0]), nil
		case *g.App:
			a, err := sub(e.Fun, e.Arg)
			if err != nil {
				return nil, err
			}
			return app(e.P, "app", a...), nil
		case *g.Unary:
			a, err := sub(e.X)
			if err != nil {
				return nil, err
			}
			return app(e.P, opName(e.Op), a...), nil
		case *g.Binary:
			a, err := sub(e.X, e.Y)
			if err != nil {
				return nil, err
			}
			return app(e.P, opName(e.Op), a...), nil
		case *g.If:
			a, err := sub(e.Cond, e.Then, e.Else)
			if err != nil {
				return nil, err
			}
			return app(e.P, "if", a...), nil
		case *g.Let:
			a, err := sub(e.Bound, e.Body)
			if err != nil {
				return nil, err
			}
			return app(e.P, "let", sem.Var(sem.Pos(e.P), e.Name), a[0], a[1]), nil
		case *g.Letrec:
			a, err := sub(e.Fun.Body, e.Body)
			if err != nil {
				return nil, err
			}
			return app(e.P, "letrec", sem.Var(sem.Pos(e.P), e.Name), sem.Var(sem.Pos(e.Fun.P), e.Fun.Param), a[0], a[1]), nil
		case *g.Cast:
			a, err := sub(e.X)
			if err != nil {
				return nil, err
			}
			target, err := rs.typ(e.Target)
			if err != nil {
				return nil, err
			}
			source, err := rs.typ(e.Source)
			if err != nil {
				return nil, err
			}
			c, err := rs.Lang.Call(rs.translate, []*sem.Term{target, source, sem.Int(sem.Pos(e.P), labels.id(e.L))}, sem.Pos(e.P))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", rs.Path, err)
			}
			return app(e.P, "crc", c, a[0]), nil
		case *g.Coerce:
			a, err := sub(e.X)
			if err != nil {
				return nil, err
			}
			c, err := rs.coercion(e.P, e.C, labels)
			if err != nil {
				return nil, err
			}
			return app(e.P, "crc", c, a[0]), nil
		case *g.Blame:
			return app(e.P, "blame", sem.Int(sem.Pos(e.P), labels.id(e.L))), nil
		}
		return nil, fmt.Errorf("no rule-file term for %s", g.FormatShort(e, interderive.MaxStuckShown))
	}
	return conv(e, 0)
}

// opName is the constructor of an operator.
func opName(op g.Op) string {
	switch op {
	case g.OpInc:
		return "inc"
	case g.OpDec:
		return "dec"
	case g.OpZero:
		return "zero"
	case g.OpAdd:
		return "add"
	case g.OpSub:
		return "sub"
	case g.OpMul:
		return "mul"
	case g.OpEq:
		return "eq"
	}
	return "lt"
}

// typ is a type as a term of the rule file.
func (rs *RuleSemantics) typ(t g.Type) (*sem.Term, error) {
	switch t := t.(type) {
	case g.Base:
		if t == g.Int {
			return sem.App(sem.Pos{}, rs.con["Int"]), nil
		}
		return sem.App(sem.Pos{}, rs.con["Bool"]), nil
	case g.DynType:
		return sem.App(sem.Pos{}, rs.con["Dyn"]), nil
	case *g.Arrow:
		a, err := rs.typ(t.From)
		if err != nil {
			return nil, err
		}
		b, err := rs.typ(t.To)
		if err != nil {
			return nil, err
		}
		return sem.App(sem.Pos{}, rs.con["fn"], a, b), nil
	}
	return nil, fmt.Errorf("no rule-file term for the type %s", t)
}

// coercion is a coercion as a term of the rule file.
func (rs *RuleSemantics) coercion(p g.Pos, c g.Coercion, labels *Labels) (*sem.Term, error) {
	at := sem.Pos(p)
	switch c := c.(type) {
	case g.IdC:
		return sem.App(at, rs.con["id"]), nil
	case *g.Inj:
		t, err := rs.typ(c.T)
		if err != nil {
			return nil, err
		}
		return sem.App(at, rs.con["inj"], t), nil
	case *g.Proj:
		t, err := rs.typ(c.T)
		if err != nil {
			return nil, err
		}
		return sem.App(at, rs.con["proj"], t, sem.Int(at, labels.id(c.L))), nil
	case *g.Fail:
		return sem.App(at, rs.con["fail"], sem.Int(at, labels.id(c.L))), nil
	case *g.Func:
		a, err := rs.coercion(p, c.Dom, labels)
		if err != nil {
			return nil, err
		}
		b, err := rs.coercion(p, c.Cod, labels)
		if err != nil {
			return nil, err
		}
		return sem.App(at, rs.con["arrow"], a, b), nil
	case *g.Seq:
		a, err := rs.coercion(p, c.Fst, labels)
		if err != nil {
			return nil, err
		}
		b, err := rs.coercion(p, c.Snd, labels)
		if err != nil {
			return nil, err
		}
		return sem.App(at, rs.con["seq"], a, b), nil
	}
	return nil, fmt.Errorf("no rule-file term for the coercion %T", c)
}

// Observe observes an answer of the rule file as spec §4 observes the hand-written
// stages' answers: a constant prints as itself, a function or a value wrapped in a
// function coercion as function, a value wrapped in an injection as dynamic, blame l as
// blame l.
func (rs *RuleSemantics) Observe(v *sem.Term, labels *Labels) string {
	switch v.Op {
	case sem.TermInt:
		return strconv.FormatInt(v.N, 10)
	case sem.TermCon:
		switch v.Con.Name {
		case "true", "false":
			return v.Con.Name
		case "lam":
			return "function"
		case "crc":
			if c := v.Args[0]; c.Op == sem.TermCon && c.Con.Name == "arrow" {
				return "function"
			}
			return "dynamic"
		case "blame":
			if name, ok := labels.Name(v.Args[0].N); ok {
				return "blame " + string(name)
			}
			return "blame " + strconv.FormatInt(v.Args[0].N, 10)
		}
	}
	return "?"
}

// RuleAnswer is the answer of a run under a rule file: the term, and its
// observation.
type RuleAnswer struct {
	Value       *sem.Term
	Observation string
}

// StandsFor is the semantics a rule file stands for in expectation comments: the one
// its (language NAME) names (gradual/rules/ed.sem is ed's), if the calculus has it.
func (c calculus) StandsFor(file string) (string, bool) {
	rs, err := c.files.load(file)
	if err != nil {
		return "", false
	}
	if _, ok := g.Lookup(rs.Lang.Name, Semantics()...); !ok {
		return "", false
	}
	return rs.Lang.Name, true
}

// RunsUnder reports whether the stage runs the semantics variant: every stage runs a
// named semantics; a rule file runs on the stages that derive an artefact from it
// (sem.StageOf).
func (calculus) RunsUnder(s interderive.Stage, variant string) bool {
	if !IsRuleFile(variant) {
		return true
	}
	_, ok := sem.StageOf(s)
	return ok
}

// RefusesOn says why the engine named engine does not run the stage s of a rule
// file variant (workbench.EngineRefuser): the compiled engine does not run a file
// the generator does not write. The hand-written semantics run on their own stages,
// whatever the engine.
func (c calculus) RefusesOn(s interderive.Stage, variant, engine string) error {
	if !IsRuleFile(variant) || engine != interderive.EngineCompiled {
		return nil
	}
	rs, err := c.files.load(variant)
	if err != nil {
		return nil // the run says what is wrong with the file
	}
	return sem.RefusalOn(s, rs.Lang, variant, engine, c.files.engine())
}

// Prepare reads and checks a rule file variant once, before its runs.
func (c calculus) Prepare(variant string) error {
	if !IsRuleFile(variant) {
		return nil
	}
	_, err := c.files.load(variant)
	return err
}
