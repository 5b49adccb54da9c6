package handlers

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// MaxNesting is the deepest nesting of a program that Parse accepts: of commands (a
// let's body a level below the let), brackets and types. It is the differentiable
// language's bound (dpl.MaxNesting), derived from the Go stack: every recursion over a
// program takes at most NestingFrame bytes of stack a level.
const MaxNesting = dpl.MaxNesting

// NestingFrame is the bound, in bytes, on the Go stack that one level of nesting takes
// in any recursion over a program.
const NestingFrame = dpl.NestingFrame

// Parse reads a program (spec §1): declarations, then one command. Terms are the
// differentiable language's (dpl.Parse), without if, letrec, predicates and calls. Sugar
// is expanded here:
//
//	let <x1, ..., xn> <= P in Q = let z <= P in let x1 <= [proj1(z)] in ... in Q  (z fresh)
//
// On failure the error is an interderive.ErrorList of positioned errors, in source
// order; Parse never panics.
func Parse(src []byte) (*Program, error) { return parse(src, false) }

// ParseGenerated is Parse that also reads the generated names (z#3) that Format
// prints: it reads back what Format prints of a parsed program.
func ParseGenerated(src []byte) (*Program, error) { return parse(src, true) }

func parse(src []byte, generated bool) (*Program, error) {
	p := &parser{src: src, generated: generated, names: &dpl.Names{}}
	p.toks = lex(src, generated, &p.errs)
	for _, t := range p.toks {
		if t.kind == tIdent {
			p.names.Reserve(t.text)
		}
	}
	var prog *Program
	p.run(func() {
		prog = p.parseProgram()
		if p.kind() != tEOF {
			p.fail("unexpected %s after the program", p.tok().quoted())
		}
	})
	p.errs.Sort()
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return prog, nil
}

// parser is a recursive-descent parser over the token list. A syntax error aborts the
// parse by panicking with a bailout, which run recovers.
type parser struct {
	src       []byte
	generated bool
	toks      []token
	i         int
	depth     int
	errs      interderive.ErrorList
	names     *dpl.Names // fresh names for the sugar
}

type bailout struct{ err *interderive.Error }

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

func (p *parser) tok() token    { return p.toks[p.i] }
func (p *parser) kind() tokKind { return p.toks[p.i].kind }

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// failAt aborts the parse with an error at pos; at an illegal token, which the lexer
// reported, silently.
func (p *parser) failAt(pos Pos, format string, args ...any) {
	var err *interderive.Error
	if p.kind() != tIllegal {
		err = interderive.Errorf(pos, format, args...)
	}
	panic(bailout{err: err})
}

func (p *parser) fail(format string, args ...any) { p.failAt(p.tok().pos, format, args...) }

func (p *parser) expect(k tokKind, what string) token {
	if p.kind() != k {
		p.fail("expected %s, found %s", what, p.tok().quoted())
	}
	return p.next()
}

func (p *parser) ident(what string) token { return p.expect(tIdent, what) }

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxNesting {
		p.fail("program nests too deeply (limit %d)", MaxNesting)
	}
}

func (p *parser) leave() { p.depth-- }

// parseProgram parses decl* P.
func (p *parser) parseProgram() *Program {
	prog := &Program{}
	seen := map[string]Pos{}
	declare := func(t token, what string) {
		if at, ok := seen[t.text]; ok {
			p.failAt(t.pos, "%s %s is already declared at %s", what, t.text, at)
		}
		seen[t.text] = t.pos
	}
	for {
		switch p.kind() {
		case tOp:
			start := p.next()
			name := p.ident("the name of the operation")
			declare(name, "operation")
			p.expect(tColon, "':' after the operation's name")
			dom := p.parseType()
			p.expect(tArrow, "'->' in the operation's type")
			cod := p.parseType()
			prog.Ops = append(prog.Ops, &OpDecl{P: start.pos, Name: name.text, Dom: dom, Cod: cod})
			continue
		case tHeap:
			start := p.next()
			name := p.ident("the name of the heap location")
			declare(name, "heap location")
			p.expect(tColon, "':' after the location's name")
			t := p.parseType()
			p.expect(tEq, "'=' and the location's initial value")
			v := p.parseValue()
			prog.Heaps = append(prog.Heaps, &HeapDecl{P: start.pos, Name: name.text, T: t, Init: v})
			continue
		}
		break
	}
	if p.kind() == tEOF {
		p.fail("expected a command after the declarations")
	}
	prog.Body = p.parseCmd()
	return prog
}

