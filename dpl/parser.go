package dpl

import (
	"fmt"

	"github.com/interderive/interderive"
)

// Parse reads one program (spec §1). Every node carries the position of its first
// token, except Plus (the position of its operator), the operator application an infix
// sugar stands for (M * N, M / N, M - N, M <. N: the operator's position) and Rd (the
// position of rd). Sugar is expanded here, except fd, which the type checker expands
// (it needs the type of its body):
//
//	M * N = mul(<M, N>)    M / N = mul(<M, inv(N)>)    M - N = M + neg(N)
//	-M = neg(M)            M <. N = lt(<M, N>)        -r = the numeral -r
//	<M1, ..., Mn> = <<M1, M2>, ...>  (<M> = M, <> = ())
//	name(M1, ..., Mn) = name(<M1, ..., Mn>)  (name() = name(()))
//	grad[L](x:T. N) = 1.rd[L](x:T. N)
//	let <x0:T0, ..., xk:Tk> = M in N  (the paper's nested let / fst / snd, fresh z)
//	let f(x:T):U = M in N = letrec f(x:T):U = M in N  (f must not occur in M)
//
// A name applied as name(M) is an operator if it is one (mul, sin, dprod2, log_r,
// ...), else a predicate (lt), else a call of a function. On failure the error is an
// interderive.ErrorList of positioned errors, in source order; Parse never panics.
func Parse(src []byte) (Term, error) { return parse(src, false) }

// ParseGenerated is Parse that also reads the generated names (x#3) that Format prints
// for traces and derivatives: it reads back what the stages print.
func ParseGenerated(src []byte) (Term, error) { return parse(src, true) }

func parse(src []byte, generated bool) (Term, error) {
	p := newParser(src, generated)
	var t Term
	p.run(func() {
		t = p.parseExpr()
		p.expectEOF("expression")
		if len(p.errs) == 0 {
			p.checkTreeDepth(t)
		}
	})
	if err := p.err(); err != nil {
		return nil, err
	}
	return t, nil
}

// ParseType reads a type: real, unit, T * T (left-associative), (T). On failure the
// error is an interderive.ErrorList.
func ParseType(src string) (Type, error) {
	p := newParser([]byte(src), false)
	var t Type
	p.run(func() {
		t = p.parseType()
		p.expectEOF("type")
	})
	if err := p.err(); err != nil {
		return nil, err
	}
	return t, nil
}

// parser is a recursive-descent parser over the whole token list. A syntax error
// aborts the parse by panicking with a bailout, which run recovers.
type parser struct {
	toks  []token
	i     int
	depth int
	errs  interderive.ErrorList
	names *Names // fresh names for the sugar: the z of let-tuples
}

// bailout carries a syntax error out of the recursion.
type bailout struct{ err *interderive.Error }

func newParser(src []byte, generated bool) *parser {
	p := &parser{names: &Names{}}
	p.toks = lex(src, generated, &p.errs)
	for _, t := range p.toks {
		if t.kind == tIdent {
			p.names.Reserve(t.text)
		}
	}
	return p
}

// run calls f and records the syntax error it bails out with.
func (p *parser) run(f func()) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		if b.err != nil && len(p.errs) < maxErrors {
			p.errs.Add(b.err.Pos, b.err.Msg)
		}
	}()
	f()
}

// err returns the collected errors, sorted by position, or nil.
func (p *parser) err() error {
	p.errs.Sort()
	return p.errs.Err()
}

func (p *parser) tok() token    { return p.toks[p.i] }
func (p *parser) kind() tokKind { return p.toks[p.i].kind }

// peekKind is the kind of the token after the current one.
func (p *parser) peekKind() tokKind {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1].kind
	}
	return tEOF
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// failAt aborts the parse with an error at pos. At an illegal token, which the lexer
// already reported, the parse stops silently.
func (p *parser) failAt(pos Pos, format string, args ...any) {
	var err *interderive.Error
	if p.kind() != tIllegal {
		err = interderive.Errorf(pos, format, args...)
	}
	panic(bailout{err: err})
}

// fail aborts the parse with an error at the current token.
func (p *parser) fail(format string, args ...any) { p.failAt(p.tok().pos, format, args...) }

