package abductive

import (
	"math"
	"sort"
	"strconv"

	"github.com/interderive/interderive"
)

// MaxNesting is the deepest nesting of a term that Parse accepts: of parentheses,
// binders and types in the source, and of the syntax tree (where a left-associative
// chain, f x1 ... xn or 1 + ... + 1, nests without parentheses, and a let's body is a
// level below the let). It is derived from the Go stack as the other calculi's bound
// is (lambda.MaxNesting): every recursion over a term the parser accepted takes at
// most NestingFrame bytes of stack per level, and the deepest of them at MaxNesting
// levels at most half of interderive.StackLimit.
const MaxNesting = interderive.StackLimit / 2 / NestingFrame

// NestingFrame is the bound, in bytes, on the Go stack that one level of nesting takes
// in any recursion over a term (see MaxNesting).
const NestingFrame = 4096

// Parse reads one program, and labels its provisional constants ℓ1, ℓ2, ... in
// source order. On failure the error is an interderive.ErrorList of positioned
// errors, in source order; Parse never panics.
func Parse(src []byte) (Expr, error) {
	p := &parser{}
	p.toks = lex(src, &p.errs)
	var e Expr
	p.run(func() {
		e = p.parseExpr()
		if p.kind() != tEOF {
			p.fail("unexpected %s after the expression", p.tok().quoted())
		}
		if len(p.errs) == 0 {
			p.checkTreeDepth(e)
		}
	})
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			a, b := p.errs[i].Pos, p.errs[j].Pos
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, p.errs
	}
	return e, nil
}

// parser is a recursive-descent parser over the token list. A syntax error aborts the
// parse by panicking with a bailout, which run recovers.
type parser struct {
	toks   []token
	i      int
	depth  int
	labels int // the provisional constants labelled so far
	errs   interderive.ErrorList
}

// bailout carries a syntax error (nil if the lexer reported it already) out of the
// recursion.
type bailout struct{ err *interderive.Error }

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
			p.errs = append(p.errs, b.err)
		}
	}()
	f()
}

func (p *parser) tok() token    { return p.toks[p.i] }
func (p *parser) kind() tokKind { return p.toks[p.i].kind }

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// fail aborts the parse with an error at the current token (silently at an illegal
// character, which the lexer reported).
func (p *parser) fail(format string, args ...any) {
	var err *interderive.Error
	if t := p.tok(); t.kind != tIllegal {
		err = interderive.Errorf(t.pos, format, args...)
	}
	panic(bailout{err})
}

// expect consumes a token of kind k, or fails with "expected WHAT, found ...".
func (p *parser) expect(k tokKind, what string) token {
	if p.kind() != k {
		p.fail("expected %s, found %s", what, p.tok().quoted())
	}
	return p.next()
}

// enter counts one level of nesting and fails beyond MaxNesting; leave undoes it.
func (p *parser) enter() {
	if p.depth++; p.depth > MaxNesting {
		p.fail("expression nests too deeply (limit %d)", MaxNesting)
	}
}

func (p *parser) leave() { p.depth-- }

// startsOpen reports whether k begins a form that extends as far right as possible.
func startsOpen(k tokKind) bool { return k == tLambda || k == tLet || k == tAbduct }

// startsAtom reports whether k begins an argument of an application.
func startsAtom(k tokKind) bool { return k == tNum || k == tIdent || k == tLParen || k == tLBrace }

// parseExpr parses a whole expression: an open form or a sum.
func (p *parser) parseExpr() Expr {
	p.enter()
	defer p.leave()
	if startsOpen(p.kind()) {
		return p.parseOpen()
	}
	return p.parseAdd()
}

