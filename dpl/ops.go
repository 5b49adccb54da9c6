package dpl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// An Operator is an operation symbol op : Dom -> Cod (spec §2) with its meaning ev.
//
// Every operator is given by a small scalar expression per coordinate of Cod, over the
// coordinates of its argument (the real leaves of Dom, left to right), built from
// constants, the input coordinates, +, ×, neg, sin, cos, exp, log and inv (sigm and
// swish are such expressions: 1/(1 + exp(-a)), a · sigm(a)); and by domain
// guards (log needs a > 0, inv needs a ≠ 0). The reverse derivative op_r : Dom * Cod ->
// Dom is obtained by symbolic differentiation of those expressions, with the same
// guards, so that the set of operators is closed under _r (mul_r, mul_rr, ...) and
// op_r is undefined exactly where op is.
type Operator struct {
	// Name is the operator's name in programs: mul, dprod2, log_r, mul_rr, ...
	Name string
	// Dom and Cod are the arity op : Dom -> Cod.
	Dom, Cod Type

	n      int       // the number of real coordinates of Dom
	guards []guard   // the domain: every guard must hold
	out    []*scalar // one expression per real coordinate of Cod
	base   string    // the base operator's name (mul for mul_rr)
	order  int       // the number of _r derivations from the base operator

	compile sync.Once
	prog    program // the guards' and outputs' expressions as a straight-line program

	once sync.Once
	r    *Operator
}

// program is a straight-line program computing an operator's guards and outputs: its
// expressions share subexpressions (a DAG), which the program computes once each.
type program struct {
	code   []instr
	guards []int // the instruction computing each guard's argument
	out    []int // the instruction computing each output
}

// instr computes one subexpression from earlier ones (a and b index code).
type instr struct {
	kind scalarKind
	c    float64
	i    int
	a, b int
}

// compiled returns op's program, built once.
func (op *Operator) compiled() *program {
	op.compile.Do(func() {
		index := map[*scalar]int{}
		p := &op.prog
		var emit func(s *scalar) int
		emit = func(s *scalar) int {
			if i, ok := index[s]; ok {
				return i
			}
			in := instr{kind: s.kind, c: s.c, i: s.i}
			if s.a != nil {
				in.a = emit(s.a)
			}
			if s.b != nil {
				in.b = emit(s.b)
			}
			p.code = append(p.code, in)
			index[s] = len(p.code) - 1
			return len(p.code) - 1
		}
		for _, g := range op.guards {
			p.guards = append(p.guards, emit(g.arg))
		}
		for _, s := range op.out {
			p.out = append(p.out, emit(s))
		}
	})
	return &op.prog
}

// runInto computes every instruction on the input coordinates xs into v (of length
// len(p.code)). ok is false where a log or an inv is applied outside its domain (which
// the guards rule out).
func (p *program) runInto(v, xs []float64) ([]float64, bool) {
	ok := true
	for k, in := range p.code {
		a, b := v[in.a], v[in.b]
		switch in.kind {
		case sConst:
			v[k] = in.c
		case sIn:
			v[k] = xs[in.i]
		case sAdd:
			v[k] = a + b
		case sMul:
			v[k] = a * b
		case sNeg:
			v[k] = -a
		case sSin:
			v[k] = math.Sin(a)
		case sCos:
			v[k] = math.Cos(a)
		case sExp:
			v[k] = math.Exp(a)
		case sLog:
			v[k], ok = math.Log(a), ok && a > 0
		case sInv:
			v[k], ok = 1/a, ok && a != 0
		}
	}
	return v, ok
}

// String returns the operator's name.
func (op *Operator) String() string { return op.Name }

// Order is the number of reverse derivatives taken from a base operator: 0 for mul, 2
// for mul_rr.
func (op *Operator) Order() int { return op.order }

// R returns op_r : Dom * Cod -> Dom, where op_r(<L, M>) is the reverse derivative of op
// at L applied to M (the paper writes M.op_r(L)): the transposed Jacobian J_op(L)ᵀ·M.
// It is built once, on demand, and is safe for concurrent use.
func (op *Operator) R() *Operator {
	op.once.Do(func() { op.r = op.derive() })
	return op.r
}

// MaxOrder bounds the order of derived operators: mul with more than MaxOrder _r
// suffixes is not an operator. Nested rd needs one order per level of nesting around an
// operator; the expressions of transcendental operators grow about 4 times per order.
const MaxOrder = 8

// MaxDProd bounds n in dprod<n>.
const MaxDProd = 100

