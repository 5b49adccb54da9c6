package gradual

import (
	"fmt"

	"github.com/interderive/interderive"
)

// Lang selects the surface language that Parse reads.
type Lang uint8

// The two languages. GTLC has ascriptions and unannotated binders; the cast calculus
// has casts <T <= S>^l e, coercion applications <c> e and blame l, and requires every
// binder to be annotated.
const (
	GTLC Lang = iota
	CastCalculus
)

// String returns the language's file extension without the dot: "gtlc" or "cast".
func (l Lang) String() string {
	switch l {
	case GTLC:
		return "gtlc"
	case CastCalculus:
		return "cast"
	}
	return fmt.Sprintf("Lang(%d)", uint8(l))
}

// Parse reads one program of language lang. Every node carries the position of its
// first token, except App (the position of its argument's first token) and Binary
// (the position of its operator). On failure the error is an interderive.ErrorList of
// positioned errors, in source order; Parse never panics.
func Parse(src []byte, lang Lang) (Expr, error) {
	if lang != GTLC && lang != CastCalculus {
		return nil, interderive.ErrorList{interderive.Errorf(Pos{}, "unknown language %v", lang)}
	}
	p := newParser(src, lang)
	var e Expr
	p.run(func() {
		e = p.parseExpr()
		p.expectEOF("expression")
		if len(p.errs) == 0 {
			p.checkTreeDepth(e)
		}
	})
	if err := p.err(); err != nil {
		return nil, err
	}
	return e, nil
}

// ParseType reads a type: Int, Bool, Dyn (or ?), T -> T (right-associative), (T).
// On failure the error is an interderive.ErrorList.
func ParseType(src string) (Type, error) {
	p := newParser([]byte(src), GTLC)
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

// ParseCoercion reads a coercion: id, I!, I?^l, c -> c, c ; c, fail^l or (c), where
// I is Int, Bool, Dyn, ? or a parenthesised type; -> binds tighter than ; and both
// associate to the right. Sequences are built with Then, so they are right-nested. On
// failure the error is an interderive.ErrorList.
func ParseCoercion(src string) (Coercion, error) {
	p := newParser([]byte(src), CastCalculus)
	var c Coercion
	p.run(func() {
		c = p.parseCoercion()
		p.expectEOF("coercion")
	})
	if err := p.err(); err != nil {
		return nil, err
	}
	return c, nil
}

// parser is a recursive-descent parser over the whole token list (so that it can
// backtrack). A syntax error aborts the parse by panicking with a bailout, which run
// recovers.
type parser struct {
	toks  []token
	i     int
	lang  Lang
	depth int
	errs  interderive.ErrorList
}

// bailout carries a syntax error out of the recursion; idx is the index of the token
// at which the parse failed, used to pick the error of the alternative that got
// furthest when backtracking.
type bailout struct {
	err *interderive.Error
	idx int
}

func newParser(src []byte, lang Lang) *parser {
	p := &parser{lang: lang}
	p.toks = lex(src, &p.errs)
	return p
}

// run calls f and records the syntax error it bails out with, unless the token it
// failed at is one that the lexer already reported.
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

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// failAt aborts the parse with an error at the position of token index idx. An
// illegal token has already been reported by the lexer, so the parse stops silently.
func (p *parser) failAt(idx int, format string, args ...any) {
	t := p.toks[idx]
	var err *interderive.Error
	if t.kind != tIllegal {
		err = interderive.Errorf(t.pos, format, args...)
	}
	panic(bailout{err: err, idx: idx})
}

// fail aborts the parse with an error at the current token.
func (p *parser) fail(format string, args ...any) { p.failAt(p.i, format, args...) }

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

// try runs f; if it bails out, try restores the parser state and returns the bailout.
func (p *parser) try(f func()) (failed *bailout) {
	saveI, saveDepth := p.i, p.depth
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			p.i, p.depth = saveI, saveDepth
			failed = &b
		}
	}()
	f()
	return nil
}

// Token classes.

// startsOpen reports whether k begins a form that extends as far right as possible.
func startsOpen(k tokKind) bool {
	return k == tLambda || k == tIf || k == tLet || k == tLetrec
}

// startsAtom reports whether k begins an atom (an application's function or argument).
func startsAtom(k tokKind) bool {
	switch k {
	case tInt, tTrue, tFalse, tIdent, tLParen, tBlame:
		return true
	}
	return false
}

// Expressions.

// parseExpr parses a whole expression: an open form or a comparison.
func (p *parser) parseExpr() Expr {
	p.enter()
	defer p.leave()
	if startsOpen(p.kind()) {
		return p.parseOpen()
	}
	return p.parseCmp()
}