// expect consumes a token of kind k, or fails with "expected WHAT, found ...".
func (p *parser) expect(k tokKind, what string) token {
	if p.kind() != k {
		p.fail("expected %s, found %s", what, p.tok().quoted())
	}
	return p.next()
}

func (p *parser) expectEOF(what string) {
	if p.kind() != tEOF {
		p.fail("unexpected %s after the %s", p.tok().quoted(), what)
	}
}

// enter counts one level of nesting and fails beyond MaxNesting; leave undoes it.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxNesting {
		p.fail("expression nests too deeply (limit %d)", MaxNesting)
	}
}

func (p *parser) leave() { p.depth-- }

// startsOpen reports whether k begins a form that extends as far right as possible.
func startsOpen(k tokKind) bool { return k == tLet || k == tLetrec || k == tIf }

// Expressions.

// parseExpr parses a whole expression: an open form or a comparison.
func (p *parser) parseExpr() Term {
	p.enter()
	defer p.leave()
	if startsOpen(p.kind()) {
		return p.parseOpen()
	}
	return p.parseCmp()
}

// parseOpenOr parses an open form if one starts here, else calls tighter: the right
// operand of an infix operator may be an open form, which then extends to the right.
func (p *parser) parseOpenOr(tighter func() Term) Term {
	if startsOpen(p.kind()) {
		p.enter()
		defer p.leave()
		return p.parseOpen()
	}
	return tighter()
}

// parseOpen parses let, letrec or if; the current token starts one of them.
func (p *parser) parseOpen() Term {
	switch p.kind() {
	case tIf:
		t := p.next()
		cond := p.parseExpr()
		p.expect(tThen, "then")
		th := p.parseExpr()
		p.expect(tElse, "else")
		el := p.parseExpr()
		return &If{P: t.pos, Cond: cond, Then: th, Else: el}
	case tLetrec:
		t := p.next()
		name, param, pt, rt := p.parseFunctionHead("letrec")
		p.expect(tEq, "=")
		fun := p.parseExpr()
		p.expect(tIn, "in")
		body := p.parseExpr()
		return &Letrec{P: t.pos, Name: name, Param: param, ParamT: pt, ResT: rt, Fun: fun, Body: body}
	case tLet:
		return p.parseLet()
	}
	p.fail("expected an expression%s", foundSuffix(p.tok()))
	return nil
}

// parseLet parses the four let forms: let x:T = M in N, let x = M in N,
// let f(x:T):U = M in N and let <x0:T0, ..., xk:Tk> = M in N. A chain of lets and
// let-tuples (each the body of the one before) is parsed in a loop: the body of a let
// is at the let's own depth, so that a chain as long as a generated straight-line
// program nests no deeper than one let.
func (p *parser) parseLet() Term {
	var first Term
	var last *Let // the innermost let of the chain so far, whose body is still to come
	link := func(t Term, innermost *Let) {
		if first == nil {
			first = t
		} else {
			last.Body = t
		}
		last = innermost
	}
	for p.kind() == tLet {
		t := p.next()
		switch {
		case p.kind() == tLAngle:
			link(p.parseLetTuple(t.pos))
			continue
		case p.kind() == tIdent && p.peekKind() == tLParen:
			nameTok := p.tok()
			name, param, pt, rt := p.parseFunctionHead("let")
			p.expect(tEq, "=")
			fun := p.parseExpr()
			if pos, ok := freeCall(fun, name); ok {
				p.failAt(pos, "%s is not recursive here: let %s(...) = M in N does not bind %s in M (write letrec for a recursive function)", name, name, name)
			}
			p.expect(tIn, "in")
			body := p.parseExpr()
			link(&Letrec{P: nameTok.pos, Name: name, Param: param, ParamT: pt, ResT: rt, Fun: fun, Body: body}, nil)
			return first
		}
		name := p.expect(tIdent, "a variable name after let").text
		var ty Type
		if p.kind() == tColon {
			p.next()
			ty = p.parseType()
		}
		p.expect(tEq, "=")
		bound := p.parseExpr()
		p.expect(tIn, "in")
		l := &Let{P: t.pos, Name: name, T: ty, Bound: bound}
		link(l, l)
	}
	last.Body = p.parseExpr()
	return first
}