// A guard is a condition of an operator's domain on one of its scalar expressions:
// arg > 0 (positive) or arg ≠ 0.
type guard struct {
	positive bool
	arg      *scalar
	reason   string // for messages: "log needs a > 0"
}

// scalarKind is the form of a scalar expression.
type scalarKind uint8

const (
	sConst scalarKind = iota
	sIn               // an input coordinate
	sAdd
	sMul
	sNeg
	sSin
	sCos
	sExp
	sLog
	sInv
)

// scalar is a scalar expression. Expressions are immutable and share subexpressions.
type scalar struct {
	kind scalarKind
	c    float64 // sConst
	i    int     // sIn
	a, b *scalar
}

// Smart constructors: they fold the constants 0 and 1 away, so that derivatives stay
// small. Folding never loses a domain condition: guards are kept apart.
func cnst(c float64) *scalar { return &scalar{kind: sConst, c: c} }
func input(i int) *scalar    { return &scalar{kind: sIn, i: i} }

func isConst(s *scalar, c float64) bool { return s.kind == sConst && s.c == c }

func sadd(a, b *scalar) *scalar {
	switch {
	case isConst(a, 0):
		return b
	case isConst(b, 0):
		return a
	case a.kind == sConst && b.kind == sConst:
		return cnst(a.c + b.c)
	}
	return &scalar{kind: sAdd, a: a, b: b}
}

func smul(a, b *scalar) *scalar {
	switch {
	case isConst(a, 0) || isConst(b, 0):
		return cnst(0)
	case isConst(a, 1):
		return b
	case isConst(b, 1):
		return a
	case a.kind == sConst && b.kind == sConst:
		return cnst(a.c * b.c)
	}
	return &scalar{kind: sMul, a: a, b: b}
}

func sneg(a *scalar) *scalar {
	switch a.kind {
	case sConst:
		return cnst(-a.c)
	case sNeg:
		return a.a
	}
	return &scalar{kind: sNeg, a: a}
}

func sapp(k scalarKind, a *scalar) *scalar { return &scalar{kind: k, a: a} }

// deriv is ∂s/∂x_i, memoised on the shared subexpressions of s.
func deriv(s *scalar, i int, memo map[*scalar]*scalar) *scalar {
	if d, ok := memo[s]; ok {
		return d
	}
	var d *scalar
	switch s.kind {
	case sConst:
		d = cnst(0)
	case sIn:
		if s.i == i {
			d = cnst(1)
		} else {
			d = cnst(0)
		}
	case sAdd:
		d = sadd(deriv(s.a, i, memo), deriv(s.b, i, memo))
	case sMul:
		d = sadd(smul(deriv(s.a, i, memo), s.b), smul(s.a, deriv(s.b, i, memo)))
	case sNeg:
		d = sneg(deriv(s.a, i, memo))
	case sSin:
		d = smul(sapp(sCos, s.a), deriv(s.a, i, memo))
	case sCos:
		d = smul(sneg(sapp(sSin, s.a)), deriv(s.a, i, memo))
	case sExp:
		d = smul(s, deriv(s.a, i, memo))
	case sLog:
		d = smul(sapp(sInv, s.a), deriv(s.a, i, memo))
	case sInv:
		d = smul(sneg(smul(s, s)), deriv(s.a, i, memo))
	}
	memo[s] = d
	return d
}

// derive builds op_r. Its argument is <L, M> with L : Dom (coordinates 0..n-1) and
// M : Cod (coordinates n..n+m-1); coordinate i of the result is Σ_j M_j · ∂out_j/∂x_i,
// summed left to right. L comes first, so op's guards apply unchanged.
func (op *Operator) derive() *Operator {
	n, m := op.n, len(op.out)
	memos := make([]map[*scalar]*scalar, n)
	outs := make([]*scalar, n)
	for i := range n {
		memos[i] = map[*scalar]*scalar{}
		sum := cnst(0)
		for j := range m {
			sum = sadd(sum, smul(input(n+j), deriv(op.out[j], i, memos[i])))
		}
		outs[i] = sum
	}
	name := op.Name + "r"
	if op.order == 0 {
		name = op.Name + "_r"
	}
	return &Operator{Name: name, Dom: Times(op.Dom, op.Cod), Cod: op.Dom, n: n + m,
		guards: op.guards, out: outs, base: op.base, order: op.order + 1}
}

// Base operators.

func unary(name string, k scalarKind, guards ...guard) *Operator {
	x := input(0)
	for i := range guards {
		guards[i].arg = x
	}
	return &Operator{Name: name, Dom: Real, Cod: Real, n: 1, guards: guards,
		out: []*scalar{sapp(k, x)}, base: name}
}

