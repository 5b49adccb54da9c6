package sem

import (
	"strconv"
	"strings"
	"sync"
)

// Language is a calculus defined by a rule file: its term grammar, its context kinds
// with their values and frames, and its contraction rules. Everything a derived stage
// needs is here as data; Load builds it from a file and checks it.
type Language struct {
	Name   string
	P      Pos
	Sorts  []*Sort // the term sorts; the first is the sort of programs
	Cons   []*Con  // every constructor, in declaration order (Con.Index)
	Kinds  []*Kind // the context kinds; the first is the root kind
	Rules  []*Rule // the contraction rules, in the order they are tried
	Stucks []*Stuck
	// Classes are named sets of patterns (Redex's non-terminals): a metavariable of a
	// class matches a term that one of its alternatives matches.
	Classes []*Class
	// Functions are the meta-functions of the file (Redex's define-metafunction):
	// clauses tried in order, called from right-hand sides, computed in one go (no
	// contraction).
	Functions []*Function
	// Judgments are the judgment forms of the file (Redex's define-judgment-form):
	// relations defined by inference rules, run by their modes (judgment.go).
	Judgments []*Judgment
	// Nondeterministic says that the file declares its relation non-deterministic
	// ((nondeterministic)): a term may decompose more than one way, which the static
	// checks then record (Ambiguity) instead of refusing.
	Nondeterministic bool
	// Ambiguity are the static checks' witnesses of a non-deterministic file: terms
	// that decompose two ways, each positioned. The derived stages refuse a file with
	// one (run --all and trace --graph explore its relation: relation.go).
	Ambiguity []string
	// Properties are what the file claims of its semantics ((property ...)),
	// which fuzz checks (property.go).
	Properties []*Property
	// Typing is the judgment that types the programs, if the file names one
	// ((typing ...)): run, check, compare and trace type a program before they run it.
	Typing *Typing
	// Layers are the kinds a rule steps by (where (step K a b)): an inner layer, whose
	// contractions are reported as sub-events Rule/<inner rule>.
	Layers []*Kind
	// File names the rule file, for the errors of a run that are the file's (a
	// *FunctionError); the loader sets it, Parse does not know it.
	File string
	// Substitute asks the derived stages to run the file by substitution even where it
	// qualifies for environments (Discipline): to compare the
	// two disciplines.
	Substitute bool

	src       []byte // the rule file's source (Parse), for those errors' lines
	hooks     *Hooks // the hooks the file was read with (Parse: DefaultHooks)
	cons      map[string]*Con
	kinds     map[string]*Kind
	funcs     map[string]*Function
	judgments map[string]*Judgment
	metas     map[string]MetaSort // a metavariable's base name (before _) and its sort
	// literals are the literal symbols of the constructors' shapes: never variables
	// (Redex's variable-not-otherwise-mentioned).
	literals map[string]bool
	// unqualified is why the file does not qualify for environments, nil if it does
	// (NotQualified; found when the file is read).
	unqualified *Unqualified
	// engines are the engines of the language's runs that ended (Engine.Release),
	// for the next runs to reuse their memory (NewRun): a run of a few contractions
	// otherwise spends more on its engine than on its contractions. A copy of the
	// language shares them. No state passes from a run to the next: a released
	// engine is cleared.
	engines *sync.Pool
	// readsUnbound says that some pattern reads a slot of its bindings before it
	// writes it: a named ellipsis's (the length the first sequence it names sets) or
	// a PatSame's. Only then are the slots an engine takes for a match cleared.
	readsUnbound bool
}

// Sort is a term sort: its constructors, and whether variables and integer literals
// are terms of it.
type Sort struct {
	Name     string
	P        Pos
	Metas    []string // its metavariable names (the sort's name first)
	Vars     bool     // variables are terms of the sort
	VarMetas []string // the metavariable names of its variables
	Ints     bool     // integer literals are terms of the sort
	IntMetas []string // the metavariable names of its integers
	// Atoms are the atom types whose literals are terms of the sort, (atom TYPE M ...),
	// and AtomMetas their metavariable names, one list a type.
	Atoms     []*AtomType
	AtomMetas [][]string
	Cons      []*Con
	// Ground says that no variable occurs in a term of the sort: it has no
	// variables, nor has any sort its terms contain (types, coercions, labels).
	Ground bool
	// Elem is, for a sequence sort (seq.go), the sort of its elements: a constructor's
	// argument declared E ... is of the sequence sort E..., whose terms are the
	// sequences of E's terms. Nil for a sort the file declares.
	Elem *Arg
}

