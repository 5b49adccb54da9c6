package dpl

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// maxErrors is the number of errors after which Parse stops collecting.
const maxErrors = 10

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIllegal         // a character the lexer rejected (already reported)
	tIdent           // x, w', my_fun, dprod2, mul_r (and x#3 in generated text)
	tNum             // 3, 0.5, 1e-3

	// keywords
	tLet
	tLetrec
	tIn
	tIf
	tThen
	tElse
	tTrue
	tFalse
	tFst
	tSnd
	tRealT
	tUnitT
	tRd
	tFd
	tGrad

	// punctuation
	tLParen   // (
	tRParen   // )
	tLBracket // [
	tRBracket // ]
	tLAngle   // <
	tRAngle   // >
	tLtDot    // <.
	tComma    // ,
	tDot      // .
	tColon    // :
	tEq       // =
	tPlus     // +
	tMinus    // -
	tStar     // *
	tSlash    // /
)

var keywords = map[string]tokKind{
	"let": tLet, "letrec": tLetrec, "in": tIn, "if": tIf, "then": tThen, "else": tElse,
	"true": tTrue, "false": tFalse, "fst": tFst, "snd": tSnd, "real": tRealT, "unit": tUnitT,
	"rd": tRd, "fd": tFd, "grad": tGrad,
}

var punctNames = map[tokKind]string{
	tLParen: "(", tRParen: ")", tLBracket: "[", tRBracket: "]", tLAngle: "<", tRAngle: ">",
	tLtDot: "<.", tComma: ",", tDot: ".", tColon: ":", tEq: "=", tPlus: "+", tMinus: "-",
	tStar: "*", tSlash: "/",
}

// token is one lexeme with the position of its first rune.
type token struct {
	kind tokKind
	pos  Pos
	text string  // the source text
	r    float64 // the value of a numeral
}

// String describes the token for error messages.
func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIllegal:
		return "illegal character"
	}
	if s, ok := punctNames[t.kind]; ok {
		return s
	}
	return t.text
}

// quoted is t.String() in quotes, except for the end of input.
func (t token) quoted() string {
	if t.kind == tEOF {
		return "end of input"
	}
	return strconv.Quote(t.String())
}

// lexer turns source bytes into tokens, reporting malformed input as positioned errors.
type lexer struct {
	src       []byte
	off       int
	line, col int32 // a source is at most workbench.MaxSource() ≤ MaxInt32 bytes: no overflow
	generated bool  // accept generated names x#3 (ParseGenerated)
	errs      *interderive.ErrorList
}

// lex returns the tokens of src, ending with a tEOF token. Errors are appended to errs.
func lex(src []byte, generated bool, errs *interderive.ErrorList) []token {
	lx := &lexer{src: src, line: 1, col: 1, generated: generated, errs: errs}
	// A leading byte-order mark is not part of the program.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		lx.off = 3
	}
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

// peek returns the rune at the current offset and its width (0 at the end).
func (lx *lexer) peek() (rune, int) {
	if lx.off >= len(lx.src) {
		return -1, 0
	}
	if c := lx.src[lx.off]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(lx.src[lx.off:])
}

// byteAt returns the byte at offset off, or 0 past the end.
func (lx *lexer) byteAt(off int) byte {
	if off < len(lx.src) {
		return lx.src[off]
	}
	return 0
}

// advance consumes one rune of width w.
func (lx *lexer) advance(r rune, w int) {
	lx.off += w
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
}

// skipBytes consumes n ASCII bytes (no newlines).
func (lx *lexer) skipBytes(n int) {
	lx.off += n
	lx.col += int32(n)
}

// checkRune reports NUL bytes and invalid UTF-8 (anywhere, comments included).
func (lx *lexer) checkRune(pos Pos, r rune, w int) bool {
	switch {
	case r == 0:
		lx.errorf(pos, "illegal NUL character")
		return false
	case r == utf8.RuneError && w == 1:
		lx.errorf(pos, "invalid UTF-8 encoding")
		return false
	}
	return true
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

// isIdentByte reports whether c may continue an identifier: letters, digits, _ and '
// (the paper writes w', y').
func isIdentByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '\'' }