// parseFunctionHead parses f(x:T):U after letrec or let.
func (p *parser) parseFunctionHead(what string) (name, param string, pt, rt Type) {
	nameTok := p.expect(tIdent, "a function name after "+what)
	if _, ok := LookupOperator(nameTok.text); ok {
		p.failAt(nameTok.pos, "%s is an operator: a function cannot be named after it", nameTok.text)
	}
	if _, ok := LookupPredicate(nameTok.text); ok {
		p.failAt(nameTok.pos, "%s is a predicate: a function cannot be named after it", nameTok.text)
	}
	p.expect(tLParen, "( and the parameter of "+nameTok.text)
	param = p.expect(tIdent, "a parameter name").text
	p.expect(tColon, "':' and the type of the parameter "+param)
	pt = p.parseType()
	p.expect(tRParen, ")")
	p.expect(tColon, "':' and the result type of "+nameTok.text)
	rt = p.parseType()
	return nameTok.text, param, pt, rt
}

// parseLetTuple parses <x0:T0, ..., xk:Tk> = M in after let and expands it as the
// paper does (§2, LetTuple): for n = 0, let z:unit = M in N; for n = 1,
// let x0:T0 = M in N; otherwise
//
//	let z:T0*...*Tn = M in let <x0:T0, ..., xn-1:Tn-1> = fst(z) in let xn:Tn = snd(z) in N
//
// with z fresh. It returns the chain of lets and its innermost let, whose body N the
// caller parses.
func (p *parser) parseLetTuple(pos Pos) (Term, *Let) {
	p.next() // <
	var names []string
	var types []Type
	seen := map[string]bool{}
	for p.kind() != tRAngle {
		if len(names) > 0 {
			p.expect(tComma, ", or > in the tuple pattern")
		}
		x := p.expect(tIdent, "a variable name in the tuple pattern")
		if seen[x.text] {
			p.failAt(x.pos, "%s is bound twice in the tuple pattern", x.text)
		}
		seen[x.text] = true
		p.expect(tColon, "':' and the type of "+x.text)
		names = append(names, x.text)
		types = append(types, p.parseType())
	}
	p.next() // >
	p.expect(tEq, "=")
	bound := p.parseExpr()
	p.expect(tIn, "in")
	chain := LetTuple(pos, p.names, names, types, bound, nil)
	innermost := chain.(*Let)
	for innermost.Body != nil {
		innermost = innermost.Body.(*Let)
	}
	return chain, innermost
}

// parseCmp parses M <. N (non-associative) and tighter levels.
func (p *parser) parseCmp() Term {
	x := p.parseAdd()
	if p.kind() != tLtDot {
		return x
	}
	t := p.next()
	y := p.parseOpenOr(p.parseAdd)
	if p.kind() == tLtDot {
		p.fail("<. is non-associative: use parentheses")
	}
	return &PredApp{P: t.pos, Pred: Lt, Arg: &Pair{P: x.Pos(), X: x, Y: y}}
}

// parseAdd parses + and - (left-associative) and tighter levels.
func (p *parser) parseAdd() Term {
	x := p.parseMul()
	for k := p.kind(); k == tPlus || k == tMinus; k = p.kind() {
		t := p.next()
		open := startsOpen(p.kind())
		y := p.parseOpenOr(p.parseMul)
		if k == tMinus {
			y = &OpApp{P: t.pos, Op: opNeg(), Arg: y}
		}
		x = &Plus{P: t.pos, X: x, Y: y}
		if open {
			return x
		}
	}
	return x
}

// parseMul parses * and / (left-associative) and tighter levels.
func (p *parser) parseMul() Term {
	x := p.parseUnary()
	for k := p.kind(); k == tStar || k == tSlash; k = p.kind() {
		t := p.next()
		open := startsOpen(p.kind())
		y := p.parseOpenOr(p.parseUnary)
		if k == tSlash {
			y = &OpApp{P: t.pos, Op: opInv(), Arg: y}
		}
		x = &OpApp{P: t.pos, Op: opMul(), Arg: &Pair{P: x.Pos(), X: x, Y: y}}
		if open {
			return x
		}
	}
	return x
}

