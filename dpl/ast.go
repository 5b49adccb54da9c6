package dpl

import (
	"sync/atomic"

	"github.com/interderive/interderive"
)

// Pos is a source position.
type Pos = interderive.Pos

// Term is a term M or a boolean term B of the language (spec §1), a trace term C
// (the terms without if, letrec, calls and rd), or a value V. One syntax tree serves
// them all; the type checker tells terms from boolean terms. Every node carries the
// position it was parsed at (generated nodes carry the position of what they stand
// for, or none).
type Term interface {
	Pos() Pos
	isTerm()
}

type (
	// Var is an ordinary variable x.
	Var struct {
		P    Pos
		Name string
	}
	// RealLit is a real constant r: always a finite float64.
	RealLit struct {
		P Pos
		R float64
	}
	// UnitLit is the unit value (), the paper's ∗.
	UnitLit struct{ P Pos }
	// Plus is M + N, at type real. Its position is that of the +.
	Plus struct {
		P    Pos
		X, Y Term
	}
	// OpApp is op(M), the application of an operator.
	OpApp struct {
		P   Pos
		Op  *Operator
		Arg Term
	}
	// Let is let x:T = M in N. T is nil only in source written let x = M in N, before
	// the type checker fills it in.
	Let struct {
		P     Pos
		Name  string
		T     Type
		Bound Term
		Body  Term
	}
	// Pair is <M, N>_{T,U}; the type subscripts T and U are filled in by the type
	// checker (nil in source).
	Pair struct {
		P    Pos
		X, Y Term
		T, U Type

		kind atomic.Uint32 // valueKind, worked out once (terms are immutable)
	}
	// Fst is fst_{T,U}(M); T and U are filled in by the type checker.
	Fst struct {
		P    Pos
		X    Term
		T, U Type
	}
	// Snd is snd_{T,U}(M); T and U are filled in by the type checker.
	Snd struct {
		P    Pos
		X    Term
		T, U Type
	}
	// If is if B then M else N.
	If struct {
		P                Pos
		Cond, Then, Else Term
	}
	// Letrec is letrec f(x:T):U = M in N: M is checked with only x:T in scope (and the
	// function variables, f included).
	Letrec struct {
		P      Pos
		Name   string // f
		Param  string // x
		ParamT Type   // T
		ResT   Type   // U
		Fun    Term   // M
		Body   Term   // N
	}
	// Call is f(M). Clo is nil in source: the function variable f is free and names a
	// letrec. Once the letrec is contracted, the reduction semantics resolves the call
	// to its closure clo_φ(f(x:T):U. M) (SubstClosure), which is how this
	// substitution-based presentation represents the function environment φ.
	Call struct {
		P    Pos
		Name string
		Arg  Term
		Clo  *Closure
	}
	// Rd is M.rd[L](x:T. N), the paper's M.rd_L(x:T. N): the reverse-mode derivative of
	// x:T ↦ N at the point L, applied to the cotangent M. Its position is that of rd.
	Rd struct {
		P         Pos
		Cotangent Term // M
		Point     Term // L
		Param     string
		T         Type
		Body      Term // N
	}
	// Fd is the sugar M.fd[L](x:T. N) = M.rd[0_U](y:U. y.rd[L](x:T. N)) (U the type of
	// N, y fresh), which the type checker expands: it needs U.
	Fd struct {
		P         Pos
		Cotangent Term // M, of type T
		Point     Term // L, of type T
		Param     string
		T         Type
		Body      Term // N, of type U
	}
	// PredApp is the boolean term pred(M).
	PredApp struct {
		P    Pos
		Pred *Predicate
		Arg  Term
	}
	// BoolLit is the boolean value true or false.
	BoolLit struct {
		P Pos
		B bool
	}
)

// Closure is clo_φ(f(x:T):U. M): a recursive function whose body has no free ordinary
// variable but x, and whose free function variables other than f have been resolved
// (substituted by their closures) when the closure was made. The recursion is tied at
// call time: the body runs with f resolved to the closure itself.
type Closure struct {
	Name   string // f
	Param  string // x
	ParamT Type   // T
	ResT   Type   // U
	Body   Term   // M
}