// next scans one token.
func (lx *lexer) next() token {
	for {
		// Skip white space and comments.
		r, w := lx.peek()
		switch {
		case w == 0:
			return token{kind: tEOF, pos: Pos{Line: lx.line, Col: lx.col}}
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			lx.advance(r, w)
			continue
		case r == '-' && lx.byteAt(lx.off+1) == '-':
			for {
				r, w := lx.peek()
				if w == 0 || r == '\n' {
					break
				}
				lx.checkRune(Pos{Line: lx.line, Col: lx.col}, r, w)
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
				lx.skipBytes(1)
			}
			// A generated name: x#3.
			if lx.generated && lx.byteAt(lx.off) == '#' && isDigit(lx.byteAt(lx.off+1)) {
				lx.skipBytes(1)
				for lx.off < len(lx.src) && isDigit(lx.src[lx.off]) {
					lx.skipBytes(1)
				}
			}
			text := string(lx.src[start:lx.off])
			if k, ok := keywords[text]; ok {
				return token{kind: k, pos: pos, text: text}
			}
			return token{kind: tIdent, pos: pos, text: text}
		case isDigit(c):
			return lx.numeral(pos)
		}
		lx.advance(r, w)
		kind := tIllegal
		switch r {
		case '(':
			kind = tLParen
		case ')':
			kind = tRParen
		case '[':
			kind = tLBracket
		case ']':
			kind = tRBracket
		case '>':
			kind = tRAngle
		case ',':
			kind = tComma
		case '.':
			kind = tDot
		case ':':
			kind = tColon
		case '=':
			kind = tEq
		case '+':
			kind = tPlus
		case '-':
			kind = tMinus
		case '*':
			kind = tStar
		case '/':
			kind = tSlash
		case '<':
			kind = tLAngle
			if lx.byteAt(lx.off) == '.' {
				lx.skipBytes(1)
				kind = tLtDot
			}
		case '#':
			lx.errorf(pos, "unexpected character '#': names with # are generated, never written")
		default:
			if lx.checkRune(pos, r, w) {
				lx.errorf(pos, "unexpected character %s", describeRune(r))
			}
		}
		return token{kind: kind, pos: pos, text: string(lx.src[start:lx.off])}
	}
}

// numeral scans digits ('.' digits)? ([eE] [+-]? digits)?. There is no leading or
// trailing dot: in 1.rd[...] the numeral is 1. A numeral must be a finite float64, and
// may not run into a letter (2x is not 2 * x).
func (lx *lexer) numeral(pos Pos) token {
	start := lx.off
	digits := func() {
		for lx.off < len(lx.src) && isDigit(lx.src[lx.off]) {
			lx.skipBytes(1)
		}
	}
	digits()
	if lx.byteAt(lx.off) == '.' && isDigit(lx.byteAt(lx.off+1)) {
		lx.skipBytes(1)
		digits()
	}
	if e := lx.byteAt(lx.off); e == 'e' || e == 'E' {
		sign := 0
		if s := lx.byteAt(lx.off + 1); s == '+' || s == '-' {
			sign = 1
		}
		if isDigit(lx.byteAt(lx.off + 1 + sign)) {
			lx.skipBytes(1 + sign)
			digits()
		}
	}
	text := string(lx.src[start:lx.off])
	if c := lx.byteAt(lx.off); isIdentByte(c) || c == '#' {
		for lx.off < len(lx.src) && (isIdentByte(lx.src[lx.off]) || lx.src[lx.off] == '#') {
			lx.skipBytes(1)
		}
		lx.errorf(pos, "malformed numeral %q", string(lx.src[start:lx.off]))
		return token{kind: tNum, pos: pos, text: text}
	}
	r, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(r, 0) || math.IsNaN(r) {
		lx.errorf(pos, "numeral %s is out of the range of float64", text)
		r = 0
	}
	return token{kind: tNum, pos: pos, text: text, r: r}
}

// describeRune names a rune for an error message: 'x' for printable runes, U+XXXX
// otherwise.
func describeRune(r rune) string {
	if strconv.IsPrint(r) {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("U+%04X", r)
}
