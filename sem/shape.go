package sem

import (
	"slices"
	"strconv"
	"strings"
)

// Shapes: how programs write a constructor, when not as (NAME ARG ...). A constructor
// declared with (shape TEMPLATE) is written as its template: an s-expression whose
// symbols that name the constructor's arguments (as its declaration names them, the
// k-th occurrence of a name the k-th argument of that name) stand for them, and whose
// other symbols are literals:
//
//	(con lam x T e (bind 0 2) (shape (λ (x T) e)))   ; (λ (y num) y)
//	(con app e e (shape (e e)))                      ; (f 5)
//	(con arrow T T (shape (T -> T)))                 ; (num -> num)
//	(con num (shape num))                            ; num
//
// so that a calculus reads and prints its terms as its paper, or its Redex model,
// writes them. A term of a sort with shapes is read by the first constructor of the
// sort, in declaration order, whose shape matches the term's structure (its literals,
// and its lists' lengths), and a bare symbol that is a nullary shape's literal is
// that constructor, never a variable. A constructor with a shape is written by its
// shape only, in programs and in what the stages print; the rule file's own patterns
// write every constructor as (NAME ARG ...).

// shape is a constructor's template: a literal symbol, an argument (its index), or a
// list of shapes.
type shape struct {
	lit    string
	arg    int // the argument's index; -1 for a literal or a list
	list   []*shape
	isList bool
	// seq marks an argument that is a sequence written inline, NAME ... in its list:
	// it stands for the list's elements between those before and after it (seq.go).
	seq bool
}

// shapeOf reads the template t of the constructor c, whose arguments' names, as the
// declaration writes them, are names.
func (p *langParser) shapeOf(c *Con, t *SExpr, names []string) *shape {
	next := map[string][]int{} // the argument indices of each name, in order
	for i, n := range names {
		next[n] = append(next[n], i)
	}
	used := make([]bool, len(names))
	var read func(s *SExpr, depth int) *shape
	read = func(s *SExpr, depth int) *shape {
		switch s.Kind {
		case SSym:
			if idx := next[s.Sym]; len(idx) > 0 {
				next[s.Sym] = idx[1:]
				used[idx[0]] = true
				return &shape{arg: idx[0]}
			}
			if _, ok := p.metaOf(s); ok {
				p.errorf(s.P, "%s in the shape of %s is a metavariable name, and %s has no more arguments named %s", s.Sym, c.Name, c.Name, strings.SplitN(s.Sym, "_", 2)[0])
				return nil
			}
			if p.l.literals == nil {
				p.l.literals = map[string]bool{}
			}
			p.l.literals[s.Sym] = true
			return &shape{lit: s.Sym, arg: -1}
		case SList:
			if depth > 64 {
				p.errorf(s.P, "the shape of %s nests deeper than 64 lists", c.Name)
				return nil
			}
			sh := &shape{arg: -1, isList: true}
			seqs := 0
			for i, x := range s.List {
				if isSym(x, "...") {
					if i == 0 || sh.list[len(sh.list)-1].arg < 0 || sh.list[len(sh.list)-1].seq {
						p.errorf(x.P, "an ellipsis in the shape of %s follows the name of an argument that is a sequence", c.Name)
						return nil
					}
					last := sh.list[len(sh.list)-1]
					if !isSeqArg(c.Args[last.arg]) {
						p.errorf(x.P, "argument %d of %s, before the ellipsis, is not a sequence (E ...)", last.arg, c.Name)
						return nil
					}
					if seqs++; seqs > 1 {
						p.errorf(x.P, "a list of the shape of %s has one sequence at most", c.Name)
						return nil
					}
					last.seq = true
					continue
				}
				y := read(x, depth+1)
				if y == nil {
					return nil
				}
				sh.list = append(sh.list, y)
			}
			for _, y := range sh.list {
				if y.arg >= 0 && !y.seq && isSeqArg(c.Args[y.arg]) {
					p.errorf(s.P, "argument %d of %s is a sequence: its shape writes it NAME ..., its elements in the list", y.arg, c.Name)
					return nil
				}
			}
			return sh
		}
		p.errorf(s.P, "%s: a shape is made of the arguments' names, literal symbols and lists", token(s))
		return nil
	}
	sh := read(t, 0)
	if sh == nil {
		return nil
	}
	for i, u := range used {
		if !u {
			p.errorf(t.P, "the shape of %s does not write its argument %d (%s)", c.Name, i, names[i])
			return nil
		}
	}
	if !sh.isList && sh.arg >= 0 {
		p.errorf(t.P, "the shape of %s is only its argument %s: a shape has a literal or a list", c.Name, names[sh.arg])
		return nil
	}
	return sh
}

