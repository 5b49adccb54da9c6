package gogen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive/sem"
)

// gen generates the package of one rule file: the Go names it gives the file's
// constructors, kinds, classes and functions.
type gen struct {
	l     *sem.Language
	file  string   // the rule file's base name, for messages
	con   []string // by Con.Index: cLam
	kind  []string // by Kind.Index: E
	class []string // by Class.Index
	fn    map[string]string
	frame map[*sem.Frame]int // a frame's number in the frames table
	err   error              // what the file has that the generator does not know
	// Of the rule being written (closures.go): its metavariables bound without
	// hiding their binder, and where its left-hand side binds its metavariables
	// (nil outside a rule: no raw nodes).
	raws int      // the raw nodes numbered so far
	root *sem.Con // the root constructor of the rule's left-hand side, if any
	// context says that the rule being written is a context rule: its contractum is
	// built at the position of a frame of γ, not the redex's own.
	context bool
	open    map[int]bool
	lazy    map[int]bool
	bs      map[int]binding
	// Of the node a fused transition is testing (machinegen.go): its root, and its
	// children known to be values; nil elsewhere.
	known *known
	// passes says that the child being matched is known to pass its value test
	// (known.value): match binds it without the test.
	passes bool
	// shared are the children a fused transition has taken already: the variable
	// holding each, by the expression that takes it (n.kidFree(0)).
	shared map[string]string
	// inlined says that the rule being written is written in a fused transition,
	// its context the machine's stack (inlineRule).
	inlined bool
	// form says whose fused transitions are being written: the machine's, the CPS
	// evaluator's (cps2gen.go: the stack K a chain of continuations) or the
	// interpreter's (interpgen.go: a hole evaluated by a call, a value returned).
	form form
	// statics are the declarations of the static part of the compiled case being
	// written (compile.go): the raw nodes its rules build once for its node
	// (builtOnce).
	statics []string
	// filled are the children of the compiled case's node that a frame written so
	// far may have filled, and fromChild the variables that hold a child taken by its
	// shape (kidCompiled), by the child's index.
	filled    map[int]bool
	fromChild map[string]int
	// lazyKids says that the compiled case being written keeps the children its
	// frames fill in variables only, filledBy's by index, and makes their array only
	// where a test reads the node (materialize); lazyBroken that a frame could not
	// (compiledRoot then writes the case again, with the array). framesFrom is where
	// the case's frames start in its code.
	lazyKids, lazyBroken bool
	filledBy             map[int]string
	framesFrom           int
	// hosted says that the package is the compiled engine's (GenerateHosted): a call of
	// a calculus's own hook or prim goes back to the workbench's process (hostHook,
	// hostPrim).
	hosted bool
	// returnsValue says that a rule of interp's case being written ends with its
	// contractum known to be a value of the case's kind, caseKind (contractedValue).
	returnsValue bool
	caseKind     *sem.Kind
	// atoms are the calculus's own atom types and the literals of theirs the
	// generated code holds (atoms.go), registered as the generator meets them.
	atoms *Atoms
}

func newGen(l *sem.Language, file string) *gen {
	g := &gen{l: l, file: file, fn: map[string]string{}, frame: map[*sem.Frame]int{}, atoms: newAtoms(l)}
	used := map[string]bool{}
	unique := func(s string) string {
		for used[s] {
			s += "_"
		}
		used[s] = true
		return s
	}
	for _, c := range l.Cons {
		g.con = append(g.con, unique("c"+camel(c.Name)))
	}
	for _, k := range l.Kinds {
		g.kind = append(g.kind, unique("k"+camel(k.Name)))
	}
	for _, c := range l.Classes {
		g.class = append(g.class, unique(camel(c.Name)))
	}
	for _, f := range l.Functions {
		g.fn[f.Name] = unique(camel(f.Name))
	}
	n := 0
	for _, k := range l.Kinds {
		for _, f := range k.Frames {
			g.frame[f] = n
			n++
		}
	}
	return g
}

// check refuses what the generated code cannot run: a non-deterministic relation, a
// hook written in Go, a prim or an atom type not of the default hooks. The default
// hooks on numbers are written (rt/number.go.txt), where their result sort holds
// numbers: sem checks a hook's result at run time, the generated code does not.
// Hosted (the compiled engine's package, GenerateHosted), a calculus's own hooks and
// prims are called back in the workbench's process, which checks a hook's result as
// sem does (sem.Language.CallHook), and its own atom types' values stay there, the
// generated code holding their handles (atoms.go).
func check(l *sem.Language, hosted bool) error {
	if len(l.Ambiguity) > 0 {
		return fmt.Errorf("the relation of %s is non-deterministic, and the stages derive one decomposition a step: %s", l.Name, l.Ambiguity[0])
	}
	defaults := sem.DefaultHooks()
	for _, f := range l.Functions {
		if f.Hook == nil {
			continue
		}
		if !defaultHook(f.Hook) {
			if hosted {
				continue
			}
			return fmt.Errorf("%s: function %s is the Go hook %s: derive --go writes only the default hooks (%s), not a calculus's own (the compiled engine, --engine compiled, runs it: it calls the hook back in the workbench)", f.P, f.Name, f.Hook.Name, strings.Join(defaults.FuncNames(), ", "))
		}
		if f.Result.Kind != sem.ArgTerm || !slices.Contains(f.Result.Sort.Atoms, sem.NumberAtom) {
			return fmt.Errorf("%s: hook %s gives a number, which its result sort does not hold", f.P, f.Name)
		}
	}
	for _, so := range l.Sorts {
		for _, a := range so.Atoms {
			if d, ok := defaults.Atom(a.Name); (!ok || d != a) && !hosted {
				return fmt.Errorf("%s: sort %s has the atom type %s: derive --go writes only the default atom types (bool, string, float and number), not a calculus's own (the compiled engine, --engine compiled, runs it: its values stay in the workbench)", so.P, so.Name, a.Name)
			}
		}
	}
	var bad error
	walkPrims(l, func(p *sem.Prim) {
		if !hosted && !DefaultPrim(p) && bad == nil {
			bad = fmt.Errorf("prim %s is a hook: derive --go writes only rule files that use the default hooks (the δ-table: %s; the compiled engine, --engine compiled, runs it: it calls the prim back in the workbench)", p.Name, strings.Join(sem.PrimNames(), ", "))
		}
	})
	return bad
}

