package gogen

import (
	"fmt"
	"maps"
	"slices"

	"github.com/interderive/interderive/sem"
)

// The atoms of a calculus's own atom types (sem.Hooks.AddAtom) in the compiled
// engine's package (GenerateHosted). Their values are Go values of the workbench's,
// which the generated code cannot hold; so each stays in the workbench, in Atoms, and
// crosses as a number, its handle, with its text (the type's Format) for the
// generated code to print. The generated code compares two atoms by their class: the
// handle of the first value registered that the type's Equal says is equal to it. So
// two atoms are equal in the generated code exactly where Equal says they are (the
// tables' test), and each prints and reads back as the value it is, even where equal
// values print differently.
//
// In a generated term, an atom of the calculus's own i-th atom type has the tag
// tagOwn0 - i, its text in Name and its handle and class in N (ownN); the literals
// of the rule file are registered first, as the generator meets them, so that the
// generated code names them by their handles and classes, and each run starts from
// them (Atoms.Clone).

// tagOwn0 is the tag of the atoms of a calculus's first atom type of its own; the
// i-th's is tagOwn0 - i (rt/terms.go.txt).
const tagOwn0 = -9

// maxOwnAtoms is the most values of its own atom types a run registers: a handle
// and a class are 31 bits each in N.
const maxOwnAtoms = 1<<31 - 1

// Atoms are the values of a calculus's own atom types that crossed into the
// generated code, by handle.
type Atoms struct {
	types []*sem.AtomType // the calculus's own atom types, by number
	index map[*sem.AtomType]int
	vals  []ownValue // by handle
	// classes are, by type, the handles of the first value of each class of equal
	// values: a new value is compared with each (Equal) until one is equal; or, for a
	// type with a Key, looked up by its key in keys (the same handles, by key).
	classes [][]int64
	keys    []map[any]int64
}

// ownValue is a registered value: its type's number, the value, its text and its
// class.
type ownValue struct {
	typ   int
	v     any
	text  string
	class int64
}

// ownAtomTypes are the atom types of l's sorts that are not the default hooks', in
// the order the sorts declare them.
func ownAtomTypes(l *sem.Language) []*sem.AtomType {
	defaults := sem.DefaultHooks()
	var own []*sem.AtomType
	for _, so := range l.Sorts {
		for _, a := range so.Atoms {
			if d, ok := defaults.Atom(a.Name); ok && d == a {
				continue
			}
			if !slices.Contains(own, a) {
				own = append(own, a)
			}
		}
	}
	return own
}

// newAtoms is an empty registry of l's own atom types.
func newAtoms(l *sem.Language) *Atoms { return atomsOf(ownAtomTypes(l)) }

// atomsOf is an empty registry of the atom types types.
func atomsOf(types []*sem.AtomType) *Atoms {
	a := &Atoms{types: types, index: map[*sem.AtomType]int{}}
	for i, t := range a.types {
		a.index[t] = i
	}
	a.classes = make([][]int64, len(a.types))
	a.keys = make([]map[any]int64, len(a.types))
	for i, t := range a.types {
		if t.Key != nil {
			a.keys[i] = map[any]int64{}
		}
	}
	return a
}

// Clone is a registry that starts with a's values: a run's, from the literals the
// generator registered; nil for a calculus with no atom type of its own, whose runs
// need none.
func (a *Atoms) Clone() *Atoms {
	if a == nil || len(a.types) == 0 {
		return nil
	}
	b := &Atoms{types: a.types, index: a.index, vals: a.vals[:len(a.vals):len(a.vals)], classes: make([][]int64, len(a.classes)), keys: make([]map[any]int64, len(a.keys))}
	for i, c := range a.classes {
		b.classes[i] = c[:len(c):len(c)]
	}
	for i, k := range a.keys {
		if k != nil {
			b.keys[i] = maps.Clone(k)
		}
	}
	return b
}

// own reports whether t is an atom of one of the registry's types, and its number.
func (a *Atoms) own(t *sem.AtomType) (int, bool) {
	if a == nil {
		return 0, false
	}
	i, ok := a.index[t]
	return i, ok
}

// add registers v, of the type numbered typ: its handle and class.
func (a *Atoms) add(typ int, v any) (handle, class int64, err error) {
	if len(a.vals) >= maxOwnAtoms {
		return 0, 0, fmt.Errorf("more than %d atoms of the calculus's own atom types in one run", maxOwnAtoms)
	}
	handle = int64(len(a.vals))
	at := a.types[typ]
	if keys := a.keys[typ]; keys != nil {
		class, err = a.keyed(at, keys, v, handle)
	} else {
		class = a.compared(typ, at, v, handle)
	}
	if err != nil {
		return 0, 0, err
	}
	a.vals = append(a.vals, ownValue{typ: typ, v: v, text: at.Format(v), class: class})
	return handle, class, nil
}

// compared is the class of v, of the type numbered typ, found by comparing it with
// the first value of each class (Equal); a class of its own, handle, where none is
// equal.
func (a *Atoms) compared(typ int, at *sem.AtomType, v any, handle int64) int64 {
	for _, c := range a.classes[typ] {
		if at.Equal(a.vals[c].v, v) {
			return c
		}
	}
	a.classes[typ] = append(a.classes[typ], handle)
	return handle
}

// keyed is the class of v, of the type at, found by its key (AtomType.Key); a class
// of its own, handle, where no value registered has that key. A key that is not
// comparable is an error, not a panic.
func (a *Atoms) keyed(at *sem.AtomType, keys map[any]int64, v any, handle int64) (class int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("atom type %s: Key of %s: %v", at.Name, at.Format(v), p)
		}
	}()
	k := at.Key(v)
	if c, ok := keys[k]; ok {
		return c, nil
	}
	keys[k] = handle
	return handle, nil
}

// literal is the handle and class of the literal v of the rule file, of the own
// atom type at: registered once, for every literal that prints the same and is
// equal. The error is a key of v that is not comparable (AtomType.Key).
func (a *Atoms) literal(at *sem.AtomType, v any) (handle, class int64, err error) {
	typ := a.index[at]
	text := at.Format(v)
	for h, w := range a.vals {
		if w.typ == typ && w.text == text && at.Equal(w.v, v) {
			return int64(h), w.class, nil
		}
	}
	handle, class, err = a.add(typ, v) // a rule file has fewer literals than maxOwnAtoms
	if err != nil {
		return -1, -1, err // a key that is not comparable
	}
	return handle, class, nil
}

// value is the registered value of the handle h, of the type numbered typ.
func (a *Atoms) value(typ int, h int64) (ownValue, error) {
	if a == nil || h < 0 || h >= int64(len(a.vals)) || a.vals[h].typ != typ {
		return ownValue{}, fmt.Errorf("no atom %d of the calculus's own atom type %d", h, typ)
	}
	return a.vals[h], nil
}

// ownN is the N of an atom of the calculus's own in the generated code: its handle
// and its class.
func ownN(handle, class int64) int64 { return handle<<32 | class }

// ownHandle is the handle an N of ownN holds.
func ownHandle(n int64) int64 { return int64(uint64(n) >> 32) }

// ownTag is the tag of the atoms of the own atom type numbered typ.
func ownTag(typ int) int64 { return tagOwn0 - int64(typ) }

// ownType is the number of the own atom type whose atoms have the tag tag, if it is
// one of the n types.
func ownType(tag int64, n int) (int, bool) {
	i := tagOwn0 - tag
	return int(i), tag <= tagOwn0 && i < int64(n)
}