// match reports whether the s-expression s has the shape's structure, putting the
// s-expression of each argument in args.
func (sh *shape) match(s *SExpr, args []*SExpr) bool {
	switch {
	case sh.arg >= 0:
		args[sh.arg] = s
		return true
	case sh.isList:
		if s.Kind != SList {
			return false
		}
		k := slices.IndexFunc(sh.list, func(x *shape) bool { return x.seq })
		if k < 0 {
			if len(s.List) != len(sh.list) {
				return false
			}
			for i, x := range sh.list {
				if !x.match(s.List[i], args) {
					return false
				}
			}
			return true
		}
		// The sequence takes the elements between the k before it and those after it.
		after := len(sh.list) - k - 1
		if len(s.List) < k+after {
			return false
		}
		for i := range k {
			if !sh.list[i].match(s.List[i], args) {
				return false
			}
		}
		n := len(s.List) - k - after
		for i := range after {
			if !sh.list[k+1+i].match(s.List[k+n+i], args) {
				return false
			}
		}
		args[sh.list[k].arg] = &SExpr{P: s.P, Kind: SList, List: s.List[k : k+n]}
		return true
	}
	return s.Kind == SSym && s.Sym == sh.lit
}

// shaped is the first constructor of so with a shape that s matches, and its
// arguments' s-expressions.
func (l *Language) shaped(s *SExpr, so *Sort) (*Con, []*SExpr, bool) {
	for _, c := range so.Cons {
		if c.shape == nil {
			continue
		}
		args := make([]*SExpr, len(c.Args))
		if c.shape.match(s, args) {
			return c, args, true
		}
	}
	return nil, nil, false
}

// written is what the printer writes for a node of a constructor with a shape: its
// literals and brackets as text, its arguments as the terms to print in their places,
// in order. Without args, an argument is written as #INDEX.
func (sh *shape) written(args []*Term, lit func(string), term func(*Term)) {
	switch {
	case sh.arg >= 0 && args == nil:
		lit("#" + strconv.Itoa(sh.arg))
	case sh.arg >= 0:
		term(args[sh.arg])
	case sh.isList:
		lit("(")
		first := true
		for _, x := range sh.list {
			if !x.seq || args == nil || args[x.arg].Op == TermVar {
				if !first {
					lit(" ")
				}
				first = false
				x.written(args, lit, term)
				if x.seq {
					lit(" ...")
				}
				continue
			}
			// A sequence written inline: its elements, one by one.
			t := args[x.arg]
			for View(t).Op == TermCon && len(View(t).Args) == 2 {
				if !first {
					lit(" ")
				}
				first = false
				term(View(t).Args[0])
				t = View(t).Args[1]
			}
		}
		lit(")")
	default:
		lit(sh.lit)
	}
}

// shapesHint lists, for a message, how the sort's shaped constructors are written.
func (so *Sort) shapesHint() string {
	var ws []string
	for _, c := range so.Cons {
		if c.shape != nil {
			var b strings.Builder
			c.shape.written(nil, func(s string) { b.WriteString(s) }, nil)
			ws = append(ws, b.String())
		}
	}
	if len(ws) == 0 {
		return ""
	}
	return " (written " + strings.Join(ws, ", ") + ")"
}

// Write writes a node of c whose arguments are args as programs write it: by c's
// shape, or as (NAME ARG ...); its literals, brackets and spaces as text (lit), its
// arguments as the terms to write in their places (term), in order. The printers
// that walk terms with a stack of their own use it to stay without recursion.
func (c *Con) Write(args []*Term, lit func(string), term func(*Term)) {
	if c.shape != nil {
		c.shape.written(args, lit, term)
		return
	}
	lit("(" + c.Name)
	for _, a := range args {
		lit(" ")
		term(a)
	}
	lit(")")
}