// parseValue parses a closed value: r, -r, (), <V1, ..., Vn>.
func (p *parser) parseValue() dpl.Term {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch t.kind {
	case tNum:
		p.next()
		return &dpl.RealLit{P: t.pos, R: t.r}
	case tMinus:
		p.next()
		n := p.expect(tNum, "a numeral after '-'")
		return &dpl.RealLit{P: t.pos, R: -n.r}
	case tLParen:
		p.next()
		p.expect(tRParen, "')' of ()")
		return &dpl.UnitLit{P: t.pos}
	case tLAngle:
		p.next()
		var vs []dpl.Term
		for {
			vs = append(vs, p.parseValue())
			if p.kind() != tComma {
				break
			}
			p.next()
		}
		p.expect(tRAngle, "',' or '>'")
		return dpl.Tuple(t.pos, vs)
	}
	p.fail("expected a value (a numeral, () or <V, ...>), found %s", t.quoted())
	return nil
}

// parseType parses T ::= A | T * A (left-associative), A ::= real | unit | (T).
func (p *parser) parseType() dpl.Type {
	p.enter()
	defer p.leave()
	t := p.parseTypeAtom()
	for p.kind() == tStar {
		p.next()
		t = dpl.Times(t, p.parseTypeAtom())
	}
	return t
}

func (p *parser) parseTypeAtom() dpl.Type {
	switch p.kind() {
	case tReal:
		p.next()
		return dpl.Real
	case tUnit:
		p.next()
		return dpl.Unit
	case tLParen:
		p.next()
		t := p.parseType()
		p.expect(tRParen, "')' in type")
		return t
	}
	p.fail("expected a type (real, unit, T * T or (T)), found %s", p.tok().quoted())
	return nil
}

// parseCmd parses a command.
func (p *parser) parseCmd() Cmd {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch t.kind {
	case tLet:
		return p.parseLet()
	case tRev:
		p.next()
		p.expect(tHandleK, "'handle' after 'rev'")
		p.expect(tLParen, "'(' after 'rev handle'")
		arg := p.parseTerm(tRParen)
		p.expect(tLAngle, "'<' and the handled variables")
		var vars []string
		seen := map[string]bool{}
		for {
			x := p.ident("a variable")
			if seen[x.text] {
				p.failAt(x.pos, "variable %s is bound twice", x.text)
			}
			seen[x.text] = true
			vars = append(vars, x.text)
			if p.kind() != tComma {
				break
			}
			p.next()
		}
		p.expect(tRAngle, "',' or '>'")
		p.expect(tDot, "'.' after the handled variables")
		body := p.parseCmd()
		p.expect(tWith, "'with' and a handler")
		h := p.parseHandler()
		return &Handle{P: t.pos, Arg: arg, Vars: vars, Body: body, H: h}
	case tLBracket:
		p.next()
		return &Pure{P: t.pos, M: p.parseTerm(tRBracket)}
	case tIdent:
		p.next()
		p.expect(tLParen, "'(' after the operation "+t.text)
		return &Perform{P: t.pos, Kind: UserOp, Name: t.text, Arg: p.parseTerm(tRParen)}
	case tGet, tPut:
		p.next()
		p.expect(tLBracket, "'[' and a heap location")
		loc := p.ident("a heap location")
		p.expect(tRBracket, "']'")
		if t.kind == tGet {
			open := p.expect(tLParen, "'(' after get[...]")
			p.expect(tRParen, "')': get takes no argument")
			return &Perform{P: t.pos, Kind: GetOp, Name: loc.text, Arg: &dpl.UnitLit{P: open.pos}}
		}
		p.expect(tLParen, "'(' after put[...]")
		return &Perform{P: t.pos, Kind: PutOp, Name: loc.text, Arg: p.parseTerm(tRParen)}
	case tLParen:
		p.next()
		c := p.parseCmd()
		p.expect(tRParen, "')'")
		return c
	}
	p.fail("expected a command ([M], NAME(M), get[a](), put[a](M), let, rev handle or (P)), found %s", t.quoted())
	return nil
}

// parseLet parses let x[:T] <= P in Q and let <x1[:T1], ..., xn[:Tn]> <= P in Q.
func (p *parser) parseLet() Cmd {
	start := p.next()
	type binder struct {
		pos  Pos
		name string
		t    dpl.Type
	}
	one := func() binder {
		x := p.ident("a variable")
		b := binder{pos: x.pos, name: x.text}
		if p.kind() == tColon {
			p.next()
			b.t = p.parseType()
		}
		return b
	}
	var bs []binder
	tuple := p.kind() == tLAngle
	if tuple {
		p.next()
		seen := map[string]bool{}
		for {
			b := one()
			if seen[b.name] {
				p.failAt(b.pos, "variable %s is bound twice", b.name)
			}
			seen[b.name] = true
			bs = append(bs, b)
			if p.kind() != tComma {
				break
			}
			p.next()
		}
		p.expect(tRAngle, "',' or '>'")
	} else {
		bs = append(bs, one())
	}
	p.expect(tLArrow, "'<=' in a command let")
	bound := p.parseCmd()
	p.expect(tIn, "'in'")
	body := p.parseCmd()
	if !tuple || len(bs) == 1 {
		return &Let{P: start.pos, Name: bs[0].name, T: bs[0].t, Bound: bound, Body: body}
	}
	// Def. 3.4: let z <= P in let x1 <= [proj1(z)] in ... let xn <= [projn(z)] in Q,
	// the projections of the left-nested tuple <<x1, x2>, ...>.
	z := p.names.Fresh("z")
	n := len(bs)
	for i := n - 1; i >= 0; i-- {
		var proj dpl.Term = &dpl.Var{P: start.pos, Name: z}
		for range n - 1 - max(i, 1) {
			proj = &dpl.Fst{P: start.pos, X: proj}
		}
		if i == 0 {
			proj = &dpl.Fst{P: start.pos, X: proj}
		} else {
			proj = &dpl.Snd{P: start.pos, X: proj}
		}
		body = &Let{P: bs[i].pos, Name: bs[i].name, T: bs[i].t, Bound: &Pure{P: bs[i].pos, M: proj}, Body: body}
	}
	return &Let{P: start.pos, Name: z, Bound: bound, Body: body}
}