// ArgKind says what an argument of a constructor is.
type ArgKind uint8

// The kinds of argument.
const (
	ArgTerm ArgKind = iota // a term of a sort
	ArgVar                 // a variable of a sort: a binder
	ArgInt                 // an integer of a sort
)

// Arg is the sort of a constructor's argument.
type Arg struct {
	Kind ArgKind
	Sort *Sort
}

// Bind says that the variable argument Binder binds its name in the arguments Scope:
// substitution stops there at a binder of its variable, and renames the binder when it
// would capture. The binder may be a sequence of variables (x ...), each binding its
// name, or a sequence of items ((x e) ...: Con.ItemVar), each binding its variable;
// a sequence of items may be in its own scope (letrec's bindings see each other).
type Bind struct {
	Binder int
	Scope  []int
}

// Con is a constructor of a sort.
type Con struct {
	Name  string
	P     Pos
	Sort  *Sort
	Args  []Arg
	Binds []Bind
	Index int // in Language.Cons
	// item is, for a constructor whose terms are the items of a sequence that binds
	// ((let ((x e) ...) e): each (x e) binds x), 1 + the index of its one variable
	// argument, the name the item binds (ItemVar); 0 for any other constructor.
	item int

	scope [][]int // for each argument, the binder arguments whose scope it is in
	shape *shape  // how programs write it, if not as (NAME ARG ...) (shape.go)
}

// ItemVar is the index of the variable argument an item of c binds, when c's terms
// are the items of a sequence that binds; -1 for any other constructor.
func (c *Con) ItemVar() int { return c.item - 1 }

// Shaped reports whether programs write c by a shape of its own (shape.go), not as
// (NAME ARG ...).
func (c *Con) Shaped() bool { return c.shape != nil }

// BindersOf are the binder arguments whose scope argument j is in.
func (c *Con) BindersOf(j int) []int { return c.scope[j] }

// Kind is a context kind (Generalized Refocusing): its values, and its frames in
// search order. A frame of kind K with a hole of kind H is an elementary context that
// turns a context of kind K around it into one of kind H inside.
type Kind struct {
	Name  string
	P     Pos
	Sort  *Sort
	Meta  string // the metavariable name of its values (v)
	Index int
	// Seq is, for the kind of a sequence's elements that the reader makes from a
	// frame whose hole is in a sequence (seq.go), that frame; nil for a kind the file
	// declares.
	Seq *Frame
	// NormalForms says that the kind's values are its normal forms (normal-forms
	// KIND): the terms in which its search finds no redex, Redex's reading of a
	// context that reduces under binders. Such a kind declares no value pattern.
	NormalForms bool
	Values      []*Value
	Frames      []*Frame
	Rules       []*Rule  // the rules of the kind, in order
	Stucks      []*Stuck // the declared stuck shapes of the kind
	// Answers are the shapes of the kind's non-value answers (blame l, an uncaught
	// exception): a term of one of them in the empty context ends the run.
	Answers []*Value

	values, frames, rules, stucks, answers index
	roots                                  rootAnswers // what a root alone answers of the value test (roots.go)
}

// Value is a value pattern of a kind.
type Value struct {
	P     Pos
	Kind  *Kind
	Pat   *Pattern
	Metas int // number of metavariable slots of the pattern
}

// Frame is an elementary context of a kind: a pattern with one hole. Its position in
// Kind.Frames is its place in the search order.
type Frame struct {
	P     Pos
	Kind  *Kind
	Pat   *Pattern
	Hole  *Kind // the kind of the hole
	Path  []int // the argument indices from the pattern's root down to the hole
	Metas int   // metavariable slots, the hole's included (HoleSlot)
	Index int   // in Kind.Frames
	// HoleSlot is the slot of the hole's contents among the bindings of a match.
	HoleSlot int
	// written is the pattern as the file writes it, where it differs from Pat: a
	// hole in a sequence (seq.go).
	written *Pattern
}

// Written is the frame's pattern as the file writes it.
func (f *Frame) Written() *Pattern {
	if f.written != nil {
		return f.written
	}
	return f.Pat
}