// parseLets parses a chain of lets, let x1 = e1 in ... let xn = en in e, in a loop:
// the body of a let is at the let's own depth, so that a chain as long as a generated
// straight-line program nests no deeper than one let (the current token is let).
func (p *parser) parseLets() Expr {
	var first, last *Let
	for p.kind() == tLet {
		t := p.next()
		name := p.expect(tIdent, "a variable name after let").text
		var ty Type
		if p.kind() == tColon {
			p.next()
			ty = p.parseType()
		} else if p.lang == CastCalculus {
			p.fail("let without a type is GTLC syntax; in the cast calculus write let %s:T = e in e", name)
		}
		p.expect(tEq, "=")
		bound := p.parseExpr()
		p.expect(tIn, "in")
		l := &Let{P: t.pos, Name: name, T: ty, Bound: bound}
		if first == nil {
			first = l
		} else {
			last.Body = l
		}
		last = l
	}
	last.Body = p.parseExpr()
	return first
}

// parseOpen parses \x. e, if, let or letrec; the current token starts one of them.
func (p *parser) parseOpen() Expr {
	switch p.kind() {
	case tLambda:
		return p.parseLam()
	case tIf:
		t := p.next()
		cond := p.parseExpr()
		p.expect(tThen, "then")
		th := p.parseExpr()
		p.expect(tElse, "else")
		el := p.parseExpr()
		return &If{P: t.pos, Cond: cond, Then: th, Else: el}
	case tLet:
		return p.parseLets()
	case tLetrec:
		t := p.next()
		name := p.expect(tIdent, "a function name after letrec").text
		p.expect(tColon, "':' and the type of "+name+" (letrec needs one)")
		ty := p.parseType()
		p.expect(tEq, "=")
		funIdx := p.i
		bound := p.parseExpr()
		fun, ok := bound.(*Lam)
		if !ok {
			p.failAt(funIdx, "letrec must bind a function \\x:T. e")
		}
		p.expect(tIn, "in")
		body := p.parseExpr()
		return &Letrec{P: t.pos, Name: name, T: ty, Fun: fun, Body: body}
	}
	p.fail("expected an expression%s", foundSuffix(p.tok()))
	return nil
}

// parseLam parses \x:T. e (or \x. e in GTLC).
func (p *parser) parseLam() Expr {
	t := p.next()
	name := p.expect(tIdent, "a parameter name after \\").text
	ty := Dyn
	if p.kind() == tColon {
		p.next()
		ty = p.parseType()
	} else if p.lang == CastCalculus && p.kind() == tDot {
		p.fail("unannotated lambda is GTLC syntax; in the cast calculus write \\%s:T. e", name)
	}
	p.expect(tDot, "'.' after the parameter")
	body := p.parseExpr()
	return &Lam{P: t.pos, Param: name, T: ty, Body: body}
}

// parseCmp parses e = e and e < e (non-associative) and tighter levels.
func (p *parser) parseCmp() Expr {
	x := p.parseAdd()
	if k := p.kind(); k == tEq || k == tLt {
		t := p.next()
		op := OpEq
		if k == tLt {
			op = OpLt
		}
		var y Expr
		if startsOpen(p.kind()) {
			y = p.parseOpen()
		} else {
			y = p.parseAdd()
		}
		x = &Binary{P: t.pos, Op: op, X: x, Y: y}
		if k := p.kind(); k == tEq || k == tLt {
			p.fail("= and < are non-associative: use parentheses")
		}
	}
	return x
}

// parseAdd parses + and - (left-associative) and tighter levels.
func (p *parser) parseAdd() Expr {
	x := p.parseMul()
	for k := p.kind(); k == tPlus || k == tMinus; k = p.kind() {
		t := p.next()
		op := OpAdd
		if k == tMinus {
			op = OpSub
		}
		if startsOpen(p.kind()) {
			return &Binary{P: t.pos, Op: op, X: x, Y: p.parseOpen()}
		}
		x = &Binary{P: t.pos, Op: op, X: x, Y: p.parseMul()}
	}
	return x
}

// parseMul parses * (left-associative) and tighter levels.
func (p *parser) parseMul() Expr {
	x := p.parsePrefix()
	for p.kind() == tStar {
		t := p.next()
		if startsOpen(p.kind()) {
			return &Binary{P: t.pos, Op: OpMul, X: x, Y: p.parseOpen()}
		}
		x = &Binary{P: t.pos, Op: OpMul, X: x, Y: p.parsePrefix()}
	}
	return x
}