// parseHandler parses { return x -> P (; clause)* }, the clauses in any order.
func (p *parser) parseHandler() *Handler {
	open := p.expect(tLBrace, "'{' of a handler")
	h := &Handler{P: open.pos}
	seenRet := false
	for {
		t := p.tok()
		switch t.kind {
		case tReturn:
			if seenRet {
				p.fail("a handler has one return clause")
			}
			seenRet = true
			p.next()
			h.RetVar = p.ident("the return clause's variable").text
			p.expect(tArrow, "'->'")
			h.Ret = p.parseCmd()
		case tIdent:
			p.next()
			if h.Clause(t.text) != nil {
				p.failAt(t.pos, "the handler has two clauses for %s", t.text)
			}
			p.expect(tLParen, "'(' after the operation")
			x := p.ident("the forward clause's variable")
			p.expect(tRParen, "')'")
			p.expect(tArrow, "'->'")
			fwd := p.parseCmd()
			p.expect(tBar, "'|' and the backward clause")
			y := p.ident("the backward clause's first variable")
			p.expect(tComma, "','")
			z := p.ident("the backward clause's second variable")
			if z.text == y.text {
				p.failAt(z.pos, "variable %s is bound twice", z.text)
			}
			p.expect(tArrow, "'->'")
			bwd := p.parseCmd()
			h.Clauses = append(h.Clauses, &Clause{P: t.pos, Op: t.text, X: x.text, Fwd: fwd, Y: y.text, Z: z.text, Bwd: bwd})
		default:
			p.fail("expected a clause (return x -> P, or NAME(x) -> P | y, z -> Q), found %s", t.quoted())
		}
		if p.kind() != tSemi {
			break
		}
		p.next()
	}
	if p.kind() != tRBrace {
		p.fail("expected ';' or '}', found %s", p.tok().quoted())
	}
	if !seenRet {
		p.failAt(open.pos, "the handler has no return clause")
	}
	p.next()
	return h
}

// parseTerm parses the term that runs up to the closing token close, which balances
// the brackets and parentheses in between, and consumes the closer. The term is read
// by the differentiable language's parser.
func (p *parser) parseTerm(close tokKind) dpl.Term {
	start := p.tok()
	depth := 0
	for {
		k := p.kind()
		switch k {
		case tEOF:
			p.fail("expected %s to close the term", describe(close))
		case tLParen, tLBracket:
			depth++
		case tRParen, tRBracket:
			if depth == 0 {
				if k != close {
					p.fail("expected %s to close the term, found %s", describe(close), p.tok().quoted())
				}
				end := p.tok()
				if end.off == start.off {
					p.failAt(end.pos, "expected a term, found %s", end.quoted())
				}
				m := p.termAt(start, p.src[start.off:end.off])
				p.next()
				return m
			}
			depth--
		}
		p.next()
	}
}

// termAt parses src, which begins at the token start, as a term of the language.
func (p *parser) termAt(start token, src []byte) dpl.Term {
	parse := dpl.Parse
	if p.generated {
		parse = dpl.ParseGenerated
	}
	m, err := parse(src)
	shift := func(q Pos) Pos {
		if !q.IsValid() {
			return q
		}
		if q.Line == 1 {
			q.Col += start.pos.Col - 1
		}
		q.Line += start.pos.Line - 1
		return q
	}
	if err != nil {
		var list interderive.ErrorList
		if !errors.As(err, &list) {
			p.failAt(start.pos, "%v", err)
		}
		for _, e := range list {
			if len(p.errs) < maxErrors {
				p.errs.Add(shift(e.Pos), e.Msg)
			}
		}
		panic(bailout{})
	}
	m, bad := desugar(m, shift)
	if bad != nil {
		p.failAt(bad.Pos, "%s", bad.Msg)
	}
	return m
}

// errAt is a positioned message.
func errAt(pos Pos, format string, args ...any) *interderive.Error {
	return &interderive.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
