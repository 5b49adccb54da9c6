package sem

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Hooks are what a calculus registers in Go for its rule files: atom types (AtomType:
// booleans, strings, floats, with their literals, equality and printing), the δ-hooks (prims:
// integer operations for right-hand sides, comparisons for side conditions, called as
// (prim OP N ...)) and meta-functions over terms (GoFunc, which a rule file declares by
// (hook NAME (ARG-SORT ...) RESULT-SORT) and calls as it calls its own functions). A
// rule file names the hooks it uses; a name the hooks do not hold is a positioned
// error. DefaultHooks is the δ-table every rule file has (PrimNames); a calculus adds
// its own to a copy (Add, AddPrim) and loads its files with LoadWith.
type Hooks struct {
	prims  map[string]*Prim
	pnames []string // the prims' names, in the order they were added
	funcs  map[string]*GoFunc
	fnames []string
	atoms  map[string]*AtomType
	anames []string
}

// GoFunc is a meta-function written in Go: a hook. Call computes the result from the
// arguments, terms read back (closed, of the sorts the rule file's (hook ...)
// declaration gives), and returns a term of the declared result sort (built with
// Int, Var, App and the language's constructors, Language.Con), or an error, which
// stops the run as a function with no clause does (*FunctionError, the rule file's
// error); an *interderive.RuntimeError (interderive.Runtime) is instead the program's
// run-time error, as a declared stuck shape's is (Racket's division by zero). It must
// not change its arguments, terms are shared, nor keep the slice args past the call,
// which the engine reuses (as io.Writer's Write must not keep p). It must be a function
// of its arguments, the same result for the same terms: the calls of the rule file's
// functions, which may call it, are remembered (Engine's memo).
type GoFunc struct {
	Name  string
	Arity int
	Call  func(l *Language, args []*Term) (*Term, error)
	Doc   string
}

// DefaultHooks is a new set of hooks holding the δ-table (PrimNames), the atom types
// bool, string, float and number (BoolAtom, StringAtom, FloatAtom, NumberAtom), and
// Racket's arithmetic on numbers, number-add, number-sub, number-mul, number-div and
// number-sqrt (number.go).
func DefaultHooks() *Hooks {
	h := &Hooks{prims: map[string]*Prim{}, funcs: map[string]*GoFunc{}, atoms: map[string]*AtomType{}}
	for _, name := range PrimNames() {
		if err := h.AddPrim(prims[name]); err != nil {
			panic(err) // the table's names are distinct
		}
	}
	for _, a := range []*AtomType{BoolAtom, StringAtom, FloatAtom, NumberAtom} {
		if err := h.AddAtom(a); err != nil {
			panic(err)
		}
	}
	for _, f := range numberHooks {
		if err := h.Add(f); err != nil {
			panic(err)
		}
	}
	return h
}

// AddPrim adds a δ-hook. Its name must be new, its arity positive, and it must give
// Int (an operation) or Cmp (a comparison, Test), not both.
func (h *Hooks) AddPrim(p *Prim) error {
	switch {
	case p.Name == "":
		return fmt.Errorf("a prim needs a name")
	case h.prims[p.Name] != nil || h.funcs[p.Name] != nil:
		return fmt.Errorf("a hook named %s is registered already", p.Name)
	case p.Arity < 1:
		return fmt.Errorf("prim %s: arity %d, want at least 1", p.Name, p.Arity)
	case p.Test && (p.Cmp == nil || p.Int != nil), !p.Test && (p.Int == nil || p.Cmp != nil):
		return fmt.Errorf("prim %s: a comparison (Test) gives Cmp, an operation gives Int, not both", p.Name)
	}
	h.prims[p.Name] = p
	h.pnames = append(h.pnames, p.Name)
	return nil
}

// Add adds a meta-function. Its name must be new and not a reserved word, and it
// must have Call.
func (h *Hooks) Add(f *GoFunc) error {
	switch {
	case f.Name == "" || f.Call == nil:
		return fmt.Errorf("a hook needs a name and a Call")
	case h.prims[f.Name] != nil || h.funcs[f.Name] != nil:
		return fmt.Errorf("a hook named %s is registered already", f.Name)
	case slices.Contains(reserved, f.Name):
		return fmt.Errorf("hook %s: a reserved word of the rule language", f.Name)
	case f.Arity < 0:
		return fmt.Errorf("hook %s: arity %d", f.Name, f.Arity)
	}
	h.funcs[f.Name] = f
	h.fnames = append(h.fnames, f.Name)
	return nil
}

// Prim is the δ-hook named name.
func (h *Hooks) Prim(name string) (*Prim, bool) { p, ok := h.prims[name]; return p, ok }

// Func is the meta-function named name.
func (h *Hooks) Func(name string) (*GoFunc, bool) { f, ok := h.funcs[name]; return f, ok }

// PrimNames are the names of the δ-hooks, in the order they were added.
func (h *Hooks) PrimNames() []string { return slices.Clone(h.pnames) }

// FuncNames are the names of the meta-functions, in the order they were added.
func (h *Hooks) FuncNames() []string { return slices.Clone(h.fnames) }

// ParseWith parses a rule file whose prims and hooks are those of h (Parse uses
// DefaultHooks).
func ParseWith(src []byte, h *Hooks) (*Language, error) { return parseWith(src, h) }

// LoadWith parses a rule file with the hooks h and runs the static checks (Load uses
// DefaultHooks).
func LoadWith(src []byte, h *Hooks) (*Language, error) {
	l, err := ParseWith(src, h)
	if err != nil {
		return nil, err
	}
	if err := Check(l); err != nil {
		return nil, err
	}
	return l, nil
}

// Hooks are the hooks the language was read with.
func (l *Language) Hooks() *Hooks { return l.hooks }

// AtomType is an atom type a calculus registers (Hooks.AddAtom): booleans, strings,
// floats. A sort takes its atoms by (atom TYPE META ...), and its literals are then
// terms of the sort, in programs and patterns alike: Read reads one from a symbol
// (quoted false: true, 1.5) or a string ("abc", quoted true), Format writes one back as
// Read reads it, and Equal compares two. Samples are a few of its values (one at
// least), for the static checks' enumeration and the generators. Key, if set, is a
// comparable value that two values share exactly where Equal says they are equal
// (the lower case of a name compared in any case): the compiled engine then finds the
// values equal to a new one at once, where without it it compares the new value with
// one of each class of equal values met so far.
type AtomType struct {
	Name    string
	Read    func(s string, quoted bool) (v any, ok bool)
	Format  func(v any) string
	Equal   func(a, b any) bool
	Key     func(v any) any
	Samples []any
	Doc     string
}

// checkKey reports a's Key where it is not one: a sample whose key is not comparable,
// or two samples that Key and Equal tell apart differently.
func (a *AtomType) checkKey() (err error) {
	if a.Key == nil {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("atom type %s: Key: %v", a.Name, p)
		}
	}()
	keys := make([]any, len(a.Samples))
	for i, v := range a.Samples {
		keys[i] = a.Key(v)
		if k := keys[i]; k == nil || !reflect.TypeOf(k).Comparable() {
			return fmt.Errorf("atom type %s: Key of the sample %s is %v, not a comparable value", a.Name, a.Format(v), k)
		}
	}
	for i, v := range a.Samples {
		for j, w := range a.Samples {
			if (keys[i] == keys[j]) != a.Equal(v, w) {
				return fmt.Errorf("atom type %s: Key and Equal disagree on the samples %s and %s", a.Name, a.Format(v), a.Format(w))
			}
		}
	}
	return nil
}

