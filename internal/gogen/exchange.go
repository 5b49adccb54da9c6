package gogen

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/interderive/interderive/sem"
)

// The tags of the generated terms that are not constructor nodes (rt/terms.go.txt): a
// constructor node's tag is its index in Language.Cons.
const (
	tagVar    = -1
	tagInt    = -2
	tagBool   = -3
	tagString = -4
	tagFloat  = -5
	tagNumber = -6
)

// Encode is the term t of l as the generated package's Eval takes it
// (rt/export.go.txt): each node, in preorder, as four integers (its tag, its position
// as line<<32 | column, its integer, the index of its name in names or -1), a
// constructor's arguments after it. An atom of a calculus's own atom type is
// registered in atoms (atoms.go): its handle and class in its integer, its text in
// its name. A term that holds what the generated package has no tag for (a closure,
// a captured context, an atom of a type neither of the default hooks nor of atoms')
// is an error.
func Encode(t *sem.Term, atoms *Atoms) (out []int64, names []string, err error) {
	// The names, by a search of those met, or of a map once they are many.
	var index map[string]int64
	name := func(s string) int64 {
		if index == nil {
			if j := slices.Index(names, s); j >= 0 {
				return int64(j)
			}
			if len(names) < 16 {
				names = append(names, s)
				return int64(len(names) - 1)
			}
			index = make(map[string]int64, 2*len(names))
			for j, n := range names {
				index[n] = int64(j)
			}
		}
		j, ok := index[s]
		if !ok {
			j = int64(len(names))
			index[s] = j
			names = append(names, s)
		}
		return j
	}
	// An explicit stack, not recursion: the term may be as deep as sem allows. The
	// nodes are counted first, so that the table is allocated once, at its size.
	stack := make([]*sem.Term, 1, 16)
	stack[0] = t
	nodes := 0
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], t.Args...)
		nodes++
	}
	out = make([]int64, 0, 4*nodes)
	stack = append(stack, t)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pos := int64(t.P.Line)<<32 | int64(uint32(t.P.Col))
		switch t.Op {
		case sem.TermVar:
			out = append(out, tagVar, pos, 0, name(t.Name))
		case sem.TermInt:
			out = append(out, tagInt, pos, t.N, -1)
		case sem.TermCon:
			out = append(out, int64(t.Con.Index), pos, 0, -1)
			for i := len(t.Args) - 1; i >= 0; i-- {
				stack = append(stack, t.Args[i])
			}
		case sem.TermAtom:
			switch v := t.Val.(type) {
			case bool:
				if t.Atom == sem.BoolAtom {
					n := int64(0)
					if v {
						n = 1
					}
					out = append(out, tagBool, pos, n, -1)
					continue
				}
			case string:
				if t.Atom == sem.StringAtom {
					out = append(out, tagString, pos, 0, name(v))
					continue
				}
			case float64:
				if t.Atom == sem.FloatAtom {
					out = append(out, tagFloat, pos, int64(math.Float64bits(v)), -1)
					continue
				}
				if t.Atom == sem.NumberAtom { // inexact
					out = append(out, tagNumber, pos, int64(math.Float64bits(v)), -1)
					continue
				}
			case *big.Rat:
				if t.Atom == sem.NumberAtom { // exact: its fraction, by name
					out = append(out, tagNumber, pos, 0, name(v.RatString()))
					continue
				}
			}
			if typ, ok := atoms.own(t.Atom); ok {
				h, class, err := atoms.add(typ, t.Val)
				if err != nil {
					return nil, nil, err
				}
				out = append(out, ownTag(typ), pos, ownN(h, class), name(atoms.vals[h].text))
				continue
			}
			return nil, nil, fmt.Errorf("an atom of type %s, which the generated package does not have", t.Atom.Name)
		default:
			return nil, nil, fmt.Errorf("a term of the generated package is no %s", sem.Format(t))
		}
	}
	return out, names, nil
}

// Decode is the term of l that the table enc encodes (Encode's form), with the names
// it uses; an atom of a calculus's own atom type is the value of its handle in atoms.
func Decode(l *sem.Language, enc []int64, names []string, atoms *Atoms) (*sem.Term, error) {
	i := 0
	name := func(j int64) (string, error) {
		if j < 0 || j >= int64(len(names)) {
			return "", fmt.Errorf("name %d of %d", j, len(names))
		}
		return names[j], nil
	}
	// Built bottom-up from an explicit stack of the nodes whose arguments are due.
	type pending struct {
		t *sem.Term
		n int // the arguments it has
	}
	var stack []pending
	var done *sem.Term
	for {
		if i+4 > len(enc) {
			return nil, fmt.Errorf("the table ends at %d", i)
		}
		tag, p, n, x := enc[i], sem.Pos{Line: int32(enc[i+1] >> 32), Col: int32(uint32(enc[i+1]))}, enc[i+2], enc[i+3]
		i += 4
		var t *sem.Term
		switch {
		case tag == tagVar || tag == tagString:
			s, err := name(x)
			if err != nil {
				return nil, err
			}
			if tag == tagVar {
				t = sem.Var(p, s)
			} else {
				t = sem.AtomOf(p, sem.StringAtom, s)
			}
		case tag == tagInt:
			t = sem.Int(p, n)
		case tag == tagBool:
			t = sem.AtomOf(p, sem.BoolAtom, n != 0)
		case tag == tagFloat:
			t = sem.AtomOf(p, sem.FloatAtom, math.Float64frombits(uint64(n)))
		case tag == tagNumber && x < 0:
			t = sem.AtomOf(p, sem.NumberAtom, math.Float64frombits(uint64(n)))
		case tag == tagNumber:
			s, err := name(x)
			if err != nil {
				return nil, err
			}
			r, ok := new(big.Rat).SetString(s)
			if !ok {
				return nil, fmt.Errorf("number %q", s)
			}
			t = sem.AtomOf(p, sem.NumberAtom, r)
		case tag <= tagOwn0 && atoms != nil:
			typ, ok := ownType(tag, len(atoms.types))
			if !ok {
				return nil, fmt.Errorf("no atom type of tag %d", tag)
			}
			v, err := atoms.value(typ, ownHandle(n))
			if err != nil {
				return nil, err
			}
			t = sem.AtomOf(p, atoms.types[typ], v.v)
		case tag < 0 || tag >= int64(len(l.Cons)):
			return nil, fmt.Errorf("no constructor %d", tag)
		default:
			c := l.Cons[tag]
			if len(c.Args) > 0 {
				stack = append(stack, pending{t: sem.App(p, c, make([]*sem.Term, len(c.Args))...)})
				continue
			}
			t = sem.App(p, c)
		}
		// t is complete: it is the next argument of the innermost pending node, and
		// completes it if it is its last.
		for {
			if len(stack) == 0 {
				done = t
				break
			}
			top := &stack[len(stack)-1]
			top.t.Args[top.n] = t
			top.n++
			if top.n < len(top.t.Args) {
				break
			}
			t = top.t
			stack = stack[:len(stack)-1]
		}
		if done != nil {
			break
		}
	}
	if i != len(enc) {
		return nil, fmt.Errorf("%d integers after the term", len(enc)-i)
	}
	return done, nil
}