// parsePrefix parses inc, dec, zero?, casts and coercion applications, each applying
// to the whole application (or prefix expression, or open form) that follows, and
// applications.
func (p *parser) parsePrefix() Expr {
	t := p.tok()
	switch t.kind {
	case tInc, tDec, tZero:
		p.next()
		op := OpInc
		switch t.kind {
		case tDec:
			op = OpDec
		case tZero:
			op = OpZero
		}
		return &Unary{P: t.pos, Op: op, X: p.parseOperand()}
	case tLt:
		if p.lang != CastCalculus {
			p.fail("casts <T <= S>^l e and coercions <c> e are cast-calculus syntax; in GTLC write (e : T)")
		}
		return p.parseCastOrCoerce()
	}
	return p.parseApp()
}

// parseOperand parses the operand of a prefix operator.
func (p *parser) parseOperand() Expr {
	p.enter()
	defer p.leave()
	if startsOpen(p.kind()) {
		return p.parseOpen()
	}
	return p.parsePrefix()
}

// parseCastOrCoerce parses <T <= S>^l e or <c> e; the current token is <.
func (p *parser) parseCastOrCoerce() Expr {
	lt := p.next()
	var target, source Type
	var label Label
	castFail := p.try(func() {
		target = p.parseType()
		p.expect(tLe, "<= in cast <T <= S>^l")
		source = p.parseType()
		p.expect(tGt, "> to close the cast <T <= S>")
		p.expect(tCaret, "^ and a blame label after cast <T <= S>")
		label = p.parseLabel()
	})
	if castFail == nil {
		return &Cast{P: lt.pos, Target: target, Source: source, L: label, X: p.parseOperand()}
	}
	var c Coercion
	coFail := p.try(func() {
		c = p.parseCoercion()
		p.expect(tGt, "> to close the coercion <c>")
	})
	if coFail == nil {
		return &Coerce{P: lt.pos, C: c, X: p.parseOperand()}
	}
	// Report the alternative that got further; on a tie, the cast's.
	if coFail.idx > castFail.idx {
		panic(*coFail)
	}
	panic(*castFail)
}

// parseApp parses an application f a1 ... an (left-associative); the last argument
// may be an open form.
func (p *parser) parseApp() Expr {
	f := p.parseAtom()
	for {
		k := p.kind()
		switch {
		case startsAtom(k):
			pos := p.tok().pos
			f = &App{P: pos, Fun: f, Arg: p.parseAtom()}
		case startsOpen(k):
			pos := p.tok().pos
			return &App{P: pos, Fun: f, Arg: p.parseOpen()}
		case k == tInc || k == tDec || k == tZero:
			name := p.tok().String()
			p.fail("an argument that starts with %s must be parenthesised: f (%s e)", name, name)
		default:
			return f
		}
	}
}

// parseAtom parses a literal, variable, blame l, (e) or an ascription (e : T)^l.
func (p *parser) parseAtom() Expr {
	t := p.tok()
	switch t.kind {
	case tInt:
		p.next()
		return &IntLit{P: t.pos, N: t.n}
	case tTrue, tFalse:
		p.next()
		return &BoolLit{P: t.pos, B: t.kind == tTrue}
	case tIdent:
		p.next()
		return &Var{P: t.pos, Name: t.text}
	case tBlame:
		if p.lang != CastCalculus {
			p.fail("blame is cast-calculus syntax")
		}
		p.next()
		return &Blame{P: t.pos, L: p.parseLabel()}
	case tLParen:
		p.next()
		x := p.parseExpr()
		if p.kind() == tColon {
			if p.lang != GTLC {
				p.fail("ascription is GTLC syntax; in the cast calculus write <T <= S>^l e")
			}
			p.next()
			ty := p.parseType()
			p.expect(tRParen, ") to close the ascription")
			var l Label
			if p.kind() == tCaret {
				p.next()
				l = p.parseLabel()
			}
			return &Asc{P: t.pos, X: x, T: ty, L: l}
		}
		p.expect(tRParen, ")")
		return x
	}
	p.fail("expected an expression%s", foundSuffix(t))
	return nil
}

// found is ", found TOKEN", or nothing at the end of input.
func foundSuffix(t token) string {
	if t.kind == tEOF {
		return ""
	}
	return ", found " + t.quoted()
}

// parseLabel parses a blame label: an identifier or LINE:COL.
func (p *parser) parseLabel() Label {
	switch t := p.tok(); t.kind {
	case tIdent, tPosLabel:
		p.next()
		return Label(t.text)
	}
	p.fail("expected a blame label (an identifier or LINE:COL), found %s", p.tok().quoted())
	return ""
}