// sigm is the logistic function of a, inv(1 + exp(neg(a))).
func sigm(a *scalar) *scalar { return sapp(sInv, sadd(cnst(1), sapp(sExp, sneg(a)))) }

func newBase(name string) *Operator {
	switch name {
	case "mul":
		return &Operator{Name: name, Dom: Times(Real, Real), Cod: Real, n: 2,
			out: []*scalar{smul(input(0), input(1))}, base: name}
	case "neg":
		return &Operator{Name: name, Dom: Real, Cod: Real, n: 1, out: []*scalar{sneg(input(0))}, base: name}
	case "sin":
		return unary(name, sSin)
	case "cos":
		return unary(name, sCos)
	case "exp":
		return unary(name, sExp)
	case "log":
		return unary(name, sLog, guard{positive: true, reason: "log needs a > 0"})
	case "inv":
		return unary(name, sInv, guard{reason: "inv needs a ≠ 0"})
	case "sigm": // the logistic function, 1 / (1 + exp(-a)): 1 + exp(-a) > 0, no guard
		return &Operator{Name: name, Dom: Real, Cod: Real, n: 1, out: []*scalar{sigm(input(0))}, base: name}
	case "swish": // a · sigm(a)
		x := input(0)
		return &Operator{Name: name, Dom: Real, Cod: Real, n: 1, out: []*scalar{smul(x, sigm(x))}, base: name}
	}
	// dprod<n> : real^n * real^n -> real, Σ_k a_k · b_k summed left to right.
	digits, ok := strings.CutPrefix(name, "dprod")
	if !ok || digits == "" || digits[0] == '0' || len(digits) > 3 {
		return nil
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > MaxDProd {
		return nil
	}
	sum := cnst(0)
	for k := range n {
		sum = sadd(sum, smul(input(k), input(n+k)))
	}
	return &Operator{Name: name, Dom: Times(Pow(Real, n), Pow(Real, n)), Cod: Real, n: 2 * n,
		out: []*scalar{sum}, base: name}
}

var (
	baseMu  sync.Mutex
	baseOps = map[string]*Operator{}
)

// LookupOperator finds an operator by name: mul, neg, sin, cos, exp, log, inv, sigm,
// swish, dprod<n> (1 ≤ n ≤ MaxDProd), or any of them followed by _r, _rr, ... (up to
// MaxOrder r's). The same name always gives the same *Operator.
func LookupOperator(name string) (*Operator, bool) {
	base, order := name, 0
	if i := strings.LastIndex(name, "_"); i > 0 && i < len(name)-1 && strings.Trim(name[i+1:], "r") == "" {
		base, order = name[:i], len(name)-i-1
	}
	if order > MaxOrder {
		return nil, false
	}
	baseMu.Lock()
	op, ok := baseOps[base]
	if !ok {
		if op = newBase(base); op != nil {
			baseOps[base] = op
		}
	}
	baseMu.Unlock()
	if op == nil {
		return nil, false
	}
	for range order {
		op = op.R()
	}
	return op, true
}

// Predicate is a predicate symbol pred : Dom with its meaning bev.
type Predicate struct {
	Name string
	Dom  Type
	// test is bev on the coordinates of the argument (at most predCoords of them),
	// passed by value so that they stay on the caller's stack.
	test func(xs [predCoords]float64) (b, defined bool)
	why  string // why bev is undefined where it is
}

// predCoords bounds the number of real coordinates of a predicate's domain.
const predCoords = 2

// String returns the predicate's name.
func (p *Predicate) String() string { return p.Name }

// Lt is the predicate lt : real * real, written a <. b: true if a < b, false if a > b,
// and undefined if a = b (spec §2: < would not be continuous).
var Lt = &Predicate{Name: "lt", Dom: Times(Real, Real),
	test: func(xs [predCoords]float64) (bool, bool) { return xs[0] < xs[1], xs[0] != xs[1] },
	why:  "lt is undefined on the diagonal"}

// LookupPredicate finds a predicate by name: lt.
func LookupPredicate(name string) (*Predicate, bool) {
	if name == Lt.Name {
		return Lt, true
	}
	return nil, false
}

// Undefined is the outcome of a computation that has no value (spec §2): an operator
// or predicate applied outside its domain, or a float64 result that is not finite. It
// is not an error of the program and not false; it is an error value in Go so that
// evaluators can return it.
type Undefined struct {
	// Redex is the closed redex that has no value: op(V), pred(V), or V + W.
	Redex Term
	// Reason says why: "log needs a > 0", "lt is undefined on the diagonal",
	// "the result overflows float64".
	Reason string
}

func (u *Undefined) Error() string {
	return "undefined: " + Format(u.Redex) + " (" + u.Reason + ")"
}

const overflow = "the result overflows float64"

// Ev is ev(op, V): op applied to the closed value v of type op.Dom. Outside op's domain,
// or where a coordinate of the result is not a finite float64, the result is undefined:
// the error is then an *Undefined. Ev never returns NaN or ±Inf.
func Ev(op *Operator, v Term) (Term, error) {
	var xbuf [16]float64 // small operators compute in buffers on the stack
	xs, ok := flatten(v, op.Dom, xbuf[:0])
	if !ok {
		return nil, notClosed(op.Name, v, op.Dom)
	}
	r, why := evFlat(op, xs, v.Pos())
	if r == nil {
		return nil, &Undefined{Redex: &OpApp{P: v.Pos(), Op: op, Arg: v}, Reason: why}
	}
	return r, nil
}

// EvPair is Ev on the pair <a, b> at position p, for an operator whose domain is a
// product, without building the pair: what an evaluator calls on op(<M, N>) once M and
// N are the closed values a and b.
func EvPair(op *Operator, a, b Term, p Pos) (Term, error) {
	d, ok := op.Dom.(*Prod)
	var xbuf [16]float64
	xs := xbuf[:0]
	if ok {
		xs, ok = flatten(a, d.Fst, xs)
	}
	if ok {
		xs, ok = flatten(b, d.Snd, xs)
	}
	if !ok {
		return nil, notClosed(op.Name, pairOf(p, a, b, op.Dom), op.Dom)
	}
	r, why := evFlat(op, xs, p)
	if r == nil {
		return nil, &Undefined{Redex: &OpApp{P: p, Op: op, Arg: pairOf(p, a, b, op.Dom)}, Reason: why}
	}
	return r, nil
}

// evFlat is ev(op, V) on the coordinates xs of V: the result, built at position p, or
// nil and why it is undefined.
func evFlat(op *Operator, xs []float64, p Pos) (Term, string) {
	var ybuf [16]float64
	ys, why := evCoords(op, xs, ybuf[:0])
	if why != "" {
		return nil, why
	}
	r, _ := build(op.Cod, ys, p)
	return r, ""
}

// evCoords is ev(op, V) on the coordinates xs of V: the coordinates of the result,
// appended to ys, or why it is undefined. Every evaluation of an operator computes
// through it (evFlat, and R fused with evaluation), so that all compute the same bits.
func evCoords(op *Operator, xs, ys []float64) ([]float64, string) {
	var vbuf [16]float64
	prog := op.compiled()
	var vals []float64
	if len(prog.code) <= len(vbuf) {
		vals = vbuf[:len(prog.code)]
	} else {
		vals = make([]float64, len(prog.code))
	}
	vals, _ = prog.runInto(vals, xs)
	for k, g := range op.guards {
		a := vals[prog.guards[k]]
		if g.positive && !(a > 0) || !g.positive && a == 0 {
			return ys, g.reason
		}
	}
	for _, k := range prog.out {
		y := vals[k]
		if math.IsInf(y, 0) || math.IsNaN(y) {
			return ys, overflow
		}
		ys = append(ys, y)
	}
	return ys, ""
}

// Bev is bev(pred, V), for a closed value v of type pred.Dom; where it is undefined,
// the error is an *Undefined.
func Bev(p *Predicate, v Term) (bool, error) {
	var xs [predCoords]float64
	n, ok := flattenInto(xs[:], v, p.Dom)
	if !ok || n != len(xs) {
		return false, notClosed(p.Name, v, p.Dom)
	}
	b, defined := p.test(xs)
	if !defined {
		return false, &Undefined{Redex: &PredApp{P: v.Pos(), Pred: p, Arg: v}, Reason: p.why}
	}
	return b, nil
}

// BevPair is Bev on the pair <a, b> at position pos, without building the pair (as
// EvPair is Ev).
func BevPair(p *Predicate, a, b Term, pos Pos) (bool, error) {
	var xs [predCoords]float64
	d, ok := p.Dom.(*Prod)
	n, m := 0, 0
	if ok {
		n, ok = flattenInto(xs[:], a, d.Fst)
	}
	if ok {
		m, ok = flattenInto(xs[n:], b, d.Snd)
	}
	if !ok || n+m != len(xs) {
		return false, notClosed(p.Name, pairOf(pos, a, b, p.Dom), p.Dom)
	}
	r, defined := p.test(xs)
	if !defined {
		return false, &Undefined{Redex: &PredApp{P: pos, Pred: p, Arg: pairOf(pos, a, b, p.Dom)}, Reason: p.why}
	}
	return r, nil
}

// pairOf is the pair <a, b> at p, typed by dom if dom is a product: what EvPair and
// BevPair did not build, for their messages.
func pairOf(p Pos, a, b Term, dom Type) *Pair {
	v := &Pair{P: p, X: a, Y: b}
	if d, ok := dom.(*Prod); ok {
		v.T, v.U = d.Fst, d.Snd
	}
	return v
}

// notClosed is the error of an operator or a predicate, named name, applied to v,
// which is not a closed value of its domain dom.
func notClosed(name string, v Term, dom Type) error {
	return fmt.Errorf("%s applied to %s, which is not a closed value of type %s", name, Format(v), FormatType(dom))
}

// flattenInto is flatten into the fixed buffer xs: the number of coordinates written,
// and false if v is not a closed value of type t or has more coordinates than xs.
func flattenInto(xs []float64, v Term, t Type) (int, bool) {
	ys, ok := flatten(v, t, xs[:0:len(xs)])
	if !ok || len(ys) > len(xs) || len(ys) > 0 && &ys[0] != &xs[0] {
		return 0, false
	}
	return len(ys), true
}

// AddReals is the contraction of V + W on reals r and s: r + s, undefined if it
// overflows.
func AddReals(v, w Term) (Term, error) {
	r, ok1 := v.(*RealLit)
	s, ok2 := w.(*RealLit)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%s + %s: the operands are not reals", Format(v), Format(w))
	}
	t := r.R + s.R
	if math.IsInf(t, 0) || math.IsNaN(t) {
		return nil, &Undefined{Redex: &Plus{P: r.P, X: v, Y: w}, Reason: overflow}
	}
	return &RealLit{P: r.P, R: t}, nil
}