// defaultHook reports whether h is one of the default hooks (sem.DefaultHooks), not
// a calculus's own of the same name.
func defaultHook(h *sem.GoFunc) bool {
	d, ok := sem.DefaultHooks().Func(h.Name)
	return ok && d == h
}

// DefaultPrim reports whether p is the δ-table's own prim of its name, which the
// generated code computes itself; any other it calls back in the workbench
// (internal/compiled).
func DefaultPrim(p *sem.Prim) bool {
	d, ok := sem.LookupPrim(p.Name)
	return ok && d == p
}

// walkPrims calls f on every prim the file uses.
func walkPrims(l *sem.Language, f func(*sem.Prim)) {
	var pat func(p *sem.Pattern)
	pat = func(p *sem.Pattern) {
		if p == nil {
			return
		}
		if p.Prim != nil {
			f(p.Prim)
		}
		for _, a := range p.Args {
			pat(a)
		}
	}
	conds := func(cs []*sem.Cond) {
		for _, c := range cs {
			if c.Prim != nil {
				f(c.Prim)
			}
			for _, a := range c.Args {
				pat(a)
			}
		}
	}
	for _, r := range l.Rules {
		pat(r.RHS)
		conds(r.Where)
	}
	for _, fn := range l.Functions {
		for _, c := range fn.Clauses {
			pat(c.RHS)
			conds(c.Where)
		}
	}
}

// rootCon is the constructor at the root of p, nil when p may match terms of any
// root (a metavariable, a literal: their own tests decide).
func rootCon(p *sem.Pattern) *sem.Con {
	if p.Kind == sem.PatCon {
		return p.Con
	}
	return nil
}

// dispatch emits a switch on the root of the node n over the patterns pats (in
// order): for each root tag (a constructor, the integers, an atom type, the
// variables), the patterns with that root and those of any root, in order, each by
// try(i); the default case, those of any root.
func (g *gen) dispatch(e *emitter, pats []*sem.Pattern, try func(i int)) {
	var roots []string
	var any []int
	for i, p := range pats {
		if r := g.rootTag(p); r != "" {
			if !slices.Contains(roots, r) {
				roots = append(roots, r)
			}
		} else {
			any = append(any, i)
		}
	}
	if len(roots) > 0 {
		e.p("switch n.t.Tag {")
		for _, r := range roots {
			e.p("case %s:", r)
			for i, p := range pats {
				if rt := g.rootTag(p); rt == r || rt == "" && !g.excludes(p, r) {
					try(i)
				}
			}
		}
		e.p("default:")
	}
	for _, i := range any {
		try(i)
	}
	if len(roots) > 0 {
		e.p("}")
	}
}

// excludes reports whether no term with the root tag matches p, a pattern of no
// root of its own: a value of a kind or a term of a class that the root alone says
// is not one (sem.RootAnswer), so that a root's case of a disjunction skips it.
func (g *gen) excludes(p *sem.Pattern, tag string) bool {
	if p.Kind != sem.PatMeta {
		return false
	}
	var no []string
	switch p.Sort.Kind {
	case sem.MetaValue:
		_, no = g.rootAnswers(p.Sort.ValuesOf, nil)
	case sem.MetaClass:
		_, no = g.rootAnswers(nil, p.Sort.Class)
	default:
		return false
	}
	return slices.Contains(no, tag)
}

// rootTag is the tag every term p matches has at its root (a constructor's, or the
// literals' or variables' it tests for), "" for any.
func (g *gen) rootTag(p *sem.Pattern) string {
	switch p.Kind {
	case sem.PatCon:
		return g.con[p.Con.Index]
	case sem.PatInt:
		return "tagInt"
	case sem.PatAtom:
		return g.atomTag(p.Atom)
	case sem.PatMeta:
		switch p.Sort.Kind {
		case sem.MetaInt:
			return "tagInt"
		case sem.MetaVar:
			return "tagVar"
		case sem.MetaAtom:
			return g.atomTag(p.Sort.Atom)
		}
	}
	return ""
}
