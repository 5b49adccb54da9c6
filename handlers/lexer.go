package handlers

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIllegal
	tIdent
	tNum
	tOther // a character that only terms use (+, /, ...): the term parser reads it
	tLParen
	tRParen
	tLBracket
	tRBracket
	tLBrace
	tRBrace
	tLAngle
	tRAngle
	tComma
	tSemi
	tDot
	tColon
	tEq
	tBar
	tStar
	tMinus
	tArrow   // ->
	tLArrow  // <=
	tOp      // op
	tHeap    // heap
	tLet     // let
	tIn      // in
	tRev     // rev
	tHandleK // handle
	tWith    // with
	tReturn  // return
	tGet     // get
	tPut     // put
	tReal    // real
	tUnit    // unit
)

var keywords = map[string]tokKind{
	"op": tOp, "heap": tHeap, "let": tLet, "in": tIn, "rev": tRev, "handle": tHandleK,
	"with": tWith, "return": tReturn, "get": tGet, "put": tPut, "real": tReal, "unit": tUnit,
}

var kindNames = map[tokKind]string{
	tEOF: "end of input", tLParen: "'('", tRParen: "')'", tLBracket: "'['", tRBracket: "']'",
	tLBrace: "'{'", tRBrace: "'}'", tLAngle: "'<'", tRAngle: "'>'", tComma: "','", tSemi: "';'",
	tDot: "'.'", tColon: "':'", tEq: "'='", tBar: "'|'", tStar: "'*'", tMinus: "'-'",
	tArrow: "'->'", tLArrow: "'<='", tIdent: "a name", tNum: "a numeral",
}

// token is one token, with its position and byte offset.
type token struct {
	kind tokKind
	pos  Pos
	off  int // byte offset of the first byte
	end  int // byte offset after the last byte
	text string
	r    float64 // tNum
}

// quoted describes t for a message.
func (t token) quoted() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIdent, tNum:
		return fmt.Sprintf("%q", t.text)
	}
	return "'" + t.text + "'"
}

// describe names a token kind for a message.
func describe(k tokKind) string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	for w, kw := range keywords {
		if kw == k {
			return "'" + w + "'"
		}
	}
	return "a token"
}

// lexer scans a source into tokens. Comments run from -- to the end of the line.
type lexer struct {
	src       []byte
	off       int
	line, col int32
	generated bool
	errs      *interderive.ErrorList
}

// maxErrors bounds the errors a parse collects.
const maxErrors = 10

func lex(src []byte, generated bool, errs *interderive.ErrorList) []token {
	lx := &lexer{src: src, line: 1, col: 1, generated: generated, errs: errs}
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks
		}
	}
}

func (lx *lexer) errorf(pos Pos, format string, args ...any) {
	if len(*lx.errs) < maxErrors {
		lx.errs.Add(pos, fmt.Sprintf(format, args...))
	}
}

func (lx *lexer) byteAt(off int) byte {
	if off < len(lx.src) {
		return lx.src[off]
	}
	return 0
}

// advance moves past one rune of width w.
func (lx *lexer) advance(r rune, w int) {
	lx.off += w
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
}

func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
func isLetter(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isIdentByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '\'' }
func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
}
func (lx *lexer) peek() (rune, int) {
	if lx.off >= len(lx.src) {
		return 0, 0
	}
	return utf8.DecodeRune(lx.src[lx.off:])
}