func (t *Var) Pos() Pos     { return t.P }
func (t *RealLit) Pos() Pos { return t.P }
func (t *UnitLit) Pos() Pos { return t.P }
func (t *Plus) Pos() Pos    { return t.P }
func (t *OpApp) Pos() Pos   { return t.P }
func (t *Let) Pos() Pos     { return t.P }
func (t *Pair) Pos() Pos    { return t.P }
func (t *Fst) Pos() Pos     { return t.P }
func (t *Snd) Pos() Pos     { return t.P }
func (t *If) Pos() Pos      { return t.P }
func (t *Letrec) Pos() Pos  { return t.P }
func (t *Call) Pos() Pos    { return t.P }
func (t *Rd) Pos() Pos      { return t.P }
func (t *Fd) Pos() Pos      { return t.P }
func (t *PredApp) Pos() Pos { return t.P }
func (t *BoolLit) Pos() Pos { return t.P }

func (*Var) isTerm()     {}
func (*RealLit) isTerm() {}
func (*UnitLit) isTerm() {}
func (*Plus) isTerm()    {}
func (*OpApp) isTerm()   {}
func (*Let) isTerm()     {}
func (*Pair) isTerm()    {}
func (*Fst) isTerm()     {}
func (*Snd) isTerm()     {}
func (*If) isTerm()      {}
func (*Letrec) isTerm()  {}
func (*Call) isTerm()    {}
func (*Rd) isTerm()      {}
func (*Fd) isTerm()      {}
func (*PredApp) isTerm() {}
func (*BoolLit) isTerm() {}

// Children returns the immediate subterms of t, left to right (a resolved call's
// closure body is not a subterm). It is the one place that knows the shape of every
// node, for the iterative traversals (Depth, NewNames, ...).
func Children(t Term) []Term { return AppendChildren(nil, t) }

// AppendChildren appends t's immediate subterms, in Children's order, to dst: the
// walks over large terms use it to keep their stack in one slice.
func AppendChildren(dst []Term, t Term) []Term {
	switch t := t.(type) {
	case *Plus:
		return append(dst, t.X, t.Y)
	case *OpApp:
		return append(dst, t.Arg)
	case *Let:
		return append(dst, t.Bound, t.Body)
	case *Pair:
		return append(dst, t.X, t.Y)
	case *Fst:
		return append(dst, t.X)
	case *Snd:
		return append(dst, t.X)
	case *If:
		return append(dst, t.Cond, t.Then, t.Else)
	case *Letrec:
		return append(dst, t.Fun, t.Body)
	case *Call:
		return append(dst, t.Arg)
	case *Rd:
		return append(dst, t.Cotangent, t.Point, t.Body)
	case *Fd:
		return append(dst, t.Cotangent, t.Point, t.Body)
	case *PredApp:
		return append(dst, t.Arg)
	}
	return dst
}

// LetChain is let x1:T1 = C1 in ... let xn:Tn = Cn in tail for the lets of lets, made
// for this chain alone (their bodies are set, not copied): the trace term a symbolic
// evaluation has built once its last body is known. A chain deeper than MaxDepth is
// refused.
func LetChain(lets []*Let, tail Term) (Term, error) {
	c := tail
	for i := len(lets) - 1; i >= 0; i-- {
		lets[i].Body, c = c, lets[i]
	}
	if err := CheckDepth("trace term", c); err != nil {
		return nil, err
	}
	return c, nil
}

// MaxDepth bounds the nesting depth of the terms the stages build at run time (traces,
// derivatives): deeper terms are refused with an *interderive.DepthError. The depth is
// Depth's, in which a let's body does not nest: traces and derivatives of the tape
// strategy are let-chains as long as the computation, and every function of this
// package over terms loops along a let's body instead of recursing into it. Every
// other recursion over a term goes at most as deep as Depth (plus the depth of the
// values substituted into it, which their types bound), so the bound keeps Go's stack
// far from its limit.
const MaxDepth = 100_000