// parseOpen parses \x:T. e, let or abduct; the current token starts one of them.
func (p *parser) parseOpen() Expr {
	switch t := p.tok(); t.kind {
	case tLambda:
		return p.parseLam()
	case tAbduct:
		p.next()
		f := p.expect(tIdent, "the model's name after abduct").text
		p.expect(tComma, "',' and the parameters' name")
		par := p.expect(tIdent, "the parameters' name").text
		p.expect(tDot, "'.' after the parameters' name")
		return &Abduct{P: t.pos, F: f, Par: par, Body: p.parseExpr()}
	case tLet:
		return p.parseLet()
	}
	p.fail("expected an expression, found %s", p.tok().quoted())
	return nil
}

// parseLet parses the three lets: let x = e in e, let f x:T ... = e in e (a
// function: the lambdas around e), and let f @ p = e in e ((abduct f, p. e2) e1).
func (p *parser) parseLet() Expr {
	t := p.next()
	name := p.expect(tIdent, "a variable name after let").text
	switch p.kind() {
	case tColon:
		p.fail("a let takes no type (its bound term has one): write let %s = e in e", name)
	case tAt:
		p.next()
		par := p.expect(tIdent, "the parameters' name after @").text
		p.expect(tEq, "=")
		model := p.parseExpr()
		p.expect(tIn, "in")
		body := p.parseExpr()
		return &App{P: model.Pos(), Fun: &Abduct{P: t.pos, F: name, Par: par, Body: body}, Arg: model, Sugar: true}
	}
	type param struct {
		pos  Pos
		name string
		t    Type
	}
	var params []param
	for p.kind() == tIdent {
		x := p.next()
		p.expect(tColon, "':' and the type of "+x.text)
		params = append(params, param{x.pos, x.text, p.parseType()})
	}
	p.expect(tEq, "=")
	bound := p.parseExpr()
	for i := len(params) - 1; i >= 0; i-- {
		bound = &Lam{P: params[i].pos, Param: params[i].name, T: params[i].t, Body: bound}
	}
	p.expect(tIn, "in")
	return &Let{P: t.pos, Name: name, Bound: bound, Body: p.parseExpr()}
}

// parseLam parses \x:T. e; the current token is \.
func (p *parser) parseLam() *Lam {
	t := p.next()
	name := p.expect(tIdent, "a parameter name after \\").text
	if p.kind() == tDot {
		p.fail("the parameter needs a type: \\%s:F. e", name)
	}
	p.expect(tColon, "':' and the parameter's type")
	ty := p.parseType()
	p.expect(tDot, "'.' after the parameter's type")
	return &Lam{P: t.pos, Param: name, T: ty, Body: p.parseExpr()}
}

// addOps and mulOps are the operators of the two levels of binary operations.
var (
	addOps = map[tokKind]Op{tPlus: OpAdd, tMinus: OpSub, tIterAdd: OpIterAdd}
	mulOps = map[tokKind]Op{tStar: OpMul, tSlash: OpDiv, tDot: OpDot, tIterMul: OpIterMul}
)

// parseAdd parses +, - and +L (left-associative) and tighter levels; an open form may
// be the last operand.
func (p *parser) parseAdd() Expr {
	x := p.parseMul()
	for op, ok := addOps[p.kind()]; ok; op, ok = addOps[p.kind()] {
		t := p.next()
		if startsOpen(p.kind()) {
			return &Binary{P: t.pos, Op: op, X: x, Y: p.parseOpen()}
		}
		x = &Binary{P: t.pos, Op: op, X: x, Y: p.parseMul()}
	}
	return x
}

// parseMul parses *, /, . and *L (left-associative) and applications.
func (p *parser) parseMul() Expr {
	x := p.parseApp()
	for op, ok := mulOps[p.kind()]; ok; op, ok = mulOps[p.kind()] {
		t := p.next()
		if startsOpen(p.kind()) {
			return &Binary{P: t.pos, Op: op, X: x, Y: p.parseOpen()}
		}
		x = &Binary{P: t.pos, Op: op, X: x, Y: p.parseApp()}
	}
	return x
}

