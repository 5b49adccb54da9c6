package sem

// What a term's root alone says of its value and class tests. A kind's value test
// (or a class's) on a term whose root is a constructor that none of its alternatives
// can match is no; on one that an alternative matches whatever the term's children
// (a (lam x e), a (true), any integer for n) it is yes: the test need not look
// further. derive --go's tests answer by these tables before they match anything. (The
// engine's own tests were tried with them too, on 2026-12-07: no gain measured, its
// closures' tests being memoized on the closure already.)

// RootAnswer is what a root alone answers of a test.
type RootAnswer int8

const (
	// Depends: the children decide (or the root is not known without a look-up).
	Depends RootAnswer = iota
	// Yes: every term of that root passes the test.
	Yes
	// No: no term of that root passes it.
	No
)

// rootAnswers are a test's answers by root: a constructor's (by its index), an
// integer's and a name's; an atom's depends on its value.
type rootAnswers struct {
	byCon      []RootAnswer
	ints, vars RootAnswer
}

// RootAnswer is what a root alone answers of the test of k's values on a term whose
// root is op (and con, for a constructor).
func (k *Kind) RootAnswer(op TermOp, con *Con) RootAnswer { return k.roots.of(op, con) }

// RootAnswer is what a root alone answers of the test of c's terms on a term whose
// root is op (and con, for a constructor).
func (c *Class) RootAnswer(op TermOp, con *Con) RootAnswer { return c.roots.of(op, con) }

func (r *rootAnswers) of(op TermOp, con *Con) RootAnswer {
	switch {
	case op == TermCon && con != nil && con.Index < len(r.byCon):
		return r.byCon[con.Index]
	case op == TermInt:
		return r.ints
	case op == TermVar:
		return r.vars
	}
	return Depends
}

// buildRootAnswers fills the tables of every kind and class (buildIndexes).
func (l *Language) buildRootAnswers() {
	table := func(test func(op TermOp, con *Con) RootAnswer) rootAnswers {
		r := rootAnswers{byCon: make([]RootAnswer, len(l.Cons))}
		for _, c := range l.Cons {
			r.byCon[c.Index] = test(TermCon, c)
		}
		r.ints, r.vars = test(TermInt, nil), test(TermVar, nil)
		return r
	}
	for _, c := range l.Classes {
		c.roots = table(func(op TermOp, con *Con) RootAnswer { return rootAnswer(op, con, nil, c, map[any]bool{}) })
	}
	for _, k := range l.Kinds {
		if k.NormalForms {
			k.roots = rootAnswers{byCon: make([]RootAnswer, len(l.Cons))} // every answer depends
			continue
		}
		k.roots = table(func(op TermOp, con *Con) RootAnswer { return rootAnswer(op, con, k, nil, map[any]bool{}) })
	}
}

// rootAnswer is what the root op (con) alone answers of the test of kind k's values
// (or class c's terms); seen guards a class or kind that refers to itself. A class met
// again on the way, through metavariables standing for the whole term, adds nothing:
// the test's answer is the least fixed point (t is in a if it is in b, and in b if it
// is in a: in neither), as the engine's index has it (classRoots), so its answer
// there is no.
func rootAnswer(op TermOp, con *Con, k *Kind, c *Class, seen map[any]bool) RootAnswer {
	var key any = k
	var alts []*Pattern
	if c != nil {
		key, alts = c, c.Alts
	} else {
		if k.NormalForms {
			return Depends
		}
		for _, v := range k.Values {
			alts = append(alts, v.Pat)
		}
	}
	if seen[key] {
		return No
	}
	seen[key] = true
	defer delete(seen, key)
	out := No
	for _, p := range alts {
		a := Depends
		switch {
		case p.Kind == PatCon:
			if op != TermCon || p.Con != con {
				a = No
				break
			}
			a = Yes
			for i, q := range p.Args {
				untested := q.Kind == PatHole || q.Kind == PatMeta && (q.Sort.Kind == MetaTerm || p.Con.Args[i].Kind != ArgTerm)
				if !untested {
					a = Depends
				}
			}
		case p.Kind == PatInt:
			if op != TermInt {
				a = No
			}
		case p.Kind == PatAtom:
			if op != TermAtom {
				a = No
			}
		case p.Kind == PatMeta:
			switch p.Sort.Kind {
			case MetaTerm:
				a = Yes
			case MetaInt:
				a = yesIf(op == TermInt)
			case MetaVar:
				a = yesIf(op == TermVar)
			case MetaAtom:
				if op != TermAtom {
					a = No
				}
			case MetaClass:
				a = rootAnswer(op, con, nil, p.Sort.Class, seen)
			case MetaValue:
				a = rootAnswer(op, con, p.Sort.ValuesOf, nil, seen)
			}
		}
		switch a {
		case Yes:
			return Yes
		case Depends:
			out = Depends
		}
	}
	return out
}

// yesIf is Yes where b holds, No where it does not.
func yesIf(b bool) RootAnswer {
	if b {
		return Yes
	}
	return No
}