// Rule is a contraction rule: a redex pattern of a kind, a right-hand side, and side
// conditions. Several rules may share a name (the two cases of if0): they are one
// rule to the contraction events.
type Rule struct {
	Name  string
	P     Pos
	Kind  *Kind
	LHS   *Pattern
	RHS   *Pattern
	Where []*Cond
	Metas int // metavariable slots: the LHS's, then those fresh binds
	// Context marks a rule that captures its redex's context (an abort, an
	// exception): (rule N K (context LHS) RHS) contracts a redex that matches LHS in a
	// non-empty context, replacing the whole term, its context discarded, by RHS;
	// (rule N K (context D LHS) RHS) replaces instead the innermost frame of the
	// context that matches the delimiter D (a pattern with a hole), with everything
	// inside it, by RHS. The context is discarded, never reinstated: such a rule is
	// an abort, which direct style expresses by returning early (interp).
	Context bool
	// Delimiter is D, nil for an abort to the root.
	Delimiter *Pattern
	// DelimiterPath is the path from D's root to its hole.
	DelimiterPath []int
	// Capture is the slot of the context the rule captures, (context [D] C LHS): the
	// frames it discards (up to, not including, the delimiter), as a term with a hole
	// that the right-hand side reinstates with (in-hole C t) (capture.go). CaptureName
	// is C; "" when the rule captures none.
	Capture     int
	CaptureName string
	// Layer is the kind of the rule's step condition, if it has one: the inner layer
	// it steps (its contraction is reported as Name/<inner rule>).
	Layer *Kind
}

// Stuck declares a shape of a kind that no rule contracts, on purpose: a run that
// reaches it stops with a stuck error and the reason (a type error that a type
// system would rule out). A non-value that no frame enters, no rule contracts and no
// stuck shape declares is an error of the rule file (the static checks).
type Stuck struct {
	P      Pos
	Kind   *Kind
	Pat    *Pattern
	Reason string
	Metas  int
}

// Class is a named set of patterns: its metavariable (and those with a subscript)
// matches a term of its sort that one of the alternatives matches. Alternatives may
// use the class itself (a recursive grammar: the normal forms of a coercion calculus).
type Class struct {
	Index int // in Language.Classes
	Name  string
	P     Pos
	Sort  *Sort
	Alts  []*Pattern
	Metas []int // the metavariable slots of each alternative

	alts  index       // the alternatives by the root they match
	roots rootAnswers // what a root alone answers of the test (roots.go)
}

// Lookup lists, in declaration order, the alternatives of c that may match a term
// whose root is op (and con, for a constructor).
func (c *Class) Lookup(op TermOp, con *Con) []int { return c.alts.lookup(op, con) }

// Function is a meta-function: clauses tried in order, the first whose argument
// patterns match and whose conditions hold giving the result. A call is computed at
// once, within a contraction: it is meta-level, like substitution.
type Function struct {
	Name    string
	P       Pos
	Params  []Arg
	Result  Arg
	Clauses []*Clause
	Hook    *GoFunc // a hook's (hook NAME ...): written in Go, no clauses

	// by is the argument whose root picks the clauses that may apply (clauses),
	// -1 when no argument tells three or more clauses apart: then all are tried.
	by      int
	clauses index
	all     []int
}

// Clause is a clause of a function.
type Clause struct {
	P     Pos
	Args  []*Pattern
	RHS   *Pattern
	Where []*Cond
	Metas int

	order []int // the arguments in the order they are read and matched (ellipsesLast)
}

// Order is the order in which the clause's arguments are read and matched: those
// with an ellipsis last, where some have one and some do not (ellipsesLast), so that
// a metavariable bound in the others is compared in a sequence. The slice is the
// clause's own: not to be changed.
func (c *Clause) Order() []int { return c.order }

// CondKind says what a side condition is.
type CondKind uint8

// The side conditions.
const (
	CondEq    CondKind = iota // (= a b): equal up to α-equivalence
	CondNe                    // (!= a b)
	CondPrim                  // (prim OP a b): a comparison of integers
	CondFresh                 // (fresh x_new x_base t ...): a name not occurring in the terms
	CondStep                  // (step K a b): a, of an inner layer K, steps to b (one contraction)
	CondMatch                 // (match p t): t's value matches the pattern p, binding its metavariables
	CondCall                  // (F a ...): the function F (or hook) gives the atom true
)