// parseApp parses an application f a1 ... an (left-associative); the last argument
// may be an open form.
func (p *parser) parseApp() Expr {
	f := p.parseAtom(true)
	for {
		switch k := p.kind(); {
		case startsAtom(k):
			pos := p.tok().pos
			f = &App{P: pos, Fun: f, Arg: p.parseAtom(false)}
		case startsOpen(k):
			pos := p.tok().pos
			return &App{P: pos, Fun: f, Arg: p.parseOpen()}
		default:
			return f
		}
	}
}

// parseAtom parses a numeral, a provisional constant, a variable or (e); where an
// operand starts (head), also a negative numeral -r.
func (p *parser) parseAtom(head bool) Expr {
	t := p.tok()
	switch t.kind {
	case tNum:
		p.next()
		return &Num{P: t.pos, V: p.numeral(t, "")}
	case tMinus:
		if head && p.toks[p.i+1].kind == tNum {
			p.next()
			return &Num{P: t.pos, V: p.numeral(p.next(), "-")}
		}
	case tLBrace:
		p.next()
		sign := ""
		if p.kind() == tMinus {
			p.next()
			sign = "-"
		}
		r := p.numeral(p.expect(tNum, "a numeral in the provisional constant"), sign)
		p.expect(tRBrace, "} after the provisional constant")
		p.labels++
		return &Param{P: t.pos, R: r, Label: p.labels}
	case tIdent:
		p.next()
		return &Var{P: t.pos, Name: t.text}
	case tLParen:
		p.next()
		x := p.parseExpr()
		p.expect(tRParen, ")")
		return x
	}
	if t.kind == tEOF {
		p.fail("expected an expression")
	}
	p.fail("expected an expression, found %s", t.quoted())
	return nil
}

// numeral is the value of the numeral t, with its sign: a finite float64, the
// nearest to the decimal.
func (p *parser) numeral(t token, sign string) float64 {
	r, err := strconv.ParseFloat(sign+t.text, 64)
	if err != nil || math.IsInf(r, 0) {
		if len(p.errs) < maxErrors {
			p.errs = append(p.errs, interderive.Errorf(t.pos, "numeral %s%s out of range (float64)", sign, t.text))
		}
		return 0
	}
	return r
}

// parseType parses T ::= A | A -> T, A ::= F | V | (T).
func (p *parser) parseType() Type {
	p.enter()
	defer p.leave()
	var from Type
	switch p.kind() {
	case tFieldT:
		p.next()
		from = Field
	case tVecT:
		p.next()
		from = &VecType{}
	case tLParen:
		p.next()
		from = p.parseType()
		p.expect(tRParen, ") in type")
	default:
		p.fail("expected a type (F, V, T -> T or (T)), found %s", p.tok().quoted())
	}
	if p.kind() != tArrow {
		return from
	}
	p.next()
	return &Arrow{From: from, To: p.parseType()}
}

// checkTreeDepth fails if the tree e is deeper than MaxNesting (left-associative
// chains build deep trees without nesting in the source). It walks the tree without
// recursion and reports the first node that is too deep.
func (p *parser) checkTreeDepth(e Expr) {
	type item struct {
		e Expr
		d int
	}
	stack := []item{{e, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.d > MaxNesting {
			p.errs = append(p.errs, interderive.Errorf(it.e.Pos(), "expression nests too deeply (limit %d)", MaxNesting))
			return
		}
		kids := Children(it.e)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], it.d + 1})
		}
	}
}

// Depth is the nesting depth of e: a leaf has depth 1, any other node 1 + the largest
// depth of its children. It uses no recursion.
func Depth(e Expr) int {
	type item struct {
		e Expr
		d int
	}
	deepest := 0
	for stack := []item{{e, 1}}; len(stack) > 0; {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		deepest = max(deepest, it.d)
		for _, k := range Children(it.e) {
			stack = append(stack, item{k, it.d + 1})
		}
	}
	return deepest
}