// parseUnary parses -M (neg) and the negative numeral -r: a minus sign before a
// numeral belongs to the numeral, so -2.rd[...] is (-2).rd[...], while -x.rd[...] is
// neg(x.rd[...]).
func (p *parser) parseUnary() Term {
	if p.kind() != tMinus {
		return p.parsePostfix()
	}
	t := p.next()
	if p.kind() == tNum {
		n := p.next()
		return p.postfix(&RealLit{P: t.pos, R: -n.r})
	}
	p.enter()
	defer p.leave()
	return &OpApp{P: t.pos, Op: opNeg(), Arg: p.parseOpenOr(p.parseUnary)}
}

// parsePostfix parses an atom followed by any number of .rd[L](x:T. N) and
// .fd[L](x:T. N).
func (p *parser) parsePostfix() Term { return p.postfix(p.parseAtom()) }

func (p *parser) postfix(m Term) Term {
	for p.kind() == tDot {
		p.next()
		kind := p.tok()
		if kind.kind != tRd && kind.kind != tFd {
			p.fail("expected rd or fd after '.', found %s", kind.quoted())
		}
		p.next()
		l, x, ty, n := p.parseDerivativeTail()
		if kind.kind == tRd {
			m = &Rd{P: kind.pos, Cotangent: m, Point: l, Param: x, T: ty, Body: n}
		} else {
			m = &Fd{P: kind.pos, Cotangent: m, Point: l, Param: x, T: ty, Body: n}
		}
	}
	return m
}

// parseDerivativeTail parses [L](x:T. N) after rd, fd or grad.
func (p *parser) parseDerivativeTail() (l Term, x string, ty Type, n Term) {
	p.expect(tLBracket, "[ and the point of differentiation")
	l = p.parseExpr()
	p.expect(tRBracket, "]")
	p.expect(tLParen, "( and the variable of differentiation")
	x = p.expect(tIdent, "the variable of differentiation").text
	p.expect(tColon, "':' and the type of "+x)
	ty = p.parseType()
	p.expect(tDot, "'.' after the type of "+x)
	n = p.parseExpr()
	p.expect(tRParen, ") to close the body of the derivative")
	return l, x, ty, n
}

// parseAtom parses a numeral, a variable, name(M1, ..., Mn), (), (M), <M1, ..., Mn>,
// fst(M), snd(M), true, false or grad[L](x:T. N).
func (p *parser) parseAtom() Term {
	t := p.tok()
	switch t.kind {
	case tNum:
		p.next()
		return &RealLit{P: t.pos, R: t.r}
	case tIdent:
		p.next()
		if p.kind() != tLParen {
			return &Var{P: t.pos, Name: t.text}
		}
		arg := p.parseArgs(tLParen, tRParen, ")")
		if op, ok := LookupOperator(t.text); ok {
			return &OpApp{P: t.pos, Op: op, Arg: arg}
		}
		if pr, ok := LookupPredicate(t.text); ok {
			return &PredApp{P: t.pos, Pred: pr, Arg: arg}
		}
		return &Call{P: t.pos, Name: t.text, Arg: arg}
	case tFst, tSnd:
		p.next()
		arg := p.parseArgs(tLParen, tRParen, ")")
		if t.kind == tFst {
			return &Fst{P: t.pos, X: arg}
		}
		return &Snd{P: t.pos, X: arg}
	case tLParen:
		if p.peekKind() == tRParen {
			p.next()
			p.next()
			return &UnitLit{P: t.pos}
		}
		p.next()
		x := p.parseExpr()
		p.expect(tRParen, ")")
		return x
	case tLAngle:
		return p.parseArgs(tLAngle, tRAngle, ">")
	case tTrue, tFalse:
		p.next()
		return &BoolLit{P: t.pos, B: t.kind == tTrue}
	case tGrad:
		p.next()
		l, x, ty, n := p.parseDerivativeTail()
		return &Rd{P: t.pos, Cotangent: &RealLit{P: t.pos, R: 1}, Point: l, Param: x, T: ty, Body: n}
	}
	p.fail("expected an expression%s", foundSuffix(t))
	return nil
}