// Depth returns the nesting depth of t, where a let's body is at the let's depth: a
// leaf has depth 1, a let depth max(1 + the depth of its bound term, the depth of its
// body), any other node 1 + the largest depth of its children. So a let-chain of any
// length whose bound terms are leaves has depth 2. Depth uses no recursion, so that it
// can vet terms of any depth.
func Depth(t Term) int {
	if isNil(t) {
		return 0
	}
	// A walk of t as a tree: fast, but a term that shares subterms (derivative terms
	// do) is a tree larger than itself; past treeBudget nodes the walk starts again,
	// visiting each shared subterm once.
	if d, ok := treeDepth(t, treeBudget, false); ok {
		return d
	}
	return dagDepth(t, false)
}

// NestingDepth is Depth except that a let's body nests too (a let has depth 1 + the
// larger depth of its bound term and body): a let-chain of length k has depth k + 1
// at least.
func NestingDepth(t Term) int {
	if isNil(t) {
		return 0
	}
	if d, ok := treeDepth(t, treeBudget, true); ok {
		return d
	}
	return dagDepth(t, true)
}

// treeBudget is how many nodes Depth visits as a tree before it visits the term as a
// graph: far more than the nodes of the terms a run builds within MaxRedexes.
const treeBudget = 1 << 24

// treeDepth is Depth (NestingDepth if letsNest) by a walk of t as a tree, or false
// past budget nodes.
func treeDepth(t Term, budget int, letsNest bool) (int, bool) {
	type item struct {
		t Term
		d int // the depth of t's node
	}
	deepest := 0
	var buf [32]item // small terms take no allocation
	stack := append(buf[:0], item{t, 1})
	for n := 0; len(stack) > 0; n++ {
		if n > budget {
			return 0, false
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t, d := it.t, it.d
		if isNil(t) {
			continue
		}
		if l, ok := t.(*Let); ok {
			// The body (at the let's depth) waits under the bound term, so that the
			// stack holds no more than one let of a chain at a time.
			deepest = max(deepest, d)
			if letsNest {
				stack = append(stack, item{l.Body, d + 1})
			} else {
				stack = append(stack, item{l.Body, d})
			}
			stack = append(stack, item{l.Bound, d + 1})
			continue
		}
		deepest = max(deepest, d)
		push := func(c Term) {
			if !isNil(c) {
				stack = append(stack, item{c, d + 1})
			}
		}
		switch t := t.(type) { // Children, without a slice per node
		case *Plus:
			push(t.X)
			push(t.Y)
		case *OpApp:
			push(t.Arg)
		case *Pair:
			push(t.X)
			push(t.Y)
		case *Fst:
			push(t.X)
		case *Snd:
			push(t.X)
		case *Var, *RealLit, *UnitLit, *BoolLit:
		default:
			for _, c := range Children(t) {
				push(c)
			}
		}
	}
	return deepest, true
}

// dagDepth is Depth (NestingDepth if letsNest) visiting every subterm once (however
// many parents share it): the depth of each subterm below its own root, memoized.
func dagDepth(t Term, letsNest bool) int {
	memo := map[Term]int{}
	type frame struct {
		t    Term
		kids []Term
		i    int
	}
	kids := func(t Term) []Term {
		if l, ok := t.(*Let); ok {
			return []Term{l.Bound, l.Body}
		}
		return Children(t)
	}
	stack := []frame{{t: t, kids: kids(t)}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.kids) {
			c := top.kids[top.i]
			top.i++
			if _, done := memo[c]; !done && !isNil(c) {
				stack = append(stack, frame{t: c, kids: kids(c)})
			}
			continue
		}
		d := 0
		if l, ok := top.t.(*Let); ok && !letsNest {
			d = max(memo[l.Bound]+1, memo[l.Body])
		} else {
			for _, c := range top.kids {
				d = max(d, memo[c]+1)
			}
			d = max(d, 1)
		}
		memo[top.t] = d
		stack = stack[:len(stack)-1]
	}
	return memo[t]
}

// CheckDepth returns an *interderive.DepthError if t nests deeper than MaxDepth.
func CheckDepth(what string, t Term) error {
	if Depth(t) > MaxDepth {
		return &interderive.DepthError{What: what, Limit: MaxDepth}
	}
	return nil
}