// Cond is a side condition of a rule.
type Cond struct {
	P    Pos
	Kind CondKind
	Prim *Prim
	// Args are the arguments; for CondFresh: the new name, its base, the terms to
	// avoid; CondStep: a, b; CondMatch: the pattern p, the term t; CondCall: the call.
	Args []*Pattern
	// Layer is the kind of a CondStep.
	Layer *Kind
}

// MetaKind says what a metavariable ranges over.
type MetaKind uint8

// The kinds of metavariable.
const (
	MetaTerm  MetaKind = iota // any term of a sort
	MetaVar                   // a variable of a sort
	MetaInt                   // an integer of a sort
	MetaValue                 // a value of a kind
	MetaClass                 // a term of a class
	MetaAtom                  // an atom of a type (of a sort)
)

// MetaSort is what a metavariable ranges over.
type MetaSort struct {
	Kind     MetaKind
	Sort     *Sort
	ValuesOf *Kind     // MetaValue
	Class    *Class    // MetaClass
	Atom     *AtomType // MetaAtom
}

// PatKind says what a pattern node is.
type PatKind uint8

// The pattern nodes.
const (
	PatMeta  PatKind = iota // a metavariable
	PatCon                  // a constructor applied to patterns
	PatInt                  // an integer literal
	PatHole                 // a frame's hole
	PatSubst                // right-hand sides: (subst t x v), t[x := v]
	PatPrim                 // right-hand sides: (prim OP n ...), an integer computed by δ
	PatCall                 // right-hand sides: (F a ...), a call of the function F
	PatAtom                 // an atom literal: true, "abc", 1.5
	PatPlug                 // right-hand sides: (in-hole C t), t plugged into the context C a rule captured
	PatSame                 // a delimiter's metavariable the redex bound: a term equal to its binding
	PatSeq                  // a sequence, (P ... Q R ...): its elements, each repeated or not (seq.go)
)

// Pattern is a pattern (left-hand sides, values, frames, stuck shapes) or a template
// (right-hand sides).
type Pattern struct {
	P    Pos
	Kind PatKind
	Meta string // PatMeta: its name (v, t_1)
	Sort MetaSort
	Slot int // PatMeta: its slot in the bindings; PatHole: the hole's slot
	Con  *Con
	N    int64     // PatInt
	Prim *Prim     // PatPrim
	Fn   *Function // PatCall
	Hole *Kind     // PatHole
	Atom *AtomType // PatAtom: its type
	Val  any       // PatAtom: its value
	Args []*Pattern
	// Reps says, for a PatSeq, how each element (of Args) repeats (seq.go).
	Reps []Rep
	// Order is, for a PatCon with an ellipsis in some arguments, the order in which
	// its arguments are read and matched: those with one last (ellipsesLast); nil for
	// left to right.
	Order []int

	matcher matcher // the pattern compiled (staged.go)
	builder builder // the template compiled
	integer integer // a prim's integer argument compiled
}

// Rep is how an element of a sequence pattern repeats (seq.go): once, or, followed by
// an ellipsis, any number of times, its metavariables (Under) standing for sequences.
type Rep struct {
	Ellipsis string   // "" for an element that stands once; "..." or a named one, "..._1"
	NameSlot int      // a left-hand side's named ellipsis's slot (the length it equates, an integer), -1 for none
	Under    []SeqVar // the metavariables bound (or used) under the ellipsis
}

// Repeated reports whether the element is followed by an ellipsis.
func (r Rep) Repeated() bool { return r.Ellipsis != "" }

// SeqVar is a metavariable under an ellipsis: its slot, and the sequence sort of what
// it stands for.
type SeqVar struct {
	Slot int
	Sort *Sort
}

// index lists, for a root constructor, the declarations of a kind whose pattern may
// match a term with that root: byCon[c.Index], ints (integer roots), vars (variable
// roots); a declaration whose root is a term metavariable is in every list. Where
// several declarations share a root constructor and differ by the constructor of one
// of its arguments, ((app (λ x τ e) v), (app (hd) v), (app (app (+) n) n)), byArg
// refines the list by that argument's root (buildIndexes).
type index struct {
	byCon [][]int
	byArg []*argIndex // by root constructor: nil, or the list refined
	ints  []int
	vars  []int
	atoms []int
}

// argIndex refines a root constructor's list by the root of its argument at: a
// declaration whose pattern there is a constructor is in that constructor's list
// only, any other in every list; leaf is the list for an argument that is no
// constructor node (an integer, an atom, a name).
type argIndex struct {
	at    int
	byCon [][]int
	leaf  []int
}