// parseArgs parses open M1, ..., Mn close and returns the left-nested tuple of the
// Mi: () for n = 0, M1 for n = 1.
func (p *parser) parseArgs(open, close tokKind, closeText string) Term {
	start := p.expect(open, "(")
	var args []Term
	for p.kind() != close {
		if len(args) > 0 {
			p.expect(tComma, ", or "+closeText)
		}
		args = append(args, p.parseExpr())
	}
	p.next()
	return Tuple(start.pos, args)
}

// Tuple is the iterated pairing <M1, ..., Mn> = <<M1, M2>, ...> (() for n = 0, M1 for
// n = 1), without type subscripts.
func Tuple(pos Pos, ms []Term) Term {
	if len(ms) == 0 {
		return &UnitLit{P: pos}
	}
	t := ms[0]
	for _, m := range ms[1:] {
		t = &Pair{P: pos, X: t, Y: m}
	}
	return t
}

// found is ", found TOKEN", or nothing at the end of input.
func foundSuffix(t token) string {
	if t.kind == tEOF {
		return ""
	}
	return ", found " + t.quoted()
}

// Types.

// parseType parses T ::= A | T * A (left-associative).
func (p *parser) parseType() Type {
	p.enter()
	defer p.leave()
	t := p.parseTypeAtom()
	for p.kind() == tStar {
		p.next()
		t = Times(t, p.parseTypeAtom())
	}
	return t
}

// parseTypeAtom parses real, unit or (T).
func (p *parser) parseTypeAtom() Type {
	switch p.kind() {
	case tRealT:
		p.next()
		return Real
	case tUnitT:
		p.next()
		return Unit
	case tLParen:
		p.next()
		t := p.parseType()
		p.expect(tRParen, ") in type")
		return t
	}
	p.fail("expected a type (real, unit, T * T or (T)), found %s", p.tok().quoted())
	return nil
}

// checkTreeDepth records an error if the tree t, with the types it holds, is deeper
// than MaxNesting, by Depth's count: a let's body at the let's depth. It walks the tree
// without recursion.
func (p *parser) checkTreeDepth(t Term) {
	type item struct {
		t Term
		d int
	}
	stack := []item{{t, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if isNil(it.t) {
			continue
		}
		d := it.d
		for _, ty := range nodeTypes(it.t) {
			d = max(d, it.d+typeDepth(ty))
		}
		if d > MaxNesting {
			if len(p.errs) < maxErrors {
				p.errs.Add(it.t.Pos(), fmt.Sprintf("expression nests too deeply (limit %d)", MaxNesting))
			}
			return
		}
		if l, ok := it.t.(*Let); ok { // the body waits under the bound, at the let's depth
			stack = append(stack, item{l.Body, it.d}, item{l.Bound, it.d + 1})
			continue
		}
		for _, c := range Children(it.t) {
			stack = append(stack, item{c, it.d + 1})
		}
	}
}

// nodeTypes returns the types written at a node.
func nodeTypes(t Term) []Type {
	switch t := t.(type) {
	case *Let:
		if t.T != nil {
			return []Type{t.T}
		}
	case *Letrec:
		return []Type{t.ParamT, t.ResT}
	case *Rd:
		return []Type{t.T}
	case *Fd:
		return []Type{t.T}
	}
	return nil
}

// freeCall finds a call of the function variable f that is free in t (not under a
// letrec that rebinds f), without recursion.
func freeCall(t Term, f string) (Pos, bool) {
	stack := []Term{t}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := t.(type) {
		case nil:
			continue
		case *Call:
			if t.Name == f {
				return t.P, true
			}
		case *Letrec:
			if t.Name == f {
				continue
			}
		}
		stack = AppendChildren(stack, t)
	}
	return Pos{}, false
}

func opNeg() *Operator { op, _ := LookupOperator("neg"); return op }
func opInv() *Operator { op, _ := LookupOperator("inv"); return op }
func opMul() *Operator { op, _ := LookupOperator("mul"); return op }