// Delta is the contractum of a primitive redex c whose operands are values — V + W,
// op(V), fst(V), snd(V), as a trace holds them — given their closed values: x for V,
// y for W (and, for op(<V, W>), x and y for V and W, the pair left unbuilt: EvPair).
// Figure 5 contracts the trace term of a primitive redex so (C ⇒ V), once its
// evaluator has the values of C's operands at hand.
func Delta(c, x, y Term) (Term, error) {
	switch c := c.(type) {
	case *Plus:
		return AddReals(x, y)
	case *OpApp:
		if p, ok := c.Arg.(*Pair); ok && y != nil {
			return EvPair(c.Op, x, y, p.P)
		}
		return Ev(c.Op, x)
	case *Fst, *Snd:
		p, ok := x.(*Pair)
		if !ok {
			return nil, fmt.Errorf("%s of %s", RuleOf(c), Format(x))
		}
		if _, fst := c.(*Fst); fst {
			return p.X, nil
		}
		return p.Y, nil
	}
	return nil, fmt.Errorf("%s is not a primitive redex", describe(c))
}

// RuleOf names the rule of a primitive redex: plus, op, fst or snd ("" for any other
// term).
func RuleOf(c Term) string {
	switch c.(type) {
	case *Plus:
		return RulePlus
	case *OpApp:
		return RuleOp
	case *Fst:
		return RuleFst
	case *Snd:
		return RuleSnd
	}
	return ""
}

// flatten appends the real coordinates of the closed value v of type t to xs.
func flatten(v Term, t Type, xs []float64) ([]float64, bool) {
	switch t := t.(type) {
	case Base:
		if t == Unit {
			_, ok := v.(*UnitLit)
			return xs, ok
		}
		r, ok := v.(*RealLit)
		if !ok {
			return xs, false
		}
		return append(xs, r.R), true
	case *Prod:
		p, ok := v.(*Pair)
		if !ok {
			return xs, false
		}
		xs, ok = flatten(p.X, t.Fst, xs)
		if !ok {
			return xs, false
		}
		return flatten(p.Y, t.Snd, xs)
	}
	return xs, false
}

// build makes the value of type t from the coordinates xs, returning the unused rest.
func build(t Type, xs []float64, p Pos) (Term, []float64) {
	switch t := t.(type) {
	case *Prod:
		a, rest := build(t.Fst, xs, p)
		b, rest := build(t.Snd, rest, p)
		return &Pair{P: p, X: a, Y: b, T: t.Fst, U: t.Snd}, rest
	case Base:
		if t == Unit {
			return &UnitLit{P: p}, xs
		}
	}
	return &RealLit{P: p, R: xs[0]}, xs[1:]
}