// The atom types of DefaultHooks.
var (
	// BoolAtom is the booleans: the literals true and false.
	BoolAtom = &AtomType{Name: "bool", Doc: "the booleans: true, false",
		Read: func(s string, quoted bool) (any, bool) {
			if quoted || s != "true" && s != "false" {
				return nil, false
			}
			return s == "true", true
		},
		Format:  func(v any) string { return strconv.FormatBool(v.(bool)) },
		Equal:   func(a, b any) bool { return a.(bool) == b.(bool) },
		Samples: []any{false, true},
	}
	// StringAtom is the strings: the literals in double quotes, "abc".
	StringAtom = &AtomType{Name: "string", Doc: `the strings: "abc", with \" and \\ as escapes`,
		Read: func(s string, quoted bool) (any, bool) {
			if !quoted {
				return nil, false
			}
			return s, true
		},
		Format:  func(v any) string { return strconv.Quote(v.(string)) },
		Equal:   func(a, b any) bool { return a.(string) == b.(string) },
		Samples: []any{"", "a"},
	}
	// FloatAtom is the 64-bit floating-point numbers: the literals with a point or an
	// exponent, 1.5, -0.25, 1e10 (an integer literal is an integer).
	FloatAtom = &AtomType{Name: "float", Doc: "64-bit floats: 1.5, -0.25, 1e10",
		Read: func(s string, quoted bool) (any, bool) {
			if quoted || !strings.ContainsAny(s, ".eE") || strings.ContainsAny(s, "xXpP_") {
				return nil, false
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, false
			}
			return f, true
		},
		Format: func(v any) string {
			s := strconv.FormatFloat(v.(float64), 'g', -1, 64)
			if !strings.ContainsAny(s, ".eE") {
				s += ".0" // read back as a float, not an integer
			}
			return s
		},
		Equal:   func(a, b any) bool { return a.(float64) == b.(float64) },
		Samples: []any{0.0, 1.5},
	}
)

// AddAtom adds an atom type. Its name must be new, and it must have Read, Format,
// Equal and a sample.
func (h *Hooks) AddAtom(a *AtomType) error {
	switch {
	case a.Name == "" || a.Read == nil || a.Format == nil || a.Equal == nil:
		return fmt.Errorf("an atom type needs a name, Read, Format and Equal")
	case len(a.Samples) == 0:
		return fmt.Errorf("atom type %s: no sample value", a.Name)
	case h.atoms[a.Name] != nil:
		return fmt.Errorf("an atom type named %s is registered already", a.Name)
	}
	if err := a.checkKey(); err != nil {
		return err
	}
	h.atoms[a.Name] = a
	h.anames = append(h.anames, a.Name)
	return nil
}

// Atom is the atom type named name.
func (h *Hooks) Atom(name string) (*AtomType, bool) { a, ok := h.atoms[name]; return a, ok }

// AtomNames are the names of the atom types, in the order they were added.
func (h *Hooks) AtomNames() []string { return slices.Clone(h.anames) }