// checkTreeDepth fails if the tree e is deeper than MaxNesting (left-associative
// chains such as f x1 ... xn build deep trees without nesting in the source), by
// Depth's count: a let's body at the let's depth. It walks the tree in pre-order,
// without recursion, and reports the first node that is too deep.
func (p *parser) checkTreeDepth(e Expr) {
	type item struct {
		e Expr
		d int
	}
	stack := []item{{e, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.e == nil {
			continue
		}
		if it.d > MaxNesting {
			if len(p.errs) < maxErrors {
				p.errs.Add(it.e.Pos(), fmt.Sprintf("expression nests too deeply (limit %d)", MaxNesting))
			}
			return
		}
		if l, ok := it.e.(*Let); ok { // the body waits under the bound, at the let's depth
			stack = append(stack, item{l.Body, it.d}, item{l.Bound, it.d + 1})
			continue
		}
		kids := syntaxChildren(it.e)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], it.d + 1})
		}
	}
}

// children returns the immediate subexpressions of e, left to right.
func syntaxChildren(e Expr) []Expr {
	switch e := e.(type) {
	case *Lam:
		return []Expr{e.Body}
	case *App:
		return []Expr{e.Fun, e.Arg}
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *If:
		return []Expr{e.Cond, e.Then, e.Else}
	case *Asc:
		return []Expr{e.X}
	case *Let:
		return []Expr{e.Bound, e.Body}
	case *Letrec:
		if e.Fun == nil {
			return []Expr{e.Body}
		}
		return []Expr{e.Fun, e.Body}
	case *Cast:
		return []Expr{e.X}
	case *Coerce:
		return []Expr{e.X}
	}
	return nil
}

// Types.

// parseType parses T ::= A | A -> T.
func (p *parser) parseType() Type {
	p.enter()
	defer p.leave()
	from := p.parseTypeAtom()
	if p.kind() != tArrow {
		return from
	}
	p.next()
	return &Arrow{From: from, To: p.parseType()}
}

// parseTypeAtom parses Int, Bool, Dyn, ? or (T).
func (p *parser) parseTypeAtom() Type {
	switch p.kind() {
	case tIntT:
		p.next()
		return Int
	case tBoolT:
		p.next()
		return Bool
	case tDynT, tQuest:
		p.next()
		return Dyn
	case tLParen:
		p.next()
		t := p.parseType()
		p.expect(tRParen, ") in type")
		return t
	}
	p.fail("expected a type (Int, Bool, Dyn, ?, T -> T or (T)), found %s", p.tok().quoted())
	return nil
}

// Coercions.

// parseCoercion parses c ::= a | a ; c where a is an arrow level coercion.
func (p *parser) parseCoercion() Coercion {
	p.enter()
	defer p.leave()
	c := p.parseCoArrow()
	if p.kind() != tSemi {
		return c
	}
	p.next()
	return Then(c, p.parseCoercion())
}

// parseCoArrow parses a ::= b | b -> a.
func (p *parser) parseCoArrow() Coercion {
	dom := p.parseCoAtom()
	if p.kind() != tArrow {
		return dom
	}
	p.next()
	p.enter()
	defer p.leave()
	return &Func{Dom: dom, Cod: p.parseCoArrow()}
}

// parseCoAtom parses id, fail^l, I!, I?^l or (c). At ( it first tries a
// parenthesised type followed by ! or ?, and backtracks to (c).
func (p *parser) parseCoAtom() Coercion {
	switch p.kind() {
	case tId:
		p.next()
		return Id
	case tFail:
		p.next()
		p.expect(tCaret, "^ and a blame label after fail")
		return &Fail{L: p.parseLabel()}
	case tIntT, tBoolT, tDynT, tQuest:
		return p.parseInjProj()
	case tLParen:
		var c Coercion
		tyFail := p.try(func() { c = p.parseInjProj() })
		if tyFail == nil {
			return c
		}
		coFail := p.try(func() {
			p.next()
			c = p.parseCoercion()
			p.expect(tRParen, ") in coercion")
		})
		if coFail == nil {
			return c
		}
		if tyFail.idx > coFail.idx {
			panic(*tyFail)
		}
		panic(*coFail)
	}
	p.fail("expected a coercion (id, I!, I?^l, c -> c, c ; c, fail^l or (c)), found %s", p.tok().quoted())
	return nil
}

// parseInjProj parses I! or I?^l.
func (p *parser) parseInjProj() Coercion {
	t := p.parseTypeAtom()
	switch p.kind() {
	case tBang:
		p.next()
		return &Inj{T: t}
	case tQuest:
		p.next()
		p.expect(tCaret, "^ and a blame label after ?")
		return &Proj{T: t, L: p.parseLabel()}
	}
	p.fail("expected ! or ?^l after the type %s in a coercion, found %s", FormatType(t), p.tok().quoted())
	return nil
}