// candidates are the indices of the declarations that may match t.
func (x *index) candidates(t *Term) []int {
	clo := t.Op == TermClo
	if clo {
		t = t.Body // a closure's root is its term's
	}
	switch t.Op {
	case TermInt:
		return x.ints
	case TermVar:
		return x.vars
	case TermAtom:
		return x.atoms
	}
	if a := x.byArg[t.Con.Index]; a != nil {
		return a.candidates(t, clo, x.byCon[t.Con.Index])
	}
	return x.byCon[t.Con.Index]
}

// candidates refines all, the list of t's root constructor, by the root of t's
// argument a.at, as View would have it, where it is known without a look-up: under
// a closure (clo) a variable is its environment's.
func (a *argIndex) candidates(t *Term, clo bool, all []int) []int {
	if a.at >= len(t.Args) {
		return all
	}
	switch u := t.Args[a.at]; u.Op {
	case TermCon:
		return a.byCon[u.Con.Index]
	case TermInt, TermAtom:
		return a.leaf
	case TermVar:
		if !clo {
			return a.leaf
		}
	case TermClo:
		switch u.Body.Op {
		case TermCon:
			return a.byCon[u.Body.Con.Index]
		case TermInt, TermAtom:
			return a.leaf
		}
	}
	return all
}

// Table names one of a kind's decomposition tables.
type Table uint8

// The tables of a kind.
const (
	ValueTable  Table = iota // Kind.Values
	FrameTable               // Kind.Frames
	RuleTable                // Kind.Rules
	StuckTable               // Kind.Stucks
	AnswerTable              // Kind.Answers
)

// Lookup lists, in declaration order, the indices of the declarations of one of k's
// tables whose pattern may match a term whose root is op (and con, for a
// constructor): the decomposition tables, indexed by root constructor.
func (k *Kind) Lookup(table Table, op TermOp, con *Con) []int {
	return [...]*index{&k.values, &k.frames, &k.rules, &k.stucks, &k.answers}[table].lookup(op, con)
}

func (x *index) lookup(op TermOp, con *Con) []int {
	switch op {
	case TermInt:
		return x.ints
	case TermVar:
		return x.vars
	case TermAtom:
		return x.atoms
	}
	return x.byCon[con.Index]
}

// Con returns the constructor named name.
func (l *Language) Con(name string) (*Con, bool) { c, ok := l.cons[name]; return c, ok }

// Kind returns the kind named name.
func (l *Language) Kind(name string) (*Kind, bool) { k, ok := l.kinds[name]; return k, ok }

// Function returns the function named name.
func (l *Language) Function(name string) (*Function, bool) { f, ok := l.funcs[name]; return f, ok }

// Source is the rule file's source, as Parse read it: for the lines of messages
// positioned in it (FormatWarnings).
func (l *Language) Source() []byte { return l.src }

// Root is the root kind: the kind of a whole program's context.
func (l *Language) Root() *Kind { return l.Kinds[0] }

// RuleNames are the names of the rules, each once, in the order they are first
// declared: the contraction events the derived stages report.
func (l *Language) RuleNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range l.Rules {
		if !seen[r.Name] {
			seen[r.Name] = true
			out = append(out, r.Name)
		}
	}
	return out
}

// readAtom reads the symbol or string s as a literal of one of so's atom types, or
// the integer s, in a sort without integers, as one that reads it (a number).
func (so *Sort) readAtom(s *SExpr) (*AtomType, any, bool) {
	text := s.Sym
	switch {
	case s.Kind == SInt && !so.Ints:
		text = strconv.FormatInt(s.N, 10) // an integer literal, in a sort of numbers
	case s.Kind != SSym && s.Kind != SStr:
		return nil, nil, false
	}
	for _, a := range so.Atoms {
		if v, ok := a.Read(text, s.Kind == SStr); ok {
			return a, v, true
		}
	}
	return nil, nil, false
}

// atomsHint names so's atom types for a message ("" when it has none).
func (so *Sort) atomsHint() string {
	if len(so.Atoms) == 0 {
		return ""
	}
	names := make([]string, len(so.Atoms))
	for i, a := range so.Atoms {
		names[i] = a.Name
	}
	return " (its atoms: " + strings.Join(names, ", ") + ")"
}