func (lx *lexer) next() token {
	for {
		r, w := lx.peek()
		switch {
		case w == 0:
			return token{kind: tEOF, pos: Pos{Line: lx.line, Col: lx.col}, off: lx.off, end: lx.off}
		case isSpace(r):
			lx.advance(r, w)
			continue
		case r == '-' && lx.byteAt(lx.off+1) == '-':
			for {
				r, w := lx.peek()
				if w == 0 || r == '\n' {
					break
				}
				lx.advance(r, w)
			}
			continue
		}
		pos := Pos{Line: lx.line, Col: lx.col}
		start := lx.off
		c := lx.src[lx.off]
		switch {
		case isLetter(c):
			for lx.off < len(lx.src) && isIdentByte(lx.src[lx.off]) {
				lx.off++
				lx.col++
			}
			if lx.generated && lx.byteAt(lx.off) == '#' && isDigit(lx.byteAt(lx.off+1)) {
				lx.off++
				lx.col++
				for lx.off < len(lx.src) && isDigit(lx.src[lx.off]) {
					lx.off++
					lx.col++
				}
			}
			text := string(lx.src[start:lx.off])
			kind := tIdent
			if k, ok := keywords[text]; ok {
				kind = k
			}
			return token{kind: kind, pos: pos, off: start, end: lx.off, text: text}
		case isDigit(c):
			return lx.numeral(pos)
		}
		lx.advance(r, w)
		kind := tOther
		switch r {
		case '(':
			kind = tLParen
		case ')':
			kind = tRParen
		case '[':
			kind = tLBracket
		case ']':
			kind = tRBracket
		case '{':
			kind = tLBrace
		case '}':
			kind = tRBrace
		case '>':
			kind = tRAngle
		case ',':
			kind = tComma
		case ';':
			kind = tSemi
		case '.':
			kind = tDot
		case ':':
			kind = tColon
		case '=':
			kind = tEq
		case '|':
			kind = tBar
		case '*':
			kind = tStar
		case '-':
			kind = tMinus
			if lx.byteAt(lx.off) == '>' {
				lx.off++
				lx.col++
				kind = tArrow
			}
		case '<':
			kind = tLAngle
			if lx.byteAt(lx.off) == '=' {
				lx.off++
				lx.col++
				kind = tLArrow
			}
		case '+', '/':
		default:
			if r == utf8.RuneError && w == 1 {
				lx.errorf(pos, "invalid UTF-8 byte %#x", c)
			} else if r == '#' {
				lx.errorf(pos, "unexpected character '#': names with # are generated, never written")
			} else {
				lx.errorf(pos, "unexpected character %s", describeRune(r))
			}
			kind = tIllegal
		}
		return token{kind: kind, pos: pos, off: start, end: lx.off, text: string(lx.src[start:lx.off])}
	}
}

// numeral scans digits ('.' digits)? ([eE] [+-]? digits)?, as the differentiable
// language does.
func (lx *lexer) numeral(pos Pos) token {
	start := lx.off
	skip := func(n int) { lx.off += n; lx.col += int32(n) }
	digits := func() {
		for lx.off < len(lx.src) && isDigit(lx.src[lx.off]) {
			skip(1)
		}
	}
	digits()
	if lx.byteAt(lx.off) == '.' && isDigit(lx.byteAt(lx.off+1)) {
		skip(1)
		digits()
	}
	if e := lx.byteAt(lx.off); e == 'e' || e == 'E' {
		sign := 0
		if s := lx.byteAt(lx.off + 1); s == '+' || s == '-' {
			sign = 1
		}
		if isDigit(lx.byteAt(lx.off + 1 + sign)) {
			skip(1 + sign)
			digits()
		}
	}
	text := string(lx.src[start:lx.off])
	if c := lx.byteAt(lx.off); isIdentByte(c) || c == '#' {
		for lx.off < len(lx.src) && (isIdentByte(lx.src[lx.off]) || lx.src[lx.off] == '#') {
			skip(1)
		}
		lx.errorf(pos, "malformed numeral %q", string(lx.src[start:lx.off]))
		return token{kind: tNum, pos: pos, off: start, end: lx.off, text: text}
	}
	r, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(r, 0) || math.IsNaN(r) {
		lx.errorf(pos, "numeral %s is out of the range of float64", text)
		r = 0
	}
	return token{kind: tNum, pos: pos, off: start, end: lx.off, text: text, r: r}
}

// describeRune names a rune for a message.
func describeRune(r rune) string {
	if strconv.IsPrint(r) {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("U+%04X", r)
}
